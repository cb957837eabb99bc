-- Each shard hands out ids only from its own range (id_range: base + 1 to base + 10^12), so no two
-- shards ever give the same id. SQLite gives a new row the larger of the table's sequence and its
-- highest id, plus one: rows a move copied in keep their ids, so the code moves the shard to a fresh
-- range before they could raise its counters (worker/shards/shards.ts). Should anything still let a
-- new row take an id outside the range, these refuse it; a move's own batch (`copying`) writes rows
-- with the ids they have. A shard without its id_range row yet (never written to) is not checked.
CREATE TRIGGER `rooms_id_in_range` AFTER INSERT ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: rooms');
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_id_in_range` AFTER INSERT ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: dining_tables');
END;
--> statement-breakpoint
CREATE TRIGGER `services_id_in_range` AFTER INSERT ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: services');
END;
--> statement-breakpoint
CREATE TRIGGER `closures_id_in_range` AFTER INSERT ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: closures');
END;
--> statement-breakpoint
CREATE TRIGGER `customers_id_in_range` AFTER INSERT ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: customers');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_id_in_range` AFTER INSERT ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: reservations');
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_changes_id_in_range` AFTER INSERT ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: catalog_changes');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_subscriptions_id_in_range` AFTER INSERT ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_subscriptions');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_id_in_range` AFTER INSERT ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_events');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_id_in_range` AFTER INSERT ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_deliveries');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_attempts_id_in_range` AFTER INSERT ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_attempts');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_id_in_range` AFTER INSERT ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: messages');
END;
--> statement-breakpoint
CREATE TRIGGER `waitlist_offers_id_in_range` AFTER INSERT ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: waitlist_offers');
END;
