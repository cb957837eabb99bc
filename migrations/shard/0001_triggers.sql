-- Hand-written after drizzle-kit's tables (it does not know triggers). Three kinds:
-- 1. Moves between shards (worker/ops/move.ts): while a property's shard_state is not 'live', every
--    write to its rows aborts with 'property_moving' (the API answers 503), except the move's own
--    batches, which set properties.copying = 1 first and 0 last; copied rows fire no business trigger.
-- 2. The rules of the data: no overlapping holds, optimistic versions, live services, the
--    catalog version the engine's cache is keyed by, and the deletion guard.
-- 3. The webhook outbox: an event row in the very statement that changes a reservation.
-- 1. A property being moved takes no writes but the move's own.
CREATE TRIGGER `rooms_moving_insert` BEFORE INSERT ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `rooms_moving_update` BEFORE UPDATE ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `rooms_moving_delete` BEFORE DELETE ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_moving_insert` BEFORE INSERT ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_moving_update` BEFORE UPDATE ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_moving_delete` BEFORE DELETE ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `services_moving_insert` BEFORE INSERT ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `services_moving_update` BEFORE UPDATE ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `services_moving_delete` BEFORE DELETE ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `closures_moving_insert` BEFORE INSERT ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `closures_moving_update` BEFORE UPDATE ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `closures_moving_delete` BEFORE DELETE ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `customers_moving_insert` BEFORE INSERT ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `customers_moving_update` BEFORE UPDATE ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `customers_moving_delete` BEFORE DELETE ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_moving_insert` BEFORE INSERT ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_moving_update` BEFORE UPDATE ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_moving_delete` BEFORE DELETE ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_changes_moving_insert` BEFORE INSERT ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_changes_moving_update` BEFORE UPDATE ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_changes_moving_delete` BEFORE DELETE ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_subscriptions_moving_insert` BEFORE INSERT ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_subscriptions_moving_update` BEFORE UPDATE ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_subscriptions_moving_delete` BEFORE DELETE ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_moving_insert` BEFORE INSERT ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_moving_update` BEFORE UPDATE ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_moving_delete` BEFORE DELETE ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_moving_insert` BEFORE INSERT ON `table_group_members` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_moving_update` BEFORE UPDATE ON `table_group_members` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_moving_delete` BEFORE DELETE ON `table_group_members` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_tables_moving_insert` BEFORE INSERT ON `reservation_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_tables_moving_update` BEFORE UPDATE ON `reservation_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_tables_moving_delete` BEFORE DELETE ON `reservation_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_history_moving_insert` BEFORE INSERT ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_history_moving_update` BEFORE UPDATE ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_history_moving_delete` BEFORE DELETE ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_moving_insert` BEFORE INSERT ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_moving_update` BEFORE UPDATE ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_moving_delete` BEFORE DELETE ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_attempts_moving_insert` BEFORE INSERT ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_deliveries` WHERE `id` = NEW.`delivery_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_attempts_moving_update` BEFORE UPDATE ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_deliveries` WHERE `id` = NEW.`delivery_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_attempts_moving_delete` BEFORE DELETE ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_deliveries` WHERE `id` = OLD.`delivery_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `properties_moving_update` BEFORE UPDATE ON `properties` FOR EACH ROW
WHEN OLD.`shard_state` <> 'live' AND OLD.`copying` = 0 AND NEW.`copying` = 0
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `properties_moving_delete` BEFORE DELETE ON `properties` FOR EACH ROW
WHEN OLD.`copying` = 0
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
-- 2. No double booking, whatever the load: a hold may not overlap another
-- reservation's hold on the same table. A new party [s, e) conflicts with a hold [hs, he)
-- when s < he and e >= hs (a 60-minute party at 13:00 made the table unavailable from 12:00
-- inclusive; 0033_half_open_stays.sql makes stays half-open). Stays are 5 to 1440 minutes (a CHECK), which bounds the index range.
-- A hold on a deleted table is refused too. RAISE aborts the whole D1 batch.
CREATE TRIGGER `reservation_tables_no_overlap`
BEFORE INSERT ON `reservation_tables`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`)) = 0 AND (EXISTS (
  SELECT 1 FROM `reservation_tables` h
  WHERE h.`table_id` = NEW.`table_id`
    AND h.`reservation_id` <> NEW.`reservation_id`
    AND h.`start_min` > NEW.`start_min` - 1441
    AND h.`start_min` <= NEW.`end_min`
    AND NEW.`start_min` < h.`end_min`
) OR EXISTS (
  SELECT 1 FROM `dining_tables` t WHERE t.`id` = NEW.`table_id` AND t.`deleted_at` IS NOT NULL
))
BEGIN
  SELECT RAISE(ABORT, 'table_not_available');
