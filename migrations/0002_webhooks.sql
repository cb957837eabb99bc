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
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_subscription_idx` ON `webhook_deliveries` (`subscription_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_order_idx` ON `webhook_deliveries` (`subscription_id`,`reservation_id`,`id`);--> statement-breakpoint
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
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_client_idx` ON `webhook_subscriptions` (`client_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_property_type_idx` ON `webhook_subscriptions` (`property_id`,`webhook_type`);--> statement-breakpoint
ALTER TABLE `reservations` ADD `customer_snapshot` text;
--> statement-breakpoint
-- The outbox (CONTRACT 9). Hand-written after drizzle-kit's output (it does not know triggers).
-- Every new reservation and every change of what the API shows of one writes its event row in
-- the same statement, so in the same D1 batch: a change can never exist without its event,
-- whatever code path made it (API, widget, cron). Only live subscriptions on live properties
-- get rows. The snapshot is the row as drizzle reads it (camelCase keys), for the payload.
CREATE TRIGGER `reservations_webhook_created`
AFTER INSERT ON `reservations`
FOR EACH ROW
WHEN EXISTS (
  SELECT 1 FROM `webhook_subscriptions` s JOIN `properties` p ON p.`id` = s.`property_id`
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = 'RESERVATION_CREATED'
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL AND p.`deleted_at` IS NULL
)
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(16))), NEW.`property_id`, NEW.`id`, 'RESERVATION_CREATED', json_object(
    'id', NEW.`id`, 'propertyId', NEW.`property_id`, 'customerId', NEW.`customer_id`, 'serviceId', NEW.`service_id`,
    'roomId', NEW.`room_id`, 'startDate', NEW.`start_date`, 'startHour', NEW.`start_hour`, 'startMin', NEW.`start_min`,
    'endMin', NEW.`end_min`, 'pax', NEW.`pax`, 'status', NEW.`status`, 'channel', NEW.`channel`,
    'waitingList', NEW.`waiting_list`, 'notes', NEW.`notes`, 'specialRequest', NEW.`special_request`, 'lastStatusChange', NEW.`last_status_change`,
    'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`, 'tableIds', json(NEW.`table_ids`),
    'paymentDueAt', NEW.`payment_due_at`, 'customerSnapshot', json(NEW.`customer_snapshot`)
  ), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
-- Bookkeeping columns (version, updated_at, catalog_version, the manage token, undo memory) are
-- not news; the customer's details are (customer_snapshot).
CREATE TRIGGER `reservations_webhook_updated`
AFTER UPDATE ON `reservations`
FOR EACH ROW
WHEN (OLD.`customer_id` IS NOT NEW.`customer_id` OR OLD.`service_id` IS NOT NEW.`service_id` OR OLD.`room_id` IS NOT NEW.`room_id`
  OR OLD.`start_date` IS NOT NEW.`start_date` OR OLD.`start_hour` IS NOT NEW.`start_hour` OR OLD.`start_min` IS NOT NEW.`start_min`
  OR OLD.`end_min` IS NOT NEW.`end_min` OR OLD.`pax` IS NOT NEW.`pax` OR OLD.`status` IS NOT NEW.`status`
  OR OLD.`channel` IS NOT NEW.`channel` OR OLD.`waiting_list` IS NOT NEW.`waiting_list` OR OLD.`notes` IS NOT NEW.`notes`
  OR OLD.`special_request` IS NOT NEW.`special_request` OR OLD.`last_status_change` IS NOT NEW.`last_status_change` OR OLD.`checkin_date` IS NOT NEW.`checkin_date`
  OR OLD.`checkout_date` IS NOT NEW.`checkout_date` OR OLD.`expiration_date` IS NOT NEW.`expiration_date` OR OLD.`table_ids` IS NOT NEW.`table_ids`
  OR OLD.`payment_due_at` IS NOT NEW.`payment_due_at` OR OLD.`customer_snapshot` IS NOT NEW.`customer_snapshot`)
  AND EXISTS (
  SELECT 1 FROM `webhook_subscriptions` s JOIN `properties` p ON p.`id` = s.`property_id`
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = 'RESERVATION_UPDATED'
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL AND p.`deleted_at` IS NULL
)
BEGIN
  INSERT INTO `webhook_events` (`uid`, `property_id`, `reservation_id`, `type`, `snapshot`, `previous`, `created_at`)
  VALUES ('msg_' || lower(hex(randomblob(16))), NEW.`property_id`, NEW.`id`, 'RESERVATION_UPDATED', json_object(
    'id', NEW.`id`, 'propertyId', NEW.`property_id`, 'customerId', NEW.`customer_id`, 'serviceId', NEW.`service_id`,
    'roomId', NEW.`room_id`, 'startDate', NEW.`start_date`, 'startHour', NEW.`start_hour`, 'startMin', NEW.`start_min`,
    'endMin', NEW.`end_min`, 'pax', NEW.`pax`, 'status', NEW.`status`, 'channel', NEW.`channel`,
    'waitingList', NEW.`waiting_list`, 'notes', NEW.`notes`, 'specialRequest', NEW.`special_request`, 'lastStatusChange', NEW.`last_status_change`,
    'checkinDate', NEW.`checkin_date`, 'checkoutDate', NEW.`checkout_date`, 'expirationDate', NEW.`expiration_date`, 'tableIds', json(NEW.`table_ids`),
    'paymentDueAt', NEW.`payment_due_at`, 'customerSnapshot', json(NEW.`customer_snapshot`)
  ), json_object(
    'id', OLD.`id`, 'propertyId', OLD.`property_id`, 'customerId', OLD.`customer_id`, 'serviceId', OLD.`service_id`,
    'roomId', OLD.`room_id`, 'startDate', OLD.`start_date`, 'startHour', OLD.`start_hour`, 'startMin', OLD.`start_min`,
    'endMin', OLD.`end_min`, 'pax', OLD.`pax`, 'status', OLD.`status`, 'channel', OLD.`channel`,
    'waitingList', OLD.`waiting_list`, 'notes', OLD.`notes`, 'specialRequest', OLD.`special_request`, 'lastStatusChange', OLD.`last_status_change`,
    'checkinDate', OLD.`checkin_date`, 'checkoutDate', OLD.`checkout_date`, 'expirationDate', OLD.`expiration_date`, 'tableIds', json(OLD.`table_ids`),
    'paymentDueAt', OLD.`payment_due_at`, 'customerSnapshot', json(OLD.`customer_snapshot`)
  ), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
--> statement-breakpoint
-- Fan-out: one delivery per live subscription of the event's property and type, due at once.
CREATE TRIGGER `webhook_events_fanout`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
BEGIN
  INSERT INTO `webhook_deliveries` (`event_id`, `subscription_id`, `reservation_id`, `state`, `next_attempt_at`, `created_at`)
  SELECT NEW.`id`, s.`id`, NEW.`reservation_id`, 'pending', NEW.`created_at`, NEW.`created_at`
  FROM `webhook_subscriptions` s
  WHERE s.`property_id` = NEW.`property_id` AND s.`webhook_type` = NEW.`type`
    AND s.`deleted_at` IS NULL AND s.`disabled_at` IS NULL;
END;
