ALTER TABLE `customers` ADD `locale` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `customers` ADD `allergies` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `notes` text;--> statement-breakpoint
ALTER TABLE `customers` ADD `marketing_consent` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `customers` ADD `erased_at` text;--> statement-breakpoint
ALTER TABLE `dining_tables` ADD `guests_max_auto` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `occasion` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `allergies` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `guest` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `override_pacing` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `status_reason` text;--> statement-breakpoint
CREATE INDEX `reservations_customer_idx` ON `reservations` (`customer_id`,`start_min`);--> statement-breakpoint
ALTER TABLE `services` ADD `pacing_interval` integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `max_covers_per_interval` integer;--> statement-breakpoint
ALTER TABLE `services` ADD `max_parties_per_interval` integer;