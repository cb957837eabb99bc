CREATE TABLE `payment_accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`property_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_accounts_property_uq` ON `payment_accounts` (`property_id`);