END;
--> statement-breakpoint
-- Optimistic lock: an update must set version to exactly the old version + 1, so a write
-- based on a stale read aborts its batch instead of overwriting a concurrent change.
CREATE TRIGGER `reservations_version_check`
BEFORE UPDATE OF `version` ON `reservations`
FOR EACH ROW
WHEN NEW.`version` <> OLD.`version` + 1
BEGIN
  SELECT RAISE(ABORT, 'reservation_changed');
END;
--> statement-breakpoint
-- Deleting a room, table or service, or changing a table's members or room (regroup), while an
-- upcoming reservation uses it aborts that change's batch: no reservation can slip
-- in between the check and the change (a booking decided on the old members is refused by
-- reservations_catalog_current below).
-- Upcoming: not final and not yet ended in the property's own clock (NEW.now_min). Used:
-- the reservation's service or room, a table it holds, or a table it asked for while waiting.
CREATE TRIGGER `catalog_changes_guard`
BEFORE INSERT ON `catalog_changes`
FOR EACH ROW
WHEN EXISTS (
  SELECT 1 FROM `reservations` r
  WHERE r.`property_id` = NEW.`property_id`
    AND r.`status` NOT IN ('CANCELLED', 'EXPIRED', 'REJECTED')
    AND r.`start_min` > NEW.`now_min` - 1441
    AND r.`end_min` > NEW.`now_min`
    AND (
      (NEW.`kind` = 'service' AND r.`service_id` = NEW.`target_id`)
      OR (NEW.`kind` = 'room' AND r.`room_id` = NEW.`target_id`)
      OR EXISTS (
        SELECT 1 FROM `dining_tables` t
        WHERE ((NEW.`kind` IN ('table', 'regroup') AND t.`id` = NEW.`target_id`) OR (NEW.`kind` = 'room' AND t.`room_id` = NEW.`target_id`))
          AND (
            EXISTS (SELECT 1 FROM `reservation_tables` rt WHERE rt.`reservation_id` = r.`id` AND rt.`table_id` = t.`id`)
            OR EXISTS (SELECT 1 FROM json_each(r.`table_ids`) j WHERE j.`value` = t.`id`)
          )
      )
    )
)
BEGIN
  SELECT RAISE(ABORT, 'resource_in_use');
