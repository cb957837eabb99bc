DROP INDEX `reservation_tables_table_time_idx`;--> statement-breakpoint
CREATE INDEX `reservation_tables_table_time_idx` ON `reservation_tables` (`table_id`,`start_min`,`end_min`);--> statement-breakpoint
ALTER TABLE `properties` ADD `holds_version` integer DEFAULT 0 NOT NULL;