CREATE TABLE `console_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`property_id` integer NOT NULL,
	`client_id` integer,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "console_links_kind_ck" CHECK("console_links"."kind" IN ('reset', 'sign_in'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `console_links_token_uq` ON `console_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `console_links_expires_idx` ON `console_links` (`expires_at`);--> statement-breakpoint
CREATE TABLE `console_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`property_id` integer NOT NULL,
	`locale` text NOT NULL,
	`password_stamp` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `console_sessions_token_uq` ON `console_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `console_sessions_property_idx` ON `console_sessions` (`property_id`);--> statement-breakpoint
CREATE INDEX `console_sessions_expires_idx` ON `console_sessions` (`expires_at`);