END;
--> statement-breakpoint
-- A reservation may not name a service deleted meanwhile (a booking racing the deletion).
CREATE TRIGGER `reservations_live_service`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`service_id` IS NOT NULL AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
  AND EXISTS (SELECT 1 FROM `services` s WHERE s.`id` = NEW.`service_id` AND s.`deleted_at` IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'service_not_found');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_live_service_on_update`
BEFORE UPDATE OF `service_id` ON `reservations`
FOR EACH ROW
WHEN NEW.`service_id` IS NOT OLD.`service_id` AND NEW.`service_id` IS NOT NULL
  AND EXISTS (SELECT 1 FROM `services` s WHERE s.`id` = NEW.`service_id` AND s.`deleted_at` IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'service_not_found');
END;
--> statement-breakpoint
-- The engine caches a property's catalog per isolate, keyed by catalog_version: every write
-- to rooms, tables, group members and services bumps it, whatever code path made the write
-- (a move's copies excepted: the version travels with the property).
CREATE TRIGGER `rooms_catalog_version_insert` AFTER INSERT ON `rooms` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `rooms_catalog_version_update` AFTER UPDATE ON `rooms` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `rooms_catalog_version_delete` AFTER DELETE ON `rooms` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = OLD.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_catalog_version_insert` AFTER INSERT ON `dining_tables` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_catalog_version_update` AFTER UPDATE ON `dining_tables` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_catalog_version_delete` AFTER DELETE ON `dining_tables` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = OLD.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `services_catalog_version_insert` AFTER INSERT ON `services` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `services_catalog_version_update` AFTER UPDATE ON `services` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `services_catalog_version_delete` AFTER DELETE ON `services` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = OLD.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_catalog_version_insert` AFTER INSERT ON `table_group_members` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`)) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_catalog_version_delete` AFTER DELETE ON `table_group_members` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`)) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`);
END;
--> statement-breakpoint
-- Tables chosen on an older catalog (a group's members changed, a table deleted, between the
-- engine's read and the write) are refused; the booking is decided again on fresh data.
CREATE TRIGGER `reservations_catalog_current`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`catalog_version` IS NOT NULL AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
  AND NEW.`catalog_version` <> (SELECT `catalog_version` FROM `properties` WHERE `id` = NEW.`property_id`)
BEGIN
  SELECT RAISE(ABORT, 'catalog_changed');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_catalog_current_on_update`
BEFORE UPDATE OF `catalog_version` ON `reservations`
FOR EACH ROW
WHEN NEW.`catalog_version` IS NOT NULL
  AND NEW.`catalog_version` <> (SELECT `catalog_version` FROM `properties` WHERE `id` = NEW.`property_id`)
BEGIN
  SELECT RAISE(ABORT, 'catalog_changed');
END;
--> statement-breakpoint
-- 3. The outbox. Every new reservation and every change of what the API shows of one
-- writes its event row in the same statement, so in the same D1 batch: a change can never exist
-- without its event, whatever code path made it (API, widget, cron). Only live subscriptions on
-- live properties get rows. The snapshot is the row as drizzle reads it (camelCase keys).
CREATE TRIGGER `reservations_webhook_created`
AFTER INSERT ON `reservations`
FOR EACH ROW
WHEN EXISTS (
  SELECT 1 FROM `webhook_subscriptions` s JOIN `properties` p ON p.`id` = s.`property_id`
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = 'RESERVATION_CREATED'
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL AND p.`deleted_at` IS NULL AND p.`copying` = 0
)
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(16))), NEW.`property_id`, NEW.`id`, 'RESERVATION_CREATED', json_object(
    'id', NEW.`id`, 'propertyId', NEW.`property_id`, 'customerId', NEW.`customer_id`, 'serviceId', NEW.`service_id`,
    'roomId', NEW.`room_id`, 'startDate', NEW.`start_date`, 'startHour', NEW.`start_hour`, 'startMin', NEW.`start_min`,
    'endMin', NEW.`end_min`, 'pax', NEW.`pax`, 'status', NEW.`status`, 'channel', NEW.`channel`,
    'waitingList', NEW.`waiting_list`, 'notes', NEW.`notes`, 'specialRequest', NEW.`special_request`, 'lastStatusChange', NEW.`last_status_change`,
    'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`, 'tableIds', json(NEW.`table_ids`),
    'paymentDueAt', NEW.`payment_due_at`, 'customerSnapshot', json(NEW.`customer_snapshot`)
  ), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
-- Bookkeeping columns (version, updated_at, catalog_version, the manage token, undo memory) are
-- not news; the customer's details are (customer_snapshot).
CREATE TRIGGER `reservations_webhook_updated`
AFTER UPDATE ON `reservations`
FOR EACH ROW
WHEN (OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`service_id` IS NOT NEW.`service_id` OR OLD.`room_id` IS NOT
  NEW.`room_id` OR OLD.`start_date` IS NOT NEW.`start_date` OR OLD.`start_hour` IS NOT NEW.`start_hour` OR
  OLD.`start_min` IS NOT NEW.`start_min` OR OLD.`end_min` IS NOT NEW.`end_min` OR OLD.`pax` IS NOT NEW.`pax` OR
  OLD.`status` IS NOT NEW.`status` OR OLD.`channel` IS NOT NEW.`channel` OR OLD.`waiting_list` IS NOT
  NEW.`waiting_list` OR OLD.`notes` IS NOT NEW.`notes` OR OLD.`special_request` IS NOT NEW.`special_request` OR
  OLD.`last_status_change` IS NOT NEW.`last_status_change` OR OLD.`checkin_date` IS NOT NEW.`checkin_date` OR
  OLD.`checkout_date` IS NOT NEW.`checkout_date` OR OLD.`expiration_date` IS NOT NEW.`expiration_date` OR
  OLD.`table_ids` IS NOT NEW.`table_ids` OR OLD.`payment_due_at` IS NOT NEW.`payment_due_at` OR
  OLD.`customer_snapshot` IS NOT NEW.`customer_snapshot`)
  AND EXISTS (
  SELECT 1 FROM `webhook_subscriptions` s JOIN `properties` p ON p.`id` = s.`property_id`
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = 'RESERVATION_UPDATED'
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL AND p.`deleted_at` IS NULL AND p.`copying` = 0
)
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(16))), NEW.`property_id`, NEW.`id`, 'RESERVATION_UPDATED', json_object(
    'id', NEW.`id`, 'propertyId', NEW.`property_id`, 'customerId', NEW.`customer_id`, 'serviceId', NEW.`service_id`,
    'roomId', NEW.`room_id`, 'startDate', NEW.`start_date`, 'startHour', NEW.`start_hour`, 'startMin', NEW.`start_min`,
    'endMin', NEW.`end_min`, 'pax', NEW.`pax`, 'status', NEW.`status`, 'channel', NEW.`channel`,
    'waitingList', NEW.`waiting_list`, 'notes', NEW.`notes`, 'specialRequest', NEW.`special_request`, 'lastStatusChange', NEW.`last_status_change`,
    'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`, 'tableIds', json(NEW.`table_ids`),
    'paymentDueAt', NEW.`payment_due_at`, 'customerSnapshot', json(NEW.`customer_snapshot`)
  ), json_object(
    'id', OLD.`id`, 'propertyId', OLD.`property_id`, 'customerId', OLD.`customer_id`, 'serviceId', OLD.`service_id`,
    'roomId', OLD.`room_id`, 'startDate', OLD.`start_date`, 'startHour', OLD.`start_hour`, 'startMin', OLD.`start_min`,
    'endMin', OLD.`end_min`, 'pax', OLD.`pax`, 'status', OLD.`status`, 'channel', OLD.`channel`,
    'waitingList', OLD.`waiting_list`, 'notes', OLD.`notes`, 'specialRequest', OLD.`special_request`, 'lastStatusChange', OLD.`last_status_change`,
    'checkinDate', OLD.`checkin_date`, 'checkoutDate', OLD.`checkout_date`, 'expirationDate', OLD.`expiration_date`, 'tableIds', json(OLD.`table_ids`),
    'paymentDueAt', OLD.`payment_due_at`, 'customerSnapshot', json(OLD.`customer_snapshot`)
  ), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
-- Fan-out: one delivery per live subscription of the event's property and type, due at once.
CREATE TRIGGER `webhook_events_fanout`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  INSERT INTO `webhook_deliveries` (`event_id`, `subscription_id`, `property_id`, `reservation_id`, `state`, `next_attempt_at`, `created_at`)
  SELECT NEW.`id`, s.`id`, NEW.`property_id`, NEW.`reservation_id`, 'pending', NEW.`created_at`, NEW.`created_at`
  FROM `webhook_subscriptions` s
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = NEW.`type`
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL;
END;
