-- The schema every migration of migrations/shard leaves, as SQLite keeps it: each table, then its indexes
-- and its triggers. Written by `npm run db:schema`; do not edit (npm test fails when it is not
-- what the migrations make).

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

CREATE INDEX `audit_log_property_at_idx` ON `audit_log` (`property_id`,`at`);

CREATE TRIGGER `audit_log_id_in_range` AFTER INSERT ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: audit_log');
END;

CREATE TRIGGER `audit_log_moving_delete` BEFORE DELETE ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `audit_log_moving_insert` BEFORE INSERT ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `audit_log_moving_update` BEFORE UPDATE ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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

CREATE INDEX `catalog_changes_at_idx` ON `catalog_changes` (`at`);

CREATE TRIGGER `catalog_changes_guard`
BEFORE INSERT ON `catalog_changes`
FOR EACH ROW
WHEN EXISTS (
  SELECT 1 FROM `reservations` r
  WHERE r.`property_id` = NEW.`property_id`
    AND r.`status` NOT IN ('CANCELLED', 'EXPIRED', 'REJECTED')
    AND r.`start_min` > NEW.`now_min` - 1441
    AND r.`end_min` > NEW.`now_min`
    AND (
      (NEW.`kind` = 'service' AND r.`service_id` = NEW.`target_id`)
      OR (NEW.`kind` = 'room' AND r.`room_id` = NEW.`target_id`)
      OR EXISTS (
        SELECT 1 FROM `dining_tables` t
        WHERE ((NEW.`kind` IN ('table', 'regroup') AND t.`id` = NEW.`target_id`) OR (NEW.`kind` = 'room' AND t.`room_id` = NEW.`target_id`))
          AND (
            EXISTS (SELECT 1 FROM `reservation_tables` rt WHERE rt.`reservation_id` = r.`id` AND rt.`table_id` = t.`id`)
            OR EXISTS (SELECT 1 FROM json_each(r.`table_ids`) j WHERE j.`value` = t.`id`)
          )
      )
    )
)
BEGIN
  SELECT RAISE(ABORT, 'resource_in_use');
END;

CREATE TRIGGER `catalog_changes_id_in_range` AFTER INSERT ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: catalog_changes');
END;

CREATE TRIGGER `catalog_changes_moving_delete` BEFORE DELETE ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `catalog_changes_moving_insert` BEFORE INSERT ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `catalog_changes_moving_update` BEFORE UPDATE ON `catalog_changes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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

CREATE INDEX `closures_property_dates_idx` ON `closures` (`property_id`,`start_date`,`end_date`);

CREATE TRIGGER `closures_id_in_range` AFTER INSERT ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: closures');
END;

CREATE TRIGGER `closures_moving_delete` BEFORE DELETE ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `closures_moving_insert` BEFORE INSERT ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `closures_moving_update` BEFORE UPDATE ON `closures` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`first_name` text,
	`last_name` text,
	`email` text,
	`phone` text,
	`banned` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `locale` text, `tags` text DEFAULT '[]' NOT NULL, `allergies` text, `notes` text, `marketing_consent` integer DEFAULT false NOT NULL, `erased_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE UNIQUE INDEX `customers_property_email_uq` ON `customers` (`property_id`,`email`);

CREATE INDEX `customers_property_phone_idx` ON `customers` (`property_id`,`phone`);

CREATE TRIGGER `customers_id_in_range` AFTER INSERT ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: customers');
END;

CREATE TRIGGER `customers_keep_guests`
BEFORE UPDATE OF `first_name`, `last_name`, `email`, `phone` ON `customers`
FOR EACH ROW
WHEN OLD.`erased_at` IS NULL AND NEW.`erased_at` IS NULL AND (OLD.`first_name` IS NOT NEW.`first_name`
  OR OLD.`last_name` IS NOT NEW.`last_name` OR OLD.`email` IS NOT NEW.`email` OR OLD.`phone` IS NOT NEW.`phone`)
BEGIN
  UPDATE `reservations` SET `guest` = json_object('first_name', OLD.`first_name`, 'last_name', OLD.`last_name`, 'email', OLD.`email`, 'phone', OLD.`phone`)
  WHERE `customer_id` = OLD.`id` AND `guest` IS NULL;
END;

CREATE TRIGGER `customers_moving_delete` BEFORE DELETE ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `customers_moving_insert` BEFORE INSERT ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `customers_moving_update` BEFORE UPDATE ON `customers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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
	`deleted_at` text, `guests_max_auto` integer DEFAULT false NOT NULL, `layout` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "dining_tables_guests_ck" CHECK("dining_tables"."guests_min" >= 1 AND "dining_tables"."guests_min" <= "dining_tables"."guests_max")
);

CREATE INDEX `dining_tables_property_idx` ON `dining_tables` (`property_id`,`id`);

CREATE INDEX `dining_tables_room_idx` ON `dining_tables` (`room_id`);

CREATE TRIGGER `dining_tables_capacity_follow`
AFTER UPDATE OF `guests_max_auto` ON `dining_tables`
FOR EACH ROW
WHEN NEW.`guests_max_auto` = 1 AND OLD.`guests_max_auto` = 0 AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`))) WHERE `id` = NEW.`id`;
END;

CREATE TRIGGER `dining_tables_capacity_member`
AFTER UPDATE OF `guests_max` ON `dining_tables`
FOR EACH ROW
WHEN OLD.`guests_max` IS NOT NEW.`guests_max` AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`)))
  WHERE `guests_max_auto` = 1 AND `id` IN (SELECT `group_id` FROM `table_group_members` WHERE `member_id` = NEW.`id`);
END;

CREATE TRIGGER `dining_tables_catalog_version_delete` AFTER DELETE ON `dining_tables` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = OLD.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;

CREATE TRIGGER `dining_tables_catalog_version_insert` AFTER INSERT ON `dining_tables` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;

CREATE TRIGGER `dining_tables_catalog_version_update` AFTER UPDATE ON `dining_tables` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;

CREATE TRIGGER `dining_tables_id_in_range` AFTER INSERT ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: dining_tables');
END;

CREATE TRIGGER `dining_tables_moving_delete` BEFORE DELETE ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `dining_tables_moving_insert` BEFORE INSERT ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `dining_tables_moving_update` BEFORE UPDATE ON `dining_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `guest_booking_checks` (
	`property_id` integer NOT NULL,
	`email` text,
	`phone` text,
	`now_min` integer NOT NULL,
	`max_bookings` integer NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "guest_booking_checks_max_ck" CHECK("guest_booking_checks"."max_bookings" >= 1)
);

