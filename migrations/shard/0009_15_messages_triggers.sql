-- Hand-written after 0008 (drizzle-kit does not know triggers): the messages outbox and the
-- waiting-list offers are property-scoped, so a property being moved between shards takes no
-- write to them but the move's own (see 0001_triggers.sql, part 1).
CREATE TRIGGER `messages_moving_insert` BEFORE INSERT ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_moving_update` BEFORE UPDATE ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_moving_delete` BEFORE DELETE ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_offers_moving_insert` BEFORE INSERT ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_offers_moving_update` BEFORE UPDATE ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_offers_moving_delete` BEFORE DELETE ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
