-- The restaurant's own rules and its guests. Hand-written after 0002's columns:
-- 1. Value checks of the new columns (triggers, since a CHECK added to an existing table makes drizzle-kit
--    rebuild the table, which would drop its triggers).
-- 2. Pacing: the insert or move that would pass a service's limits aborts its own batch, so two bookings
--    deciding at once cannot both pass (the engine decides the same beforehand, for the answer).
-- 3. A group's guests_max follows its members unless set explicitly.
-- 4. Backfills, then the outbox triggers again with the new columns of a reservation.
CREATE TRIGGER `reservations_values_check_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN (NEW.`occasion` IS NOT NULL AND NEW.`occasion` NOT IN ('birthday', 'anniversary', 'business', 'date', 'other'))
  OR (NEW.`status_reason` IS NOT NULL AND NEW.`status_reason` NOT IN ('no_show', 'unpaid'))
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_values_ck');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_values_check_update`
BEFORE UPDATE OF `occasion`, `status_reason` ON `reservations`
FOR EACH ROW
WHEN (NEW.`occasion` IS NOT NULL AND NEW.`occasion` NOT IN ('birthday', 'anniversary', 'business', 'date', 'other'))
  OR (NEW.`status_reason` IS NOT NULL AND NEW.`status_reason` NOT IN ('no_show', 'unpaid'))
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_values_ck');
END;
--> statement-breakpoint
CREATE TRIGGER `services_pacing_check_insert`
BEFORE INSERT ON `services`
FOR EACH ROW
WHEN NEW.`pacing_interval` NOT BETWEEN 5 AND 240 OR coalesce(NEW.`max_covers_per_interval`, 1) < 1 OR coalesce(NEW.`max_parties_per_interval`, 1) < 1
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: services_pacing_ck');
END;
--> statement-breakpoint
CREATE TRIGGER `services_pacing_check_update`
BEFORE UPDATE OF `pacing_interval`, `max_covers_per_interval`, `max_parties_per_interval` ON `services`
FOR EACH ROW
WHEN NEW.`pacing_interval` NOT BETWEEN 5 AND 240 OR coalesce(NEW.`max_covers_per_interval`, 1) < 1 OR coalesce(NEW.`max_parties_per_interval`, 1) < 1
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: services_pacing_ck');
END;
--> statement-breakpoint
-- 2. Pacing: arrivals of one service whose start falls in one interval of pacing_interval
-- minutes, counted from the service's start_hour on the service day (a service past midnight included:
-- its day starts at start_hour, so the minutes since then are (start - start_hour) mod 1440). Arrivals
-- are the parties that hold (PREPAY, ACCEPTED, CONFIRMED; a staff block is no arrival). Online bookings
-- always obey; staff obey unless override_pacing. Status moves (accepting a waiting party, a check-in)
-- are the restaurant's own decision about a party already known, and are not paced.
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
    WHERE (p.max_parties IS NOT NULL AND (SELECT count(*) FROM `reservations` r WHERE r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + 1 > p.max_parties)
       OR (p.max_covers IS NOT NULL AND (SELECT coalesce(sum(r.`pax`), 0) FROM `reservations` r WHERE r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + NEW.`pax` > p.max_covers)
  )
BEGIN
  SELECT RAISE(ABORT, 'pacing_full');
END;
--> statement-breakpoint
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
    WHERE (p.max_parties IS NOT NULL AND (SELECT count(*) FROM `reservations` r WHERE r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`id` <> NEW.`id` AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + 1 > p.max_parties)
       OR (p.max_covers IS NOT NULL AND (SELECT coalesce(sum(r.`pax`), 0) FROM `reservations` r WHERE r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`id` <> NEW.`id` AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + NEW.`pax` > p.max_covers)
  )
BEGIN
  SELECT RAISE(ABORT, 'pacing_full');
END;
--> statement-breakpoint
-- 4a. Backfills, before the triggers below watch these columns: the guest of earlier reservations is the
-- customer as they wrote it; a group whose seats are its members' sum was following them.
UPDATE `reservations` SET `guest` = `customer_snapshot` WHERE `guest` IS NULL AND `customer_snapshot` IS NOT NULL;
--> statement-breakpoint
UPDATE `dining_tables` SET `guests_max_auto` = 1
WHERE `is_group` = 1 AND `guests_max` = min(1000, (SELECT sum(m.`guests_max`) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`));
--> statement-breakpoint
-- 3. A group's seats follow its members (the sum, never below the group's own guests_min, at most 1000)
-- unless guests_max was set explicitly: on a change of its members, of a member's guests_max, or when
-- it is set to follow again. A move's copies keep what they carry.
CREATE TRIGGER `table_group_members_capacity_insert`
AFTER INSERT ON `table_group_members`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = NEW.`group_id`)) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`))) WHERE `id` = NEW.`group_id` AND `guests_max_auto` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `table_group_members_capacity_delete`
AFTER DELETE ON `table_group_members`
FOR EACH ROW
WHEN (SELECT `copying` FROM `properties` WHERE `id` = (SELECT `property_id` FROM `dining_tables` WHERE `id` = OLD.`group_id`)) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`))) WHERE `id` = OLD.`group_id` AND `guests_max_auto` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_capacity_member`
AFTER UPDATE OF `guests_max` ON `dining_tables`
FOR EACH ROW
WHEN OLD.`guests_max` IS NOT NEW.`guests_max` AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`)))
  WHERE `guests_max_auto` = 1 AND `id` IN (SELECT `group_id` FROM `table_group_members` WHERE `member_id` = NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `dining_tables_capacity_follow`
AFTER UPDATE OF `guests_max_auto` ON `dining_tables`
FOR EACH ROW
WHEN NEW.`guests_max_auto` = 1 AND OLD.`guests_max_auto` = 0 AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `dining_tables` SET `guests_max` = max(`guests_min`, min(1000, (SELECT coalesce(sum(m.`guests_max`), 0) FROM `table_group_members` g JOIN `dining_tables` m ON m.`id` = g.`member_id` WHERE g.`group_id` = `dining_tables`.`id`))) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- 4b. The outbox (0001) again, with the new columns: occasion, allergies, the typed guest, override_pacing
-- and status_reason are part of what the API shows, so their changes are news.
DROP TRIGGER `reservations_webhook_created`;
--> statement-breakpoint
DROP TRIGGER `reservations_webhook_updated`;
--> statement-breakpoint
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
    'allergies', NEW.`allergies`, 'guest', json(NEW.`guest`), 'overridePacing', NEW.`override_pacing`, 'statusReason', NEW.`status_reason`,
    'lastStatusChange', NEW.`last_status_change`, 'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`,
    'tableIds', json(NEW.`table_ids`), 'paymentDueAt', NEW.`payment_due_at`, 'customerSnapshot', json(NEW.`customer_snapshot`)
  ), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
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
  OLD.`guest` IS NOT NEW.`guest` OR OLD.`override_pacing` IS NOT NEW.`override_pacing` OR
  OLD.`status_reason` IS NOT NEW.`status_reason` OR OLD.`last_status_change` IS NOT NEW.`last_status_change` OR
  OLD.`checkin_date` IS NOT NEW.`checkin_date` OR OLD.`checkout_date` IS NOT NEW.`checkout_date` OR
  OLD.`expiration_date` IS NOT NEW.`expiration_date` OR OLD.`table_ids` IS NOT NEW.`table_ids` OR
  OLD.`payment_due_at` IS NOT NEW.`payment_due_at` OR OLD.`customer_snapshot` IS NOT NEW.`customer_snapshot`)
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
    'allergies', NEW.`allergies`, 'guest', json(NEW.`guest`), 'overridePacing', NEW.`override_pacing`, 'statusReason', NEW.`status_reason`,
    'lastStatusChange', NEW.`last_status_change`, 'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`,
    'tableIds', json(NEW.`table_ids`), 'paymentDueAt', NEW.`payment_due_at`, 'customerSnapshot', json(NEW.`customer_snapshot`)
  ), json_object(
    'id', OLD.`id`, 'propertyId', OLD.`property_id`, 'customerId', OLD.`customer_id`, 'serviceId', OLD.`service_id`,
    'roomId', OLD.`room_id`, 'startDate', OLD.`start_date`, 'startHour', OLD.`start_hour`, 'startMin', OLD.`start_min`,
    'endMin', OLD.`end_min`, 'pax', OLD.`pax`, 'status', OLD.`status`, 'channel', OLD.`channel`,
    'waitingList', OLD.`waiting_list`, 'notes', OLD.`notes`, 'specialRequest', OLD.`special_request`, 'occasion', OLD.`occasion`,
    'allergies', OLD.`allergies`, 'guest', json(OLD.`guest`), 'overridePacing', OLD.`override_pacing`, 'statusReason', OLD.`status_reason`,
    'lastStatusChange', OLD.`last_status_change`, 'checkinDate', OLD.`checkin_date`, 'checkoutDate', OLD.`checkout_date`, 'expirationDate', OLD.`expiration_date`,
    'tableIds', json(OLD.`table_ids`), 'paymentDueAt', OLD.`payment_due_at`, 'customerSnapshot', json(OLD.`customer_snapshot`)
  ), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