CREATE TRIGGER `guest_booking_checks_limit`
BEFORE INSERT ON `guest_booking_checks`
FOR EACH ROW
WHEN NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
AND (
  SELECT count(*)
  FROM `reservations` r
  LEFT JOIN `customers` c ON c.`id` = r.`customer_id`
  WHERE r.`property_id` = NEW.`property_id`
    AND r.`start_min` >= NEW.`now_min`
    AND r.`channel` IN ('PLATFORM_BOOK', 'SEARCHENGINE')
    AND r.`status` IN ('WAITING', 'PREPAY', 'ACCEPTED', 'CONFIRMED')
    AND r.`checkin_date` IS NULL
    AND (
      (NEW.`email` IS NOT NULL AND CASE WHEN instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '+') BETWEEN 1 AND instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '@') THEN substr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), 1, instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '+') - 1) || substr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '@')) ELSE lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END) END = CASE WHEN instr(lower(NEW.`email`), '+') BETWEEN 1 AND instr(lower(NEW.`email`), '@') THEN substr(lower(NEW.`email`), 1, instr(lower(NEW.`email`), '+') - 1) || substr(lower(NEW.`email`), instr(lower(NEW.`email`), '@')) ELSE lower(NEW.`email`) END)
      OR (length(ltrim(replace(replace(replace(replace(replace(replace(replace(NEW.`phone`, ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0')) >= 6 AND ltrim(replace(replace(replace(replace(replace(replace(replace((CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.phone') ELSE c.`phone` END), ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0') = ltrim(replace(replace(replace(replace(replace(replace(replace(NEW.`phone`, ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0'))
    )
) >= NEW.`max_bookings`
BEGIN
  SELECT RAISE(ABORT, 'guest_booking_limit');
END;

CREATE TRIGGER `guest_booking_checks_moving_delete` BEFORE DELETE ON `guest_booking_checks` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `guest_booking_checks_moving_insert` BEFORE INSERT ON `guest_booking_checks` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `guest_booking_checks_moving_update` BEFORE UPDATE ON `guest_booking_checks` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `id_range` (
	`id` integer PRIMARY KEY NOT NULL,
	`base` integer NOT NULL,
	`copying` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "id_range_one_ck" CHECK("id_range"."id" = 1),
	CONSTRAINT "id_range_base_ck" CHECK("id_range"."base" >= 0),
	CONSTRAINT "id_range_copying_ck" CHECK("id_range"."copying" IN (0, 1))
);

CREATE TABLE `message_bodies` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`raw` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE TRIGGER `message_bodies_moving_delete` BEFORE DELETE ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = OLD.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `message_bodies_moving_insert` BEFORE INSERT ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = NEW.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `message_bodies_moving_update` BEFORE UPDATE ON `message_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `messages` WHERE `id` = NEW.`message_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE "messages" (
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
	CONSTRAINT "messages_template_ck" CHECK("messages"."template" IN ('confirmation', 'waiting', 'change', 'cancellation', 'reminder', 'offer', 'restaurant_booking', 'restaurant_cancellation', 'restaurant_change', 'payment_due', 'payment_refund', 'payment_no_show_fee', 'payment_expired', 'password_reset', 'staff_invite')),
	CONSTRAINT "messages_recipient_ck" CHECK("messages"."recipient" IN ('guest', 'restaurant')),
	CONSTRAINT "messages_state_ck" CHECK("messages"."state" IN ('pending', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "messages_sent_ck" CHECK("messages"."state" <> 'sent' OR "messages"."sent_at" IS NOT NULL),
	CONSTRAINT "messages_reservation_ck" CHECK("messages"."reservation_id" IS NOT NULL OR "messages"."template" IN ('password_reset', 'staff_invite'))
);

CREATE INDEX `messages_due_idx` ON `messages` (`state`,`next_attempt_at`);

CREATE INDEX `messages_reservation_idx` ON `messages` (`reservation_id`,`id`);

CREATE UNIQUE INDEX `messages_uid_uq` ON `messages` (`uid`);

CREATE TRIGGER `messages_body_delete`
AFTER DELETE ON `messages`
FOR EACH ROW
BEGIN
  DELETE FROM `message_bodies` WHERE `message_id` = OLD.`id`;
END;

CREATE TRIGGER `messages_body_done`
AFTER UPDATE OF `state` ON `messages`
FOR EACH ROW
WHEN NEW.`state` <> 'pending'
BEGIN
  DELETE FROM `message_bodies` WHERE `message_id` = NEW.`id`;
END;

CREATE TRIGGER `messages_id_in_range` AFTER INSERT ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: messages');
END;

CREATE TRIGGER `messages_moving_delete` BEFORE DELETE ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `messages_moving_insert` BEFORE INSERT ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `messages_moving_update` BEFORE UPDATE ON `messages` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `messages_offer_with_its_offer` BEFORE INSERT ON `messages` FOR EACH ROW
WHEN NEW.`template` = 'offer'
  AND NOT EXISTS (SELECT 1 FROM `waitlist_offers` o WHERE o.`reservation_id` = NEW.`reservation_id` AND o.`nonce` = json_extract(NEW.`snapshot`, '$.offer.nonce'))
  AND NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
BEGIN
  SELECT RAISE(IGNORE);
END;

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
	`deleted_at` text, `holds_version` integer DEFAULT 0 NOT NULL, `payment_account` text,
	CONSTRAINT "properties_shard_state_ck" CHECK("properties"."shard_state" IN ('live', 'leaving', 'arriving')),
	CONSTRAINT "properties_copying_ck" CHECK("properties"."copying" IN (0, 1))
);

CREATE TRIGGER `properties_moving_delete` BEFORE DELETE ON `properties` FOR EACH ROW
WHEN OLD.`copying` = 0
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `properties_moving_update` BEFORE UPDATE ON `properties` FOR EACH ROW
WHEN OLD.`shard_state` <> 'live' AND OLD.`copying` = 0 AND NEW.`copying` = 0
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE "reservation_history" (
	`reservation_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`at` integer DEFAULT (CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER)) NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`changes` text DEFAULT '{}' NOT NULL,
	PRIMARY KEY(`reservation_id`, `seq`),
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;

CREATE TRIGGER `reservation_history_audit`
AFTER INSERT ON `reservation_history`
FOR EACH ROW
BEGIN
  INSERT INTO `audit_log` (`property_id`, `at`, `actor`, `action`, `subject`, `subject_id`, `ref`)
  SELECT r.`property_id`, NEW.`at`, NEW.`actor`, NEW.`action`, 'reservation', NEW.`reservation_id`, NEW.`seq`
  FROM `reservations` r JOIN `properties` p ON p.`id` = r.`property_id`
  WHERE r.`id` = NEW.`reservation_id` AND p.`copying` = 0;
END;

CREATE TRIGGER `reservation_history_moving_delete` BEFORE DELETE ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_history_moving_insert` BEFORE INSERT ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_history_moving_update` BEFORE UPDATE ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_history_searchengine_notify`
AFTER INSERT ON `reservation_history`
FOR EACH ROW
WHEN NEW.`actor` <> 'searchengine' AND NEW.`action` <> 'created'
  AND (json_type(NEW.`changes`, '$.start_date') IS NOT NULL OR json_type(NEW.`changes`, '$.start_hour') IS NOT NULL
    OR json_type(NEW.`changes`, '$.end_date') IS NOT NULL OR json_type(NEW.`changes`, '$.pax') IS NOT NULL
    OR (NEW.`from_status` IS NOT NEW.`to_status` AND NOT (
      coalesce(NEW.`from_status`, '') IN ('ACCEPTED', 'CONFIRMED')
      AND coalesce(NEW.`to_status`, '') IN ('ACCEPTED', 'CONFIRMED'))))
  AND EXISTS (
    SELECT 1 FROM `reservations` r
    JOIN `properties` p ON p.`id` = r.`property_id`
    JOIN `webhook_subscriptions` s ON s.`property_id` = r.`property_id`
    WHERE r.`id` = NEW.`reservation_id` AND r.`searchengine_user_id` IS NOT NULL
      AND s.`webhook_type` = 'SEARCHENGINE_BOOKING' AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL
      AND p.`deleted_at` IS NULL AND p.`copying` = 0
  )
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(16))), r.`property_id`, r.`id`, 'SEARCHENGINE_BOOKING', json_object(
    'id', r.`id`, 'propertyId', r.`property_id`, 'merchantId', p.`public_key`, 'timezone', json_extract(p.`settings`, '$.timezone'),
    'serviceId', r.`service_id`, 'startMin', r.`start_min`, 'endMin', r.`end_min`, 'pax', r.`pax`, 'status', r.`status`,
    'action', NEW.`action`, 'changes', CASE WHEN NEW.`from_status` IS NOT NEW.`to_status` AND json_type(NEW.`changes`, '$.status') IS NULL
      THEN json_set(NEW.`changes`, '$.status', json_array(NEW.`from_status`, NEW.`to_status`)) ELSE json(NEW.`changes`) END
  ), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM `reservations` r JOIN `properties` p ON p.`id` = r.`property_id`
  WHERE r.`id` = NEW.`reservation_id`;
END;

CREATE TABLE `reservation_payments` (
	`reservation_id` integer PRIMARY KEY NOT NULL,
	`account` text NOT NULL,
	`intent` text,
	`customer` text,
	`payment_method` text,
	`fee_intent` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `refund_due` integer, `refund_attempts` integer DEFAULT 0 NOT NULL, `refund_next_at` text, `refund_error` text,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE UNIQUE INDEX `reservation_payments_fee_intent_uq` ON `reservation_payments` (`fee_intent`);

CREATE UNIQUE INDEX `reservation_payments_intent_uq` ON `reservation_payments` (`intent`);

CREATE INDEX `reservation_payments_refund_due_idx` ON `reservation_payments` (`refund_next_at`) WHERE "reservation_payments"."refund_due" IS NOT NULL;

CREATE TRIGGER `reservation_payments_moving_delete` BEFORE DELETE ON `reservation_payments` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_payments_moving_insert` BEFORE INSERT ON `reservation_payments` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_payments_moving_update` BEFORE UPDATE ON `reservation_payments` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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

CREATE INDEX `reservation_tables_table_time_idx` ON `reservation_tables` (`table_id`,`start_min`,`end_min`);

CREATE TRIGGER `reservation_tables_holds_version_delete` AFTER DELETE ON `reservation_tables` FOR EACH ROW
BEGIN
  UPDATE `properties` SET `holds_version` = `holds_version` + 1
  WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND `copying` = 0;
END;

CREATE TRIGGER `reservation_tables_holds_version_insert` AFTER INSERT ON `reservation_tables` FOR EACH ROW
BEGIN
  UPDATE `properties` SET `holds_version` = `holds_version` + 1
  WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND `copying` = 0;
END;

CREATE TRIGGER `reservation_tables_holds_version_update` AFTER UPDATE ON `reservation_tables` FOR EACH ROW
BEGIN
  UPDATE `properties` SET `holds_version` = `holds_version` + 1
  WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND `copying` = 0;
END;

CREATE TRIGGER `reservation_tables_moving_delete` BEFORE DELETE ON `reservation_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_tables_moving_insert` BEFORE INSERT ON `reservation_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_tables_moving_update` BEFORE UPDATE ON `reservation_tables` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservation_tables_no_overlap`
BEFORE INSERT ON `reservation_tables`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`)) = 0 AND (EXISTS (
  SELECT 1 FROM `reservation_tables` h
  WHERE h.`table_id` = NEW.`table_id`
    AND h.`reservation_id` <> NEW.`reservation_id`
    AND h.`start_min` > NEW.`start_min` - 1441
    AND h.`start_min` < NEW.`end_min`
    AND NEW.`start_min` < h.`end_min`
) OR EXISTS (
  SELECT 1 FROM `dining_tables` t WHERE t.`id` = NEW.`table_id` AND t.`deleted_at` IS NOT NULL
))
BEGIN
  SELECT RAISE(ABORT, 'table_not_available');
END;

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
	`searchengine_user_id` text, `searchengine_token` text, `occasion` text, `allergies` text, `guest` text, `override_pacing` integer DEFAULT false NOT NULL, `status_reason` text, `guest_locale` text, `notify_guest` integer DEFAULT true NOT NULL, `manage_nonce` text, `wait_until_min` integer, `payment` text, `changed_by` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reservations_status_ck" CHECK("reservations"."status" IN ('WAITING', 'ACCEPTED', 'CANCELLED', 'CONFIRMED', 'EXPIRED', 'PREPAY', 'OUTOFORDER', 'REJECTED')),
	CONSTRAINT "reservations_channel_ck" CHECK("reservations"."channel" IN ('PLATFORM_BOOK', 'PLATFORM_ADMIN', 'SEARCHENGINE')),
	CONSTRAINT "reservations_stay_ck" CHECK("reservations"."end_min" - "reservations"."start_min" BETWEEN 5 AND 1440),
	CONSTRAINT "reservations_pax_ck" CHECK("reservations"."pax" >= 1)
);

CREATE INDEX `reservations_customer_idx` ON `reservations` (`customer_id`,`start_min`);

CREATE INDEX `reservations_manage_token_idx` ON `reservations` (`manage_token_hash`) WHERE "reservations"."manage_token_hash" IS NOT NULL;

CREATE INDEX `reservations_property_start_idx` ON `reservations` (`property_id`,`start_min`,`id`);

CREATE UNIQUE INDEX `reservations_searchengine_token_uq` ON `reservations` (`property_id`,`searchengine_token`) WHERE "reservations"."searchengine_token" IS NOT NULL;

CREATE INDEX `reservations_searchengine_user_idx` ON `reservations` (`searchengine_user_id`) WHERE "reservations"."searchengine_user_id" IS NOT NULL;

CREATE INDEX `reservations_status_due_idx` ON `reservations` (`status`,`payment_due_at`) WHERE "reservations"."payment_due_at" IS NOT NULL;

CREATE TRIGGER `reservations_catalog_current`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`catalog_version` IS NOT NULL AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
  AND NEW.`catalog_version` <> (SELECT `catalog_version` FROM `properties` WHERE `id` = NEW.`property_id`)
BEGIN
  SELECT RAISE(ABORT, 'catalog_changed');
END;

CREATE TRIGGER `reservations_catalog_current_on_update`
BEFORE UPDATE OF `catalog_version` ON `reservations`
FOR EACH ROW
WHEN NEW.`catalog_version` IS NOT NULL
  AND NEW.`catalog_version` <> (SELECT `catalog_version` FROM `properties` WHERE `id` = NEW.`property_id`)
BEGIN
  SELECT RAISE(ABORT, 'catalog_changed');
END;

CREATE TRIGGER `reservations_id_in_range` AFTER INSERT ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: reservations');
END;

CREATE TRIGGER `reservations_live_service`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`service_id` IS NOT NULL AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
  AND EXISTS (SELECT 1 FROM `services` s WHERE s.`id` = NEW.`service_id` AND s.`deleted_at` IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'service_not_found');
END;

CREATE TRIGGER `reservations_live_service_on_update`
BEFORE UPDATE OF `service_id` ON `reservations`
FOR EACH ROW
WHEN NEW.`service_id` IS NOT OLD.`service_id` AND NEW.`service_id` IS NOT NULL
  AND EXISTS (SELECT 1 FROM `services` s WHERE s.`id` = NEW.`service_id` AND s.`deleted_at` IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'service_not_found');
END;

CREATE TRIGGER `reservations_moving_delete` BEFORE DELETE ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservations_moving_insert` BEFORE INSERT ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservations_moving_update` BEFORE UPDATE ON `reservations` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `reservations_pacing_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`override_pacing` = 0 AND NEW.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND NEW.`service_id` IS NOT NULL
  AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
  AND EXISTS (
    SELECT 1 FROM (
      SELECT s.`max_covers_per_interval` AS max_covers, s.`max_parties_per_interval` AS max_parties, s.`pacing_interval` AS width,
        NEW.`start_min` - ((((NEW.`start_min` - (CAST(substr(s.`start_hour`, 1, 2) AS INTEGER) * 60 + CAST(substr(s.`start_hour`, 4, 2) AS INTEGER))) % 1440) + 1440) % 1440) % s.`pacing_interval` AS bucket
      FROM `services` s
      WHERE s.`id` = NEW.`service_id` AND (s.`max_covers_per_interval` IS NOT NULL OR s.`max_parties_per_interval` IS NOT NULL)
    ) p
    WHERE (p.max_parties IS NOT NULL AND (SELECT count(*) FROM `reservations` r WHERE r.`property_id` = NEW.`property_id` AND r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + 1 > p.max_parties)
       OR (p.max_covers IS NOT NULL AND (SELECT coalesce(sum(r.`pax`), 0) FROM `reservations` r WHERE r.`property_id` = NEW.`property_id` AND r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + NEW.`pax` > p.max_covers)
  )
BEGIN
  SELECT RAISE(ABORT, 'pacing_full');
END;

CREATE TRIGGER `reservations_pacing_update`
BEFORE UPDATE OF `start_min`, `pax`, `service_id` ON `reservations`
FOR EACH ROW
WHEN NEW.`override_pacing` = 0 AND NEW.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND NEW.`service_id` IS NOT NULL
  AND (OLD.`start_min` IS NOT NEW.`start_min` OR OLD.`service_id` IS NOT NEW.`service_id` OR NEW.`pax` > OLD.`pax`)
  AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
  AND EXISTS (
    SELECT 1 FROM (
      SELECT s.`max_covers_per_interval` AS max_covers, s.`max_parties_per_interval` AS max_parties, s.`pacing_interval` AS width,
        NEW.`start_min` - ((((NEW.`start_min` - (CAST(substr(s.`start_hour`, 1, 2) AS INTEGER) * 60 + CAST(substr(s.`start_hour`, 4, 2) AS INTEGER))) % 1440) + 1440) % 1440) % s.`pacing_interval` AS bucket
      FROM `services` s
      WHERE s.`id` = NEW.`service_id` AND (s.`max_covers_per_interval` IS NOT NULL OR s.`max_parties_per_interval` IS NOT NULL)
    ) p
    WHERE (p.max_parties IS NOT NULL AND (SELECT count(*) FROM `reservations` r WHERE r.`property_id` = NEW.`property_id` AND r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`id` <> NEW.`id` AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + 1 > p.max_parties)
       OR (p.max_covers IS NOT NULL AND (SELECT coalesce(sum(r.`pax`), 0) FROM `reservations` r WHERE r.`property_id` = NEW.`property_id` AND r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`id` <> NEW.`id` AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + NEW.`pax` > p.max_covers)
  )
BEGIN
  SELECT RAISE(ABORT, 'pacing_full');
END;

CREATE TRIGGER `reservations_searchengine_channel_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN (NEW.`searchengine_user_id` IS NOT NULL OR NEW.`searchengine_token` IS NOT NULL) AND NEW.`channel` <> 'SEARCHENGINE'
BEGIN
  SELECT RAISE(ABORT, 'searchengine_channel');
END;

CREATE TRIGGER `reservations_searchengine_channel_update`
BEFORE UPDATE OF `channel`, `searchengine_user_id`, `searchengine_token` ON `reservations`
FOR EACH ROW
WHEN (NEW.`searchengine_user_id` IS NOT NULL OR NEW.`searchengine_token` IS NOT NULL) AND NEW.`channel` <> 'SEARCHENGINE'
BEGIN
  SELECT RAISE(ABORT, 'searchengine_channel');
END;

CREATE TRIGGER `reservations_values_check_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN (NEW.`occasion` IS NOT NULL AND NEW.`occasion` NOT IN ('birthday', 'anniversary', 'business', 'date', 'other'))
  OR (NEW.`status_reason` IS NOT NULL AND NEW.`status_reason` NOT IN ('no_show', 'unpaid'))
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_values_ck');
END;

CREATE TRIGGER `reservations_values_check_update`
BEFORE UPDATE OF `occasion`, `status_reason` ON `reservations`
FOR EACH ROW
WHEN (NEW.`occasion` IS NOT NULL AND NEW.`occasion` NOT IN ('birthday', 'anniversary', 'business', 'date', 'other'))
  OR (NEW.`status_reason` IS NOT NULL AND NEW.`status_reason` NOT IN ('no_show', 'unpaid'))
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_values_ck');
END;

CREATE TRIGGER `reservations_version_check`
BEFORE UPDATE OF `version` ON `reservations`
FOR EACH ROW
WHEN NEW.`version` <> OLD.`version` + 1
BEGIN
  SELECT RAISE(ABORT, 'reservation_changed');
END;

CREATE TRIGGER `reservations_wait_until_check_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`wait_until_min` IS NOT NULL AND NEW.`wait_until_min` < NEW.`start_min`
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_wait_until_ck');
END;

CREATE TRIGGER `reservations_wait_until_check_update`
BEFORE UPDATE OF `wait_until_min`, `start_min` ON `reservations`
FOR EACH ROW
WHEN NEW.`wait_until_min` IS NOT NULL AND NEW.`wait_until_min` < NEW.`start_min`
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_wait_until_ck');
END;

CREATE TRIGGER `reservations_webhook_created`
AFTER INSERT ON `reservations`
FOR EACH ROW
WHEN EXISTS (
  SELECT 1 FROM `webhook_subscriptions` s JOIN `properties` p ON p.`id` = s.`property_id`
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = 'RESERVATION_CREATED'
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL AND p.`deleted_at` IS NULL AND p.`copying` = 0
)
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(16))), NEW.`property_id`, NEW.`id`, 'RESERVATION_CREATED', json_object(
    'id', NEW.`id`, 'propertyId', NEW.`property_id`, 'customerId', NEW.`customer_id`, 'serviceId', NEW.`service_id`,
    'roomId', NEW.`room_id`, 'startDate', NEW.`start_date`, 'startHour', NEW.`start_hour`, 'startMin', NEW.`start_min`,
    'endMin', NEW.`end_min`, 'pax', NEW.`pax`, 'status', NEW.`status`, 'channel', NEW.`channel`,
    'waitingList', NEW.`waiting_list`, 'notes', NEW.`notes`, 'specialRequest', NEW.`special_request`, 'occasion', NEW.`occasion`,
    'allergies', NEW.`allergies`, 'guest', json(coalesce(NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`))), 'overridePacing', NEW.`override_pacing`, 'statusReason', NEW.`status_reason`,
    'lastStatusChange', NEW.`last_status_change`, 'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`,
    'tableIds', json(NEW.`table_ids`), 'paymentDueAt', NEW.`payment_due_at`, 'payment', json(NEW.`payment`), 'customerSnapshot', json(coalesce(NEW.`customer_snapshot`, NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`)))
  ), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

CREATE TRIGGER `reservations_webhook_updated`
AFTER UPDATE ON `reservations`
FOR EACH ROW
WHEN (OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`service_id` IS NOT NEW.`service_id` OR
  OLD.`room_id` IS NOT NEW.`room_id` OR OLD.`start_date` IS NOT NEW.`start_date` OR
  OLD.`start_hour` IS NOT NEW.`start_hour` OR OLD.`start_min` IS NOT NEW.`start_min` OR
  OLD.`end_min` IS NOT NEW.`end_min` OR OLD.`pax` IS NOT NEW.`pax` OR OLD.`status` IS NOT NEW.`status` OR
  OLD.`channel` IS NOT NEW.`channel` OR OLD.`waiting_list` IS NOT NEW.`waiting_list` OR
  OLD.`notes` IS NOT NEW.`notes` OR OLD.`special_request` IS NOT NEW.`special_request` OR
  OLD.`occasion` IS NOT NEW.`occasion` OR OLD.`allergies` IS NOT NEW.`allergies` OR
  coalesce(OLD.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = OLD.`customer_id`)) IS NOT coalesce(NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`)) OR OLD.`override_pacing` IS NOT NEW.`override_pacing` OR
  OLD.`status_reason` IS NOT NEW.`status_reason` OR OLD.`last_status_change` IS NOT NEW.`last_status_change` OR
  OLD.`checkin_date` IS NOT NEW.`checkin_date` OR OLD.`checkout_date` IS NOT NEW.`checkout_date` OR
  OLD.`expiration_date` IS NOT NEW.`expiration_date` OR OLD.`table_ids` IS NOT NEW.`table_ids` OR
  OLD.`payment_due_at` IS NOT NEW.`payment_due_at` OR OLD.`payment` IS NOT NEW.`payment` OR coalesce(OLD.`customer_snapshot`, OLD.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = OLD.`customer_id`)) IS NOT coalesce(NEW.`customer_snapshot`, NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`)))
  AND EXISTS (
  SELECT 1 FROM `webhook_subscriptions` s JOIN `properties` p ON p.`id` = s.`property_id`
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = 'RESERVATION_UPDATED'
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL AND p.`deleted_at` IS NULL AND p.`copying` = 0
)
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(16))), NEW.`property_id`, NEW.`id`, 'RESERVATION_UPDATED', json_object(
    'id', NEW.`id`, 'propertyId', NEW.`property_id`, 'customerId', NEW.`customer_id`, 'serviceId', NEW.`service_id`,
    'roomId', NEW.`room_id`, 'startDate', NEW.`start_date`, 'startHour', NEW.`start_hour`, 'startMin', NEW.`start_min`,
    'endMin', NEW.`end_min`, 'pax', NEW.`pax`, 'status', NEW.`status`, 'channel', NEW.`channel`,
    'waitingList', NEW.`waiting_list`, 'notes', NEW.`notes`, 'specialRequest', NEW.`special_request`, 'occasion', NEW.`occasion`,
    'allergies', NEW.`allergies`, 'guest', json(coalesce(NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`))), 'overridePacing', NEW.`override_pacing`, 'statusReason', NEW.`status_reason`,
    'lastStatusChange', NEW.`last_status_change`, 'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`,
    'tableIds', json(NEW.`table_ids`), 'paymentDueAt', NEW.`payment_due_at`, 'payment', json(NEW.`payment`), 'customerSnapshot', json(coalesce(NEW.`customer_snapshot`, NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`)))
  ), json_object(
    'id', OLD.`id`, 'propertyId', OLD.`property_id`, 'customerId', OLD.`customer_id`, 'serviceId', OLD.`service_id`,
    'roomId', OLD.`room_id`, 'startDate', OLD.`start_date`, 'startHour', OLD.`start_hour`, 'startMin', OLD.`start_min`,
    'endMin', OLD.`end_min`, 'pax', OLD.`pax`, 'status', OLD.`status`, 'channel', OLD.`channel`,
    'waitingList', OLD.`waiting_list`, 'notes', OLD.`notes`, 'specialRequest', OLD.`special_request`, 'occasion', OLD.`occasion`,
    'allergies', OLD.`allergies`, 'guest', json(coalesce(OLD.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = OLD.`customer_id`))), 'overridePacing', OLD.`override_pacing`, 'statusReason', OLD.`status_reason`,
    'lastStatusChange', OLD.`last_status_change`, 'checkinDate', OLD.`checkin_date`, 'checkoutDate', OLD.`checkout_date`, 'expirationDate', OLD.`expiration_date`,
    'tableIds', json(OLD.`table_ids`), 'paymentDueAt', OLD.`payment_due_at`, 'payment', json(OLD.`payment`), 'customerSnapshot', json(coalesce(OLD.`customer_snapshot`, OLD.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = OLD.`customer_id`)))
  ), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

CREATE TABLE `rooms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`name` text NOT NULL,
	`bookable` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE INDEX `rooms_property_idx` ON `rooms` (`property_id`,`id`);

CREATE TRIGGER `rooms_catalog_version_delete` AFTER DELETE ON `rooms` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = OLD.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;

CREATE TRIGGER `rooms_catalog_version_insert` AFTER INSERT ON `rooms` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;

CREATE TRIGGER `rooms_catalog_version_update` AFTER UPDATE ON `rooms` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;

CREATE TRIGGER `rooms_id_in_range` AFTER INSERT ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: rooms');
END;

CREATE TRIGGER `rooms_moving_delete` BEFORE DELETE ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `rooms_moving_insert` BEFORE INSERT ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `rooms_moving_update` BEFORE UPDATE ON `rooms` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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
	`deleted_at` text, `pacing_interval` integer DEFAULT 15 NOT NULL, `max_covers_per_interval` integer, `max_parties_per_interval` integer, `payment` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "services_stay_ck" CHECK("services"."average_stay" IS NULL OR "services"."average_stay" BETWEEN 5 AND 1440),
	CONSTRAINT "services_interval_ck" CHECK("services"."slot_interval" IS NULL OR "services"."slot_interval" BETWEEN 5 AND 240),
	CONSTRAINT "services_pax_ck" CHECK("services"."pax_min" >= 1 AND ("services"."pax_max" IS NULL OR "services"."pax_max" >= "services"."pax_min"))
);

CREATE INDEX `services_property_idx` ON `services` (`property_id`,`id`);

CREATE TRIGGER `services_catalog_version_delete` AFTER DELETE ON `services` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = OLD.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = OLD.`property_id`;
END;

CREATE TRIGGER `services_catalog_version_insert` AFTER INSERT ON `services` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;

CREATE TRIGGER `services_catalog_version_update` AFTER UPDATE ON `services` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = NEW.`property_id`;
END;

CREATE TRIGGER `services_id_in_range` AFTER INSERT ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: services');
END;

CREATE TRIGGER `services_moving_delete` BEFORE DELETE ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `services_moving_insert` BEFORE INSERT ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `services_moving_update` BEFORE UPDATE ON `services` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `services_pacing_check_insert`
BEFORE INSERT ON `services`
FOR EACH ROW
WHEN NEW.`pacing_interval` NOT BETWEEN 5 AND 240 OR coalesce(NEW.`max_covers_per_interval`, 1) < 1 OR coalesce(NEW.`max_parties_per_interval`, 1) < 1
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: services_pacing_ck');
END;

CREATE TRIGGER `services_pacing_check_update`
BEFORE UPDATE OF `pacing_interval`, `max_covers_per_interval`, `max_parties_per_interval` ON `services`
FOR EACH ROW
WHEN NEW.`pacing_interval` NOT BETWEEN 5 AND 240 OR coalesce(NEW.`max_covers_per_interval`, 1) < 1 OR coalesce(NEW.`max_parties_per_interval`, 1) < 1
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: services_pacing_ck');
END;

CREATE TABLE `shift_notes` (
	`property_id` integer NOT NULL,
	`date` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`property_id`, `date`),
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE TRIGGER `shift_notes_moving_delete` BEFORE DELETE ON `shift_notes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `shift_notes_moving_insert` BEFORE INSERT ON `shift_notes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `shift_notes_moving_update` BEFORE UPDATE ON `shift_notes` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`property_id` integer NOT NULL,
	`type` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);

