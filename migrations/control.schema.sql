-- The schema every migration of migrations/control leaves, as SQLite keeps it: each table, then its indexes
-- and its triggers. Written by `npm run db:schema`; do not edit (npm test fails when it is not
-- what the migrations make).

CREATE TABLE `access_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`client_id` integer NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `property_id` integer REFERENCES property_directory(id), `family_id` text,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE INDEX `access_tokens_client_property_idx` ON `access_tokens` (`client_id`,`property_id`);

CREATE INDEX `access_tokens_expires_idx` ON `access_tokens` (`expires_at`);

CREATE INDEX `access_tokens_family_idx` ON `access_tokens` (`family_id`);

CREATE UNIQUE INDEX `access_tokens_hash_uq` ON `access_tokens` (`token_hash`);

CREATE TABLE `api_clients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`production_enabled` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `username_key` text);

CREATE UNIQUE INDEX `api_clients_client_id_uq` ON `api_clients` (`client_id`);

CREATE UNIQUE INDEX `api_clients_username_key_uq` ON `api_clients` (`username_key`);

CREATE TABLE `console_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`property_id` integer NOT NULL,
	`client_id` integer,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `role` text, `staff_id` integer REFERENCES staff_members(id),
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "console_links_kind_ck" CHECK("console_links"."kind" IN ('reset', 'sign_in'))
);

CREATE INDEX `console_links_expires_idx` ON `console_links` (`expires_at`);

CREATE UNIQUE INDEX `console_links_token_uq` ON `console_links` (`token_hash`);

CREATE TABLE "console_sessions" (
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
	CONSTRAINT "console_sessions_who_ck" CHECK(("console_sessions"."staff_id" IS NOT NULL AND "console_sessions"."client_id" IS NULL) OR ("console_sessions"."staff_id" IS NULL AND "console_sessions"."client_id" IS NOT NULL AND "console_sessions"."role" IN ('manager', 'host')))
);

CREATE INDEX `console_sessions_expires_idx` ON `console_sessions` (`expires_at`);

CREATE INDEX `console_sessions_property_idx` ON `console_sessions` (`property_id`);

CREATE INDEX `console_sessions_signer_idx` ON `console_sessions` (`signer_id`);

CREATE INDEX `console_sessions_staff_idx` ON `console_sessions` (`staff_id`);

CREATE UNIQUE INDEX `console_sessions_token_uq` ON `console_sessions` (`token_hash`);

CREATE TABLE `id_ranges` (
	`base` integer PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "id_ranges_shard_ck" CHECK("id_ranges"."shard" >= 0)
);

CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`response_type` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `subjects` text,
	PRIMARY KEY(`scope`, `key`),
	CONSTRAINT "idempotency_keys_state_ck" CHECK("idempotency_keys"."state" IN ('running', 'done'))
);

CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);

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

CREATE INDEX `oauth_codes_expires_idx` ON `oauth_codes` (`expires_at`);

CREATE UNIQUE INDEX `oauth_codes_hash_uq` ON `oauth_codes` (`code_hash`);

CREATE TABLE `passkey_challenges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`challenge` text NOT NULL,
	`staff_id` integer,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`staff_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE INDEX `passkey_challenges_expires_idx` ON `passkey_challenges` (`expires_at`);

CREATE UNIQUE INDEX `passkey_challenges_token_uq` ON `passkey_challenges` (`token_hash`);

CREATE TABLE `payment_accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`property_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE UNIQUE INDEX `payment_accounts_property_uq` ON `payment_accounts` (`property_id`);

CREATE TABLE `property_directory` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_key` text NOT NULL,
	`owner_client_id` integer NOT NULL,
	`shard` integer NOT NULL,
	`moving_since` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text, `username` text, `username_key` text, `password_hash` text,
	FOREIGN KEY (`owner_client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "property_directory_shard_ck" CHECK("property_directory"."shard" >= 0)
);

CREATE UNIQUE INDEX `property_directory_public_key_uq` ON `property_directory` (`public_key`);

CREATE INDEX `property_directory_shard_idx` ON `property_directory` (`shard`,`deleted_at`);

CREATE UNIQUE INDEX `property_directory_username_key_uq` ON `property_directory` (`username_key`);

CREATE TRIGGER `property_directory_account_member`
AFTER INSERT ON `property_directory`
FOR EACH ROW
WHEN NEW.`username_key` IS NOT NULL
BEGIN
  INSERT INTO `staff_members` (`property_id`, `name`, `role`, `account`) VALUES (NEW.`id`, NEW.`username`, 'owner', 1);
END;

CREATE TRIGGER `property_directory_account_member_renamed`
AFTER UPDATE OF `username`, `username_key` ON `property_directory`
FOR EACH ROW
WHEN NEW.`username_key` IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO `staff_members` (`property_id`, `name`, `role`, `account`) VALUES (NEW.`id`, NEW.`username`, 'owner', 1);
  UPDATE `staff_members` SET `name` = NEW.`username` WHERE `property_id` = NEW.`id` AND `account` = 1;
END;

CREATE TRIGGER `property_directory_password_ends_reset_links`
AFTER UPDATE OF `password_hash` ON `property_directory`
FOR EACH ROW
WHEN OLD.`password_hash` IS NOT NEW.`password_hash`
BEGIN
  DELETE FROM `console_links` WHERE `property_id` = NEW.`id` AND `kind` = 'reset' AND `staff_id` IS NULL;
END;

CREATE TABLE `property_grants` (
	`client_id` integer NOT NULL,
	`property_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`client_id`, `property_id`),
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`property_id`) REFERENCES `property_directory`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE INDEX `property_grants_property_idx` ON `property_grants` (`property_id`);

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

CREATE INDEX `refresh_tokens_client_property_idx` ON `refresh_tokens` (`client_id`,`property_id`);

CREATE INDEX `refresh_tokens_expires_idx` ON `refresh_tokens` (`expires_at`);

CREATE INDEX `refresh_tokens_family_idx` ON `refresh_tokens` (`family_id`);

CREATE UNIQUE INDEX `refresh_tokens_hash_uq` ON `refresh_tokens` (`token_hash`);

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

CREATE INDEX `sign_in_sessions_expires_idx` ON `sign_in_sessions` (`expires_at`);

CREATE UNIQUE INDEX `sign_in_sessions_token_uq` ON `sign_in_sessions` (`token_hash`);

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

CREATE UNIQUE INDEX `staff_members_account_uq` ON `staff_members` (`property_id`) WHERE "staff_members"."account" = 1;

CREATE INDEX `staff_members_email_idx` ON `staff_members` (`email_key`);

CREATE UNIQUE INDEX `staff_members_invite_uq` ON `staff_members` (`invite_hash`);

CREATE UNIQUE INDEX `staff_members_property_email_uq` ON `staff_members` (`property_id`,`email_key`);

CREATE TRIGGER `staff_members_last_owner`
BEFORE UPDATE OF `role`, `active` ON `staff_members`
FOR EACH ROW
WHEN OLD.`role` = 'owner' AND OLD.`active` = 1 AND (OLD.`account` = 1 OR OLD.`password_hash` IS NOT NULL)
  AND (NEW.`role` <> 'owner' OR NEW.`active` = 0)
  AND NOT EXISTS (
    SELECT 1 FROM `staff_members` s
    WHERE s.`property_id` = OLD.`property_id` AND s.`id` <> OLD.`id` AND s.`role` = 'owner' AND s.`active` = 1
      AND (s.`account` = 1 OR s.`password_hash` IS NOT NULL)
  )
BEGIN
  SELECT RAISE(ABORT, 'last_owner');
END;

CREATE TRIGGER `staff_members_password_ends_reset_links`
AFTER UPDATE OF `password_hash` ON `staff_members`
FOR EACH ROW
WHEN OLD.`password_hash` IS NOT NEW.`password_hash`
BEGIN
  DELETE FROM `console_links` WHERE `staff_id` = NEW.`id` AND `kind` = 'reset';
END;

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

CREATE UNIQUE INDEX `staff_passkeys_credential_uq` ON `staff_passkeys` (`credential_id`);

CREATE INDEX `staff_passkeys_staff_idx` ON `staff_passkeys` (`staff_id`);
