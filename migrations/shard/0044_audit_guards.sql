-- Written by `npm run db:guards` (scripts/db/triggers.mjs): while a property moves between
-- shards, its rows of audit_log take no write but the move's own.
CREATE TRIGGER `audit_log_moving_insert` BEFORE INSERT ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_moving_update` BEFORE UPDATE ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_moving_delete` BEFORE DELETE ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