CREATE INDEX `stripe_events_at_idx` ON `stripe_events` (`at`);

CREATE TRIGGER `stripe_events_moving_delete` BEFORE DELETE ON `stripe_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `stripe_events_moving_insert` BEFORE INSERT ON `stripe_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `stripe_events_moving_update` BEFORE UPDATE ON `stripe_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `table_group_members` (
	`group_id` integer NOT NULL,
	`member_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `member_id`),
	FOREIGN KEY (`group_id`) REFERENCES `dining_tables`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`member_id`) REFERENCES `dining_tables`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE INDEX `table_group_members_member_idx` ON `table_group_members` (`member_id`);

CREATE TRIGGER `table_group_members_capacity_delete`
AFTER DELETE ON `table_group_members`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`)) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`))) WHERE `id` = OLD.`group_id` AND `guests_max_auto` = 1;
END;

CREATE TRIGGER `table_group_members_capacity_insert`
AFTER INSERT ON `table_group_members`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`)) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`))) WHERE `id` = NEW.`group_id` AND `guests_max_auto` = 1;
END;

CREATE TRIGGER `table_group_members_catalog_version_delete` AFTER DELETE ON `table_group_members` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`)) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`);
END;

CREATE TRIGGER `table_group_members_catalog_version_insert` AFTER INSERT ON `table_group_members` FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`)) = 0
BEGIN
  UPDATE `properties` SET `catalog_version` = `catalog_version` + 1 WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`);
END;

CREATE TRIGGER `table_group_members_moving_delete` BEFORE DELETE ON `table_group_members` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `table_group_members_moving_insert` BEFORE INSERT ON `table_group_members` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `table_group_members_moving_update` BEFORE UPDATE ON `table_group_members` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `waitlist_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer NOT NULL,
	`nonce` text NOT NULL,
	`token_hash` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`expires_at` text NOT NULL,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `start_min` integer,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "waitlist_offers_state_ck" CHECK("waitlist_offers"."state" IN ('open', 'claimed', 'declined', 'expired')),
	CONSTRAINT "waitlist_offers_closed_ck" CHECK(("waitlist_offers"."state" = 'open') = ("waitlist_offers"."closed_at" IS NULL))
);

CREATE INDEX `waitlist_offers_open_idx` ON `waitlist_offers` (`state`,`expires_at`);

CREATE INDEX `waitlist_offers_reservation_idx` ON `waitlist_offers` (`reservation_id`);

CREATE UNIQUE INDEX `waitlist_offers_token_uq` ON `waitlist_offers` (`token_hash`);

CREATE TRIGGER `waitlist_offers_id_in_range` AFTER INSERT ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: waitlist_offers');
END;

CREATE TRIGGER `waitlist_offers_moving_delete` BEFORE DELETE ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `waitlist_offers_moving_insert` BEFORE INSERT ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `waitlist_offers_moving_update` BEFORE UPDATE ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `waitlist_offers_once` BEFORE INSERT ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `waitlist_offers` o WHERE o.`reservation_id` = NEW.`reservation_id`)
  AND NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
BEGIN
  SELECT RAISE(IGNORE);
END;

CREATE TABLE `walk_ins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`property_id` integer NOT NULL,
	`pax` integer NOT NULL,
	`name` text,
	`email` text,
	`phone` text,
	`notes` text,
	`quoted_minutes` integer,
	`state` text DEFAULT 'waiting' NOT NULL,
	`notified_at` text,
	`reservation_id` integer,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "walk_ins_state_ck" CHECK("walk_ins"."state" IN ('waiting', 'notified', 'seated', 'left')),
	CONSTRAINT "walk_ins_pax_ck" CHECK("walk_ins"."pax" BETWEEN 1 AND 1000),
	CONSTRAINT "walk_ins_closed_ck" CHECK(("walk_ins"."state" IN ('seated', 'left')) = ("walk_ins"."closed_at" IS NOT NULL))
);

