-- Event bodies live in webhook_event_bodies while any delivery of the event is undelivered
-- (worker/webhooks/webhooks.repo.ts deletes them once all are delivered). The outbox triggers
-- still write the body into webhook_events; this trigger moves it out in the same statement,
-- while the event's row is still on the page it was just written to, so that page keeps room
-- for the next events instead of a body's worth of space nothing will reuse.
CREATE TRIGGER `webhook_events_body`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN NEW.`snapshot` <> '{}'
BEGIN
  INSERT INTO `webhook_event_bodies` (`event_id`, `snapshot`, `previous`, `payload`) VALUES (NEW.`id`, NEW.`snapshot`, NEW.`previous`, NEW.`payload`);
  UPDATE `webhook_events` SET `snapshot` = '{}', `previous` = NULL, `payload` = NULL WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- A body never outlives its event (the retention purge deletes events).
CREATE TRIGGER `webhook_events_body_delete`
AFTER DELETE ON `webhook_events`
FOR EACH ROW
BEGIN
  DELETE FROM `webhook_event_bodies` WHERE `event_id` = OLD.`id`;
END;
--> statement-breakpoint
-- During a move only the move's own batches write the property's rows (0001).
CREATE TRIGGER `webhook_event_bodies_moving_insert` BEFORE INSERT ON `webhook_event_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_events` WHERE `id` = NEW.`event_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_event_bodies_moving_update` BEFORE UPDATE ON `webhook_event_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_events` WHERE `id` = NEW.`event_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_event_bodies_moving_delete` BEFORE DELETE ON `webhook_event_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_events` WHERE `id` = OLD.`event_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
-- The bodies events already hold: kept only where a delivery may still send them.
INSERT INTO `webhook_event_bodies` (`event_id`, `snapshot`, `previous`, `payload`)
SELECT e.`id`, e.`snapshot`, e.`previous`, e.`payload` FROM `webhook_events` e
WHERE e.`snapshot` <> '{}' AND EXISTS (SELECT 1 FROM `webhook_deliveries` d WHERE d.`event_id` = e.`id` AND d.`state` <> 'delivered');
--> statement-breakpoint
UPDATE `webhook_events` SET `snapshot` = '{}', `previous` = NULL, `payload` = NULL WHERE `snapshot` <> '{}';
