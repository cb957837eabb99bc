CREATE TABLE `reservation_payments` (
	`reservation_id` integer PRIMARY KEY NOT NULL,
	`account` text NOT NULL,
	`intent` text,
	`customer` text,
	`payment_method` text,
	`fee_intent` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reservation_payments_intent_uq` ON `reservation_payments` (`intent`);--> statement-breakpoint
CREATE UNIQUE INDEX `reservation_payments_fee_intent_uq` ON `reservation_payments` (`fee_intent`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`property_id` integer NOT NULL,
	`type` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stripe_events_at_idx` ON `stripe_events` (`at`);--> statement-breakpoint
ALTER TABLE `properties` ADD `payment_account` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `payment` text;--> statement-breakpoint
ALTER TABLE `services` ADD `payment` text;