CREATE INDEX `walk_ins_open_idx` ON `walk_ins` (`property_id`,`closed_at`,`id`);

CREATE TRIGGER `walk_ins_id_in_range` AFTER INSERT ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: walk_ins');
END;

CREATE TRIGGER `walk_ins_moving_delete` BEFORE DELETE ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `walk_ins_moving_insert` BEFORE INSERT ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `walk_ins_moving_update` BEFORE UPDATE ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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

CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`id`);

CREATE TRIGGER `webhook_attempts_id_in_range` AFTER INSERT ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_attempts');
END;

CREATE TRIGGER `webhook_attempts_moving_delete` BEFORE DELETE ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_deliveries` WHERE `id` = OLD.`delivery_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_attempts_moving_insert` BEFORE INSERT ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_deliveries` WHERE `id` = NEW.`delivery_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_attempts_moving_update` BEFORE UPDATE ON `webhook_attempts` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_deliveries` WHERE `id` = NEW.`delivery_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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

CREATE INDEX `webhook_deliveries_done_idx` ON `webhook_deliveries` (`state`,`delivered_at`);

CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`state`,`next_attempt_at`) WHERE "webhook_deliveries"."state" = 'pending';

CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);

CREATE INDEX `webhook_deliveries_order_idx` ON `webhook_deliveries` (`subscription_id`,`reservation_id`,`id`);

