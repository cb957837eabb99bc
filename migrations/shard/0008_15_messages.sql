CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer NOT NULL,
	`template` text NOT NULL,
	`recipient` text NOT NULL,
	`to_address` text NOT NULL,
	`locale` text NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`snapshot` text NOT NULL,
	`raw` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`lease_until` text,
	`queued_at` text,
	`last_error` text,
	`sent_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "messages_template_ck" CHECK("messages"."template" IN ('confirmation', 'waiting', 'change', 'cancellation', 'reminder', 'offer', 'restaurant_booking', 'restaurant_cancellation')),
	CONSTRAINT "messages_recipient_ck" CHECK("messages"."recipient" IN ('guest', 'restaurant')),
	CONSTRAINT "messages_state_ck" CHECK("messages"."state" IN ('pending', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "messages_sent_ck" CHECK("messages"."state" <> 'sent' OR "messages"."sent_at" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_uid_uq` ON `messages` (`uid`);--> statement-breakpoint
CREATE INDEX `messages_reservation_idx` ON `messages` (`reservation_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_due_idx` ON `messages` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `waitlist_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer NOT NULL,
	`nonce` text NOT NULL,
	`token_hash` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`expires_at` text NOT NULL,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "waitlist_offers_state_ck" CHECK("waitlist_offers"."state" IN ('open', 'claimed', 'declined', 'expired')),
	CONSTRAINT "waitlist_offers_closed_ck" CHECK(("waitlist_offers"."state" = 'open') = ("waitlist_offers"."closed_at" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_offers_token_uq` ON `waitlist_offers` (`token_hash`);--> statement-breakpoint
CREATE INDEX `waitlist_offers_open_idx` ON `waitlist_offers` (`state`,`expires_at`);--> statement-breakpoint
CREATE INDEX `waitlist_offers_reservation_idx` ON `waitlist_offers` (`reservation_id`);--> statement-breakpoint
ALTER TABLE `reservations` ADD `guest_locale` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `notify_guest` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `manage_nonce` text;