-- A message's MIME is kept only while it is pending (a retry sends the same bytes): whatever ends
-- it (sent, failed, cancelled by a change or an erasure) deletes its body, and so does the purge.
CREATE TRIGGER `messages_body_done`
AFTER UPDATE OF `state` ON `messages`
FOR EACH ROW
WHEN NEW.`state` <> 'pending'
BEGIN
  DELETE FROM `message_bodies` WHERE `message_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_body_delete`
AFTER DELETE ON `messages`
FOR EACH ROW
BEGIN
  DELETE FROM `message_bodies` WHERE `message_id` = OLD.`id`;
END;
--> statement-breakpoint
-- During a move only the move's own batches write the property's rows (0001).
CREATE TRIGGER `message_bodies_moving_insert` BEFORE INSERT ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = NEW.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `message_bodies_moving_update` BEFORE UPDATE ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = NEW.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `message_bodies_moving_delete` BEFORE DELETE ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = OLD.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
