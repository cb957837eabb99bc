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
ALTER TABLE `reservations` ADD `table_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `payment_due_at` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `checkin_prev_status` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `checkout_prev_status` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
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
