CREATE TABLE `catalog_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`now_min` integer NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "catalog_changes_kind_ck" CHECK("catalog_changes"."kind" IN ('room', 'table', 'service', 'regroup'))
);
--> statement-breakpoint
CREATE INDEX `catalog_changes_at_idx` ON `catalog_changes` (`at`);--> statement-breakpoint
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
CREATE UNIQUE INDEX `customers_property_email_uq` ON `customers` (`property_id`,`email`);--> statement-breakpoint
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
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "dining_tables_guests_ck" CHECK("dining_tables"."guests_min" >= 1 AND "dining_tables"."guests_min" <= "dining_tables"."guests_max")
);
--> statement-breakpoint
CREATE INDEX `dining_tables_property_idx` ON `dining_tables` (`property_id`,`id`);--> statement-breakpoint
CREATE INDEX `dining_tables_room_idx` ON `dining_tables` (`room_id`);--> statement-breakpoint
CREATE TABLE `move_sequences` (
	`name` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `properties` (
	`id` integer PRIMARY KEY NOT NULL,
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
	`catalog_version` integer DEFAULT 0 NOT NULL,
	`shard_state` text DEFAULT 'live' NOT NULL,
	`copying` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	CONSTRAINT "properties_shard_state_ck" CHECK("properties"."shard_state" IN ('live', 'leaving', 'arriving')),
	CONSTRAINT "properties_copying_ck" CHECK("properties"."copying" IN (0, 1))
);
--> statement-breakpoint
CREATE TABLE `reservation_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_id` integer NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`changes` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reservation_history_reservation_idx` ON `reservation_history` (`reservation_id`,`id`);--> statement-breakpoint
CREATE TABLE `reservation_tables` (
	`reservation_id` integer NOT NULL,
	`table_id` integer NOT NULL,
	`start_min` integer NOT NULL,
	`end_min` integer NOT NULL,
	PRIMARY KEY(`reservation_id`, `table_id`),
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`table_id`) REFERENCES `dining_tables`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reservation_tables_stay_ck" CHECK("reservation_tables"."end_min" - "reservation_tables"."start_min" BETWEEN 5 AND 1440)
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
	`table_ids` text DEFAULT '[]' NOT NULL,
	`payment_due_at` text,
	`checkin_prev_status` text,
	`checkout_prev_status` text,
	`version` integer DEFAULT 0 NOT NULL,
	`catalog_version` integer,
	`customer_snapshot` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reservations_status_ck" CHECK("reservations"."status" IN ('WAITING', 'ACCEPTED', 'CANCELLED', 'CONFIRMED', 'EXPIRED', 'PREPAY', 'OUTOFORDER', 'REJECTED')),
	CONSTRAINT "reservations_channel_ck" CHECK("reservations"."channel" IN ('PLATFORM_BOOK', 'PLATFORM_ADMIN', 'SEARCHENGINE')),
	CONSTRAINT "reservations_stay_ck" CHECK("reservations"."end_min" - "reservations"."start_min" BETWEEN 5 AND 1440),
	CONSTRAINT "reservations_pax_ck" CHECK("reservations"."pax" >= 1)
);
--> statement-breakpoint
CREATE INDEX `reservations_property_start_idx` ON `reservations` (`property_id`,`start_min`,`id`);--> statement-breakpoint
CREATE INDEX `reservations_service_idx` ON `reservations` (`service_id`,`start_min`);--> statement-breakpoint
CREATE INDEX `reservations_room_idx` ON `reservations` (`room_id`,`start_min`);--> statement-breakpoint
CREATE INDEX `reservations_manage_token_idx` ON `reservations` (`manage_token_hash`);--> statement-breakpoint
CREATE INDEX `reservations_status_due_idx` ON `reservations` (`status`,`payment_due_at`);--> statement-breakpoint
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
	`prepayment_window` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "services_stay_ck" CHECK("services"."average_stay" IS NULL OR "services"."average_stay" BETWEEN 5 AND 1440),
	CONSTRAINT "services_interval_ck" CHECK("services"."slot_interval" IS NULL OR "services"."slot_interval" BETWEEN 5 AND 240),
	CONSTRAINT "services_pax_ck" CHECK("services"."pax_min" >= 1 AND ("services"."pax_max" IS NULL OR "services"."pax_max" >= "services"."pax_min"))
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
CREATE INDEX `table_group_members_member_idx` ON `table_group_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`at` text NOT NULL,
	`status_code` integer,
	`latency_ms` integer NOT NULL,
	`error` text,
	`response_excerpt` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`subscription_id` integer NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`cycle_attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`lease_until` text,
	`queued_at` text,
	`last_status` integer,
	`last_error` text,
	`delivered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "webhook_deliveries_state_ck" CHECK("webhook_deliveries"."state" IN ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_subscription_idx` ON `webhook_deliveries` (`subscription_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_order_idx` ON `webhook_deliveries` (`subscription_id`,`reservation_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_done_idx` ON `webhook_deliveries` (`state`,`delivered_at`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer NOT NULL,
	`type` text NOT NULL,
	`snapshot` text NOT NULL,
	`previous` text,
	`payload` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_events_uid_uq` ON `webhook_events` (`uid`);--> statement-breakpoint
CREATE INDEX `webhook_events_created_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` integer NOT NULL,
	`property_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`webhook_type` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`disabled_at` text,
	`disabled_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_client_idx` ON `webhook_subscriptions` (`client_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_property_type_idx` ON `webhook_subscriptions` (`property_id`,`webhook_type`);