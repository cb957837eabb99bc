-- The history is kept for good, so it is stored lean: WITHOUT ROWID, keyed by (reservation_id,
-- seq), so a reservation's entries sit together under its id and need no index of their own (91
-- bytes a reservation of three entries on a shard whose ids take six bytes); seq numbers them 1,
-- 2, ... within it (the API's history `id`) in the order they were written: by time, then id (a
-- property moved to a lower shard wrote lower ids after the move); `at` is integer milliseconds
-- since the epoch, not ISO text (18 bytes an entry). Together about 135 bytes a reservation. Rebuilding the table drops its triggers: they come
-- back unchanged below. This rewrites the table on every shard: apply it in a quiet hour.
CREATE TABLE `__new_reservation_history` (
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
--> statement-breakpoint
INSERT INTO `__new_reservation_history` (`reservation_id`, `seq`, `at`, `actor`, `action`, `from_status`, `to_status`, `changes`)
SELECT `reservation_id`, row_number() OVER (PARTITION BY `reservation_id` ORDER BY `at`, `id`),
  CAST(round((julianday(`at`) - 2440587.5) * 86400000) AS INTEGER), `actor`, `action`, `from_status`, `to_status`, `changes`
FROM `reservation_history`;
--> statement-breakpoint
DROP TABLE `reservation_history`;
--> statement-breakpoint
ALTER TABLE `__new_reservation_history` RENAME TO `reservation_history`;
--> statement-breakpoint
DELETE FROM `sqlite_sequence` WHERE `name` = 'reservation_history';
--> statement-breakpoint
CREATE TRIGGER `reservation_history_moving_insert` BEFORE INSERT ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_history_moving_update` BEFORE UPDATE ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_history_moving_delete` BEFORE DELETE ON `reservation_history` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
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
