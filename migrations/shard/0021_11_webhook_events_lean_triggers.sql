-- An event's webhook-id is 'msg_' and its id (webhooks.repo.ts WEBHOOK_ID): the trigger that moves
-- the body out also empties the random uid the outbox triggers write, so the row keeps neither
-- (about 40 bytes an event, and its unique index goes: nothing looks events up by it).
DROP TRIGGER `webhook_events_body`;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_body`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN NEW.`snapshot` <> '{}'
BEGIN
  INSERT INTO `webhook_event_bodies` (`event_id`, `snapshot`, `previous`, `payload`) VALUES (NEW.`id`, NEW.`snapshot`, NEW.`previous`, NEW.`payload`);
  UPDATE `webhook_events` SET `uid` = '', `snapshot` = '{}', `previous` = NULL, `payload` = NULL WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- The retention purge now finds events through the deliveries it drops; an event the purge before
-- left without deliveries (it ran out of its limit) goes now.
DELETE FROM `webhook_events` WHERE NOT EXISTS (SELECT 1 FROM `webhook_deliveries` x WHERE x.`event_id` = `webhook_events`.`id`);
