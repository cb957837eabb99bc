-- Staff and who did what. The audit log (kept 13 months); each reservation's last change names who
-- made it (changed_by), and each webhook event too (actor). Messages about the console's accounts
-- gain the staff invitation (`staff_invite`): SQLite changes a CHECK by rebuilding the table, which
-- drops its triggers: they come back unchanged below (the outbox's freeze and id-range triggers,
-- the bodies' clean-up, the offer's guard). The message_bodies triggers name `messages` too, so they
-- go before the rebuild and come back after it. D1 keeps foreign keys on in a migration; the bodies'
-- reference to messages is deferred to the end of the migration's transaction instead.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
DROP TRIGGER `message_bodies_moving_insert`;--> statement-breakpoint
DROP TRIGGER `message_bodies_moving_update`;--> statement-breakpoint
DROP TRIGGER `message_bodies_moving_delete`;--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`at` integer DEFAULT (CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER)) NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`subject_id` integer,
	`ref` integer,
	`fields` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_log_property_at_idx` ON `audit_log` (`property_id`,`at`);--> statement-breakpoint
CREATE TABLE `__new_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer,
	`template` text NOT NULL,
	`recipient` text NOT NULL,
	`to_address` text NOT NULL,
	`locale` text NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`snapshot` text NOT NULL,
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
	CONSTRAINT "messages_template_ck" CHECK("__new_messages"."template" IN ('confirmation', 'waiting', 'change', 'cancellation', 'reminder', 'offer', 'restaurant_booking', 'restaurant_cancellation', 'restaurant_change', 'payment_due', 'payment_refund', 'payment_no_show_fee', 'payment_expired', 'password_reset', 'staff_invite')),
	CONSTRAINT "messages_recipient_ck" CHECK("__new_messages"."recipient" IN ('guest', 'restaurant')),
	CONSTRAINT "messages_state_ck" CHECK("__new_messages"."state" IN ('pending', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "messages_sent_ck" CHECK("__new_messages"."state" <> 'sent' OR "__new_messages"."sent_at" IS NOT NULL),
	CONSTRAINT "messages_reservation_ck" CHECK("__new_messages"."reservation_id" IS NOT NULL OR "__new_messages"."template" IN ('password_reset', 'staff_invite'))
);
--> statement-breakpoint
INSERT INTO `__new_messages`("id", "uid", "property_id", "reservation_id", "template", "recipient", "to_address", "locale", "sequence", "snapshot", "state", "attempts", "next_attempt_at", "lease_until", "queued_at", "last_error", "sent_at", "created_at") SELECT "id", "uid", "property_id", "reservation_id", "template", "recipient", "to_address", "locale", "sequence", "snapshot", "state", "attempts", "next_attempt_at", "lease_until", "queued_at", "last_error", "sent_at", "created_at" FROM `messages`;--> statement-breakpoint
DROP TABLE `messages`;--> statement-breakpoint
ALTER TABLE `__new_messages` RENAME TO `messages`;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_uid_uq` ON `messages` (`uid`);--> statement-breakpoint
CREATE INDEX `messages_reservation_idx` ON `messages` (`reservation_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_due_idx` ON `messages` (`state`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `reservations` ADD `changed_by` text;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `actor` text;
--> statement-breakpoint
CREATE TRIGGER `messages_moving_insert` BEFORE INSERT ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_moving_update` BEFORE UPDATE ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_moving_delete` BEFORE DELETE ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_id_in_range` AFTER INSERT ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: messages');
END;
--> statement-breakpoint
CREATE TRIGGER `messages_offer_with_its_offer` BEFORE INSERT ON `messages` FOR EACH ROW
WHEN NEW.`template` = 'offer'
  AND NOT EXISTS (SELECT 1 FROM `waitlist_offers` o WHERE o.`reservation_id` = NEW.`reservation_id` AND o.`nonce` = json_extract(NEW.`snapshot`, '$.offer.nonce'))
  AND NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
BEGIN
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_body_done`
AFTER UPDATE OF `state` ON `messages`
FOR EACH ROW
WHEN NEW.`state` <> 'pending'
BEGIN
  DELETE FROM `message_bodies` WHERE `message_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_body_delete`
AFTER DELETE ON `messages`
FOR EACH ROW
BEGIN
  DELETE FROM `message_bodies` WHERE `message_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `message_bodies_moving_insert` BEFORE INSERT ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = NEW.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `message_bodies_moving_update` BEFORE UPDATE ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = NEW.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `message_bodies_moving_delete` BEFORE DELETE ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = OLD.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
PRAGMA defer_foreign_keys = off;
