CREATE TABLE `oauth_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code_hash` text NOT NULL,
	`client_id` integer NOT NULL,
	`property_id` integer NOT NULL,
	`redirect_uri` text NOT NULL,
	`code_challenge` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`family_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "oauth_codes_challenge_ck" CHECK(length("oauth_codes"."code_challenge") = 43),
	CONSTRAINT "oauth_codes_used_ck" CHECK(("oauth_codes"."used_at" IS NULL) = ("oauth_codes"."family_id" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_codes_hash_uq` ON `oauth_codes` (`code_hash`);--> statement-breakpoint
CREATE INDEX `oauth_codes_expires_idx` ON `oauth_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`family_id` text NOT NULL,
	`client_id` integer NOT NULL,
	`property_id` integer NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`replaced_by` text,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "refresh_tokens_used_ck" CHECK(("refresh_tokens"."used_at" IS NULL) = ("refresh_tokens"."replaced_by" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_hash_uq` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_family_idx` ON `refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_client_property_idx` ON `refresh_tokens` (`client_id`,`property_id`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_expires_idx` ON `refresh_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sign_in_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`locale` text NOT NULL,
	`client_id` integer,
	`redirect_uri` text,
	`state` text,
	`code_challenge` text,
	`property_id` integer,
	`password_stamp` text,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sign_in_sessions_kind_ck" CHECK("sign_in_sessions"."kind" IN ('authorize', 'apps')),
	CONSTRAINT "sign_in_sessions_signed_in_ck" CHECK(("sign_in_sessions"."property_id" IS NULL) = ("sign_in_sessions"."password_stamp" IS NULL)),
	CONSTRAINT "sign_in_sessions_request_ck" CHECK("sign_in_sessions"."kind" = 'apps' OR ("sign_in_sessions"."client_id" IS NOT NULL AND "sign_in_sessions"."redirect_uri" IS NOT NULL AND length("sign_in_sessions"."code_challenge") = 43))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sign_in_sessions_token_uq` ON `sign_in_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sign_in_sessions_expires_idx` ON `sign_in_sessions` (`expires_at`);--> statement-breakpoint
DROP INDEX `api_clients_username_uq`;--> statement-breakpoint
ALTER TABLE `api_clients` ADD `username_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_username_key_uq` ON `api_clients` (`username_key`);--> statement-breakpoint
ALTER TABLE `access_tokens` ADD `property_id` integer REFERENCES property_directory(id);--> statement-breakpoint
ALTER TABLE `access_tokens` ADD `family_id` text;--> statement-breakpoint
CREATE INDEX `access_tokens_client_property_idx` ON `access_tokens` (`client_id`,`property_id`);--> statement-breakpoint
CREATE INDEX `access_tokens_family_idx` ON `access_tokens` (`family_id`);--> statement-breakpoint
ALTER TABLE `property_directory` ADD `username` text;--> statement-breakpoint
ALTER TABLE `property_directory` ADD `username_key` text;--> statement-breakpoint
ALTER TABLE `property_directory` ADD `password_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `property_directory_username_key_uq` ON `property_directory` (`username_key`);