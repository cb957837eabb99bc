-- The console on a busy night: where each table stands on the floor plan (dining_tables.layout),
-- the walk-in waiting list (walk_ins) and the staff's notes for each day (shift_notes).
CREATE TABLE `shift_notes` (
	`property_id` integer NOT NULL,
	`date` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`property_id`, `date`),
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `walk_ins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`pax` integer NOT NULL,
	`name` text,
	`email` text,
	`phone` text,
	`notes` text,
	`quoted_minutes` integer,
	`state` text DEFAULT 'waiting' NOT NULL,
	`notified_at` text,
	`reservation_id` integer,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "walk_ins_state_ck" CHECK("walk_ins"."state" IN ('waiting', 'notified', 'seated', 'left')),
	CONSTRAINT "walk_ins_pax_ck" CHECK("walk_ins"."pax" BETWEEN 1 AND 1000),
	CONSTRAINT "walk_ins_closed_ck" CHECK(("walk_ins"."state" IN ('seated', 'left')) = ("walk_ins"."closed_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `walk_ins_open_idx` ON `walk_ins` (`property_id`,`closed_at`,`id`);--> statement-breakpoint
ALTER TABLE `dining_tables` ADD `layout` text;