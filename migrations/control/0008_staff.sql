-- Staff: each person's own sign-in to the console (staff_members), their passkeys and the WebAuthn
-- challenges in flight. A console session now names who is at the console (a member, or the
-- platform whose sign-in link opened it, with its role): the sessions open before this have no one
-- to name, so they end here and their browsers sign in again.
CREATE TABLE `passkey_challenges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`challenge` text NOT NULL,
	`staff_id` integer,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`staff_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkey_challenges_token_uq` ON `passkey_challenges` (`token_hash`);--> statement-breakpoint
CREATE INDEX `passkey_challenges_expires_idx` ON `passkey_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `staff_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`name` text,
	`email` text,
	`email_key` text,
	`role` text NOT NULL,
	`account` integer DEFAULT false NOT NULL,
	`password_hash` text,
	`pin_hash` text,
	`pin_failures` integer DEFAULT 0 NOT NULL,
	`pin_locked_until` text,
	`invite_hash` text,
	`invite_expires_at` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_sign_in_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "staff_members_role_ck" CHECK("staff_members"."role" IN ('owner', 'manager', 'host')),
	CONSTRAINT "staff_members_account_ck" CHECK("staff_members"."account" = 0 OR ("staff_members"."email" IS NULL AND "staff_members"."password_hash" IS NULL)),
	CONSTRAINT "staff_members_email_ck" CHECK("staff_members"."account" = 1 OR "staff_members"."email_key" IS NOT NULL),
	CONSTRAINT "staff_members_pin_failures_ck" CHECK("staff_members"."pin_failures" BETWEEN 0 AND 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_members_property_email_uq` ON `staff_members` (`property_id`,`email_key`);--> statement-breakpoint
CREATE INDEX `staff_members_email_idx` ON `staff_members` (`email_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `staff_members_invite_uq` ON `staff_members` (`invite_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `staff_members_account_uq` ON `staff_members` (`property_id`) WHERE "staff_members"."account" = 1;--> statement-breakpoint
CREATE TABLE `staff_passkeys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`staff_id` integer NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_used_at` text,
	FOREIGN KEY (`staff_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_passkeys_credential_uq` ON `staff_passkeys` (`credential_id`);--> statement-breakpoint
CREATE INDEX `staff_passkeys_staff_idx` ON `staff_passkeys` (`staff_id`);--> statement-breakpoint
ALTER TABLE `console_links` ADD `role` text;--> statement-breakpoint
ALTER TABLE `console_links` ADD `staff_id` integer REFERENCES staff_members(id);--> statement-breakpoint
CREATE TABLE `__new_console_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`property_id` integer NOT NULL,
	`locale` text NOT NULL,
	`password_stamp` text NOT NULL,
	`staff_id` integer,
	`signer_id` integer,
	`client_id` integer,
	`role` text,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staff_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`signer_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "console_sessions_who_ck" CHECK(("__new_console_sessions"."staff_id" IS NOT NULL AND "__new_console_sessions"."client_id" IS NULL) OR ("__new_console_sessions"."staff_id" IS NULL AND "__new_console_sessions"."client_id" IS NOT NULL AND "__new_console_sessions"."role" IN ('manager', 'host')))
);
--> statement-breakpoint
DROP TABLE `console_sessions`;--> statement-breakpoint
ALTER TABLE `__new_console_sessions` RENAME TO `console_sessions`;--> statement-breakpoint
CREATE UNIQUE INDEX `console_sessions_token_uq` ON `console_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `console_sessions_property_idx` ON `console_sessions` (`property_id`);--> statement-breakpoint
CREATE INDEX `console_sessions_expires_idx` ON `console_sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `console_sessions_staff_idx` ON `console_sessions` (`staff_id`);--> statement-breakpoint
CREATE INDEX `console_sessions_signer_idx` ON `console_sessions` (`signer_id`);