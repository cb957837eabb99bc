-- Written by `npm run db:guards` (scripts/db/triggers.mjs): while a property moves between
-- shards, its rows of walk_ins, shift_notes take no write but the move's own.
CREATE TRIGGER `walk_ins_moving_insert` BEFORE INSERT ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `walk_ins_moving_update` BEFORE UPDATE ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `walk_ins_moving_delete` BEFORE DELETE ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `shift_notes_moving_insert` BEFORE INSERT ON `shift_notes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `shift_notes_moving_update` BEFORE UPDATE ON `shift_notes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `shift_notes_moving_delete` BEFORE DELETE ON `shift_notes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
