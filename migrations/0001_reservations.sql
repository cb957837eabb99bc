CREATE TABLE `catalog_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`now_min` integer NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reservation_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_id` integer NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`changes` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reservation_history_reservation_idx` ON `reservation_history` (`reservation_id`,`id`);--> statement-breakpoint
DROP INDEX `customers_property_email_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `customers_property_email_uq` ON `customers` (`property_id`,`email`);--> statement-breakpoint
ALTER TABLE `properties` ADD `catalog_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `table_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `payment_due_at` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `checkin_prev_status` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `checkout_prev_status` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `catalog_version` integer;--> statement-breakpoint
CREATE INDEX `reservations_status_due_idx` ON `reservations` (`status`,`payment_due_at`);--> statement-breakpoint
ALTER TABLE `services` ADD `prepayment_window` integer;--> statement-breakpoint
-- No double booking, whatever the load (CONTRACT 5): a hold may not overlap another
-- reservation's hold on the same table. A new party [s, e) conflicts with a hold [hs, he)
-- when s < he and e >= hs (SPEC: a 60-minute party at 13:00 makes the table unavailable
-- from 12:00 inclusive). Stays are at most 1440 minutes, which bounds the index range.
-- A hold on a deleted table is refused too. RAISE aborts the whole D1 batch.
CREATE TRIGGER `reservation_tables_no_overlap`
BEFORE INSERT ON `reservation_tables`
FOR EACH ROW
WHEN EXISTS (
  SELECT 1 FROM `reservation_tables` h
  WHERE h.`table_id` = NEW.`table_id`
    AND h.`reservation_id` <> NEW.`reservation_id`
    AND h.`start_min` > NEW.`start_min` - 1441
    AND h.`start_min` <= NEW.`end_min`
    AND NEW.`start_min` < h.`end_min`
) OR EXISTS (
  SELECT 1 FROM `dining_tables` t WHERE t.`id` = NEW.`table_id` AND t.`deleted_at` IS NOT NULL
)
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
-- upcoming reservation uses it aborts that change's batch (CONTRACT 4): no reservation can slip
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
WHEN NEW.`service_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `services` s WHERE s.`id` = NEW.`service_id` AND s.`deleted_at` IS NOT NULL)
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
-- to rooms, tables, group members and services bumps it, whatever code path made the write.
CREATE TRIGGER `rooms_catalog_version_insert` AFTER INSERT ON `rooms` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `rooms_catalog_version_update` AFTER UPDATE ON `rooms` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `rooms_catalog_version_delete` AFTER DELETE ON `rooms` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_catalog_version_insert` AFTER INSERT ON `dining_tables` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_catalog_version_update` AFTER UPDATE ON `dining_tables` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_catalog_version_delete` AFTER DELETE ON `dining_tables` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_catalog_version_insert` AFTER INSERT ON `table_group_members` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_catalog_version_delete` AFTER DELETE ON `table_group_members` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `services_catalog_version_insert` AFTER INSERT ON `services` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `services_catalog_version_update` AFTER UPDATE ON `services` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `services_catalog_version_delete` AFTER DELETE ON `services` BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;
--> statement-breakpoint
-- Tables chosen on an older catalog (a group's members changed, a table deleted, between the
-- engine's read and the write) are refused; the booking is decided again on fresh data.
CREATE TRIGGER `reservations_catalog_current`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`catalog_version` IS NOT NULL
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
