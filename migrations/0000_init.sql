CREATE TABLE `access_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`client_id` integer NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_hash_uq` ON `access_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `access_tokens_client_idx` ON `access_tokens` (`client_id`,`expires_at`);--> statement-breakpoint
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
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_client_id_uq` ON `api_clients` (`client_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_clients_username_uq` ON `api_clients` (`username`);--> statement-breakpoint
CREATE TABLE `closures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`start_hour` text,
	`end_hour` text,
	`room_ids` text,
	`table_ids` text,
	`service_ids` text,
	`reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `closures_property_dates_idx` ON `closures` (`property_id`,`start_date`,`end_date`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`first_name` text,
	`last_name` text,
	`email` text,
	`phone` text,
	`banned` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_property_email_idx` ON `customers` (`property_id`,`email`);--> statement-breakpoint
CREATE INDEX `customers_property_phone_idx` ON `customers` (`property_id`,`phone`);--> statement-breakpoint
CREATE TABLE `dining_tables` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`room_id` integer NOT NULL,
	`name` text NOT NULL,
	`guests_min` integer DEFAULT 1 NOT NULL,
	`guests_max` integer NOT NULL,
	`bookable` integer DEFAULT true NOT NULL,
	`online` integer DEFAULT true NOT NULL,
	`is_group` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dining_tables_property_idx` ON `dining_tables` (`property_id`,`id`);--> statement-breakpoint
CREATE INDEX `dining_tables_room_idx` ON `dining_tables` (`room_id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`response_type` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `properties` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_key` text NOT NULL,
	`owner_client_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`username` text,
	`password_hash` text,
	`website` text,
	`phone` text,
	`description` text,
	`enabled` integer DEFAULT true NOT NULL,
	`sandbox` integer DEFAULT true NOT NULL,
	`sandbox_expires_at` text,
	`searchengine_enabled` integer DEFAULT false NOT NULL,
	`position` text DEFAULT '{}' NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`owner_client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `properties_public_key_uq` ON `properties` (`public_key`);--> statement-breakpoint
CREATE TABLE `property_grants` (
	`client_id` integer NOT NULL,
	`property_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`client_id`, `property_id`),
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `property_grants_property_idx` ON `property_grants` (`property_id`);--> statement-breakpoint
CREATE TABLE `reservation_tables` (
	`reservation_id` integer NOT NULL,
	`table_id` integer NOT NULL,
	`start_min` integer NOT NULL,
	`end_min` integer NOT NULL,
	PRIMARY KEY(`reservation_id`, `table_id`),
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`table_id`) REFERENCES `dining_tables`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reservation_tables_table_time_idx` ON `reservation_tables` (`table_id`,`start_min`);--> statement-breakpoint
CREATE TABLE `reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`customer_id` integer,
	`service_id` integer,
	`room_id` integer,
	`start_date` text NOT NULL,
	`start_hour` text NOT NULL,
	`start_min` integer NOT NULL,
	`end_min` integer NOT NULL,
	`pax` integer NOT NULL,
	`status` text NOT NULL,
	`channel` text NOT NULL,
	`waiting_list` integer DEFAULT false NOT NULL,
	`notes` text,
	`special_request` text,
	`last_status_change` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`checkin_date` text,
	`checkout_date` text,
	`expiration_date` text,
	`manage_token_hash` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reservations_property_start_idx` ON `reservations` (`property_id`,`start_min`,`id`);--> statement-breakpoint
CREATE INDEX `reservations_service_idx` ON `reservations` (`service_id`,`start_min`);--> statement-breakpoint
CREATE INDEX `reservations_room_idx` ON `reservations` (`room_id`,`start_min`);--> statement-breakpoint
CREATE INDEX `reservations_manage_token_idx` ON `reservations` (`manage_token_hash`);--> statement-breakpoint
CREATE TABLE `rooms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`name` text NOT NULL,
	`bookable` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `rooms_property_idx` ON `rooms` (`property_id`,`id`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`image_url` text,
	`weekdays` text NOT NULL,
	`start_hour` text NOT NULL,
	`end_hour` text NOT NULL,
	`slot_interval` integer,
	`average_stay` integer,
	`pax_min` integer DEFAULT 1 NOT NULL,
	`pax_max` integer,
	`online` integer DEFAULT true NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`valid_from` text,
	`valid_to` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `services_property_idx` ON `services` (`property_id`,`id`);--> statement-breakpoint
CREATE TABLE `table_group_members` (
	`group_id` integer NOT NULL,
	`member_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `member_id`),
	FOREIGN KEY (`group_id`) REFERENCES `dining_tables`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`member_id`) REFERENCES `dining_tables`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `table_group_members_member_idx` ON `table_group_members` (`member_id`);