-- A reservation's money (its `payment`: owed, paid, card saved, refunded...) is part of the
-- reservation: the outbox triggers copy it into each event and a change of it alone is an update
-- (RESERVATION_UPDATED with the payment in previous_attributes). Stripe's ids live in
-- reservation_payments and make no event. Otherwise as in 0022.
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
    'allergies', NEW.`allergies`, 'guest', json(coalesce(NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`))), 'overridePacing', NEW.`override_pacing`, 'statusReason', NEW.`status_reason`,
    'lastStatusChange', NEW.`last_status_change`, 'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`,
    'tableIds', json(NEW.`table_ids`), 'paymentDueAt', NEW.`payment_due_at`, 'payment', json(NEW.`payment`), 'customerSnapshot', json(coalesce(NEW.`customer_snapshot`, NEW.`guest`, (SELECT CASE WHEN c.`erased_at` IS NULL THEN json_object('first_name', c.`first_name`, 'last_name', c.`last_name`, 'email', c.`email`, 'phone', c.`phone`) END FROM `customers` c WHERE c.`id` = NEW.`customer_id`)))
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
--> statement-breakpoint
-- The payments' rows freeze with their property while it moves between shards, as every other table a property owns.
CREATE TRIGGER `reservation_payments_moving_insert` BEFORE INSERT ON `reservation_payments` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_payments_moving_update` BEFORE UPDATE ON `reservation_payments` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_payments_moving_delete` BEFORE DELETE ON `reservation_payments` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `stripe_events_moving_insert` BEFORE INSERT ON `stripe_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `stripe_events_moving_update` BEFORE UPDATE ON `stripe_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `stripe_events_moving_delete` BEFORE DELETE ON `stripe_events` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
