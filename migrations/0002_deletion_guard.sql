CREATE TABLE `catalog_deletions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`now_min` integer NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- Deleting a room, table or service that an upcoming reservation uses aborts the deletion's
-- batch (CONTRACT 4), so no reservation can slip in between the check and the delete.
-- Upcoming: not final and not yet ended in the property's own clock (NEW.now_min). Used:
-- the reservation's service or room, a table it holds, or a table it asked for while waiting.
CREATE TRIGGER `catalog_deletions_guard`
BEFORE INSERT ON `catalog_deletions`
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
        WHERE ((NEW.`kind` = 'table' AND t.`id` = NEW.`target_id`) OR (NEW.`kind` = 'room' AND t.`room_id` = NEW.`target_id`))
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