CREATE INDEX `webhook_deliveries_subscription_idx` ON `webhook_deliveries` (`subscription_id`,`id`);

CREATE TRIGGER `webhook_deliveries_id_in_range` AFTER INSERT ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_deliveries');
END;

CREATE TRIGGER `webhook_deliveries_moving_delete` BEFORE DELETE ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_deliveries_moving_insert` BEFORE INSERT ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_deliveries_moving_update` BEFORE UPDATE ON `webhook_deliveries` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `webhook_event_bodies` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`snapshot` text NOT NULL,
	`previous` text,
	`payload` text,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE TRIGGER `webhook_event_bodies_moving_delete` BEFORE DELETE ON `webhook_event_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_events` WHERE `id` = OLD.`event_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_event_bodies_moving_insert` BEFORE INSERT ON `webhook_event_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_events` WHERE `id` = NEW.`event_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_event_bodies_moving_update` BEFORE UPDATE ON `webhook_event_bodies` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `webhook_events` WHERE `id` = NEW.`event_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TABLE `webhook_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`property_id` integer NOT NULL,
	`reservation_id` integer NOT NULL,
	`type` text NOT NULL,
	`snapshot` text NOT NULL,
	`previous` text,
	`payload` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, `actor` text,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reservation_id`) REFERENCES `reservations`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE TRIGGER `webhook_events_actor`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN NEW.`actor` IS NULL AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `webhook_events` SET `actor` = (SELECT `changed_by` FROM `reservations` WHERE `id` = NEW.`reservation_id`)
  WHERE `id` = NEW.`id`;
END;

CREATE TRIGGER `webhook_events_body`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN NEW.`snapshot` <> '{}'
BEGIN
  INSERT INTO `webhook_event_bodies` (`event_id`, `snapshot`, `previous`, `payload`) VALUES (NEW.`id`, NEW.`snapshot`, NEW.`previous`, NEW.`payload`);
  UPDATE `webhook_events` SET `uid` = '', `snapshot` = '{}', `previous` = NULL, `payload` = NULL WHERE `id` = NEW.`id`;
END;

CREATE TRIGGER `webhook_events_body_delete`
AFTER DELETE ON `webhook_events`
FOR EACH ROW
BEGIN
  DELETE FROM `webhook_event_bodies` WHERE `event_id` = OLD.`id`;
END;

CREATE TRIGGER `webhook_events_fanout`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  INSERT INTO `webhook_deliveries` (`event_id`, `subscription_id`, `property_id`, `reservation_id`, `state`, `next_attempt_at`, `created_at`)
  SELECT NEW.`id`, s.`id`, NEW.`property_id`, NEW.`reservation_id`, 'pending', NEW.`created_at`, NEW.`created_at`
  FROM `webhook_subscriptions` s
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = NEW.`type`
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL;
END;

CREATE TRIGGER `webhook_events_id_in_range` AFTER INSERT ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_events');
END;

CREATE TRIGGER `webhook_events_moving_delete` BEFORE DELETE ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_events_moving_insert` BEFORE INSERT ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_events_moving_update` BEFORE UPDATE ON `webhook_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

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

CREATE INDEX `webhook_subscriptions_client_idx` ON `webhook_subscriptions` (`client_id`,`id`);

CREATE INDEX `webhook_subscriptions_property_type_idx` ON `webhook_subscriptions` (`property_id`,`webhook_type`);

CREATE UNIQUE INDEX `webhook_subscriptions_searchengine_uq` ON `webhook_subscriptions` (`property_id`) WHERE "webhook_subscriptions"."webhook_type" = 'SEARCHENGINE_BOOKING' AND "webhook_subscriptions"."deleted_at" IS NULL;

CREATE TRIGGER `webhook_subscriptions_id_in_range` AFTER INSERT ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: webhook_subscriptions');
END;

CREATE TRIGGER `webhook_subscriptions_moving_delete` BEFORE DELETE ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_subscriptions_moving_insert` BEFORE INSERT ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;

CREATE TRIGGER `webhook_subscriptions_moving_update` BEFORE UPDATE ON `webhook_subscriptions` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
