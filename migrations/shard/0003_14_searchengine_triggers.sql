-- Hand-written after drizzle-kit's columns (the search engine's booking server).
-- 1. The search-engine columns belong to search-engine bookings only (the invariant a CHECK would
--    state; SQLite cannot add one to an existing table without rebuilding it, and its triggers).
CREATE TRIGGER `reservations_searchengine_channel_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN (NEW.`searchengine_user_id` IS NOT NULL OR NEW.`searchengine_token` IS NOT NULL) AND NEW.`channel` <> 'SEARCHENGINE'
BEGIN
  SELECT RAISE(ABORT, 'searchengine_channel');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_searchengine_channel_update`
BEFORE UPDATE OF `channel`, `searchengine_user_id`, `searchengine_token` ON `reservations`
FOR EACH ROW
WHEN (NEW.`searchengine_user_id` IS NOT NULL OR NEW.`searchengine_token` IS NOT NULL) AND NEW.`channel` <> 'SEARCHENGINE'
BEGIN
  SELECT RAISE(ABORT, 'searchengine_channel');
END;
--> statement-breakpoint
-- 2. The search engine's booking notifications, through the webhook outbox: a change
-- of a booking the search engine made, by anyone but the booking server itself (actor
-- 'searchengine'), writes an event of the reserved type SEARCHENGINE_BOOKING, which the fan-out
-- trigger hands to the property's reserved subscription; worker/searchengine/notify.ts sends it.
-- Every change of a reservation writes its history entry in the same batch, and the entry names
-- the actor and the fields changed, which the reservation row itself does not. Only what the
-- search engine shows counts: start, end, party size, and a status whose meaning there changes
-- (ACCEPTED and CONFIRMED are both CONFIRMED to it). Copies of a move stay quiet.
CREATE TRIGGER `reservation_history_searchengine_notify`
AFTER INSERT ON `reservation_history`
FOR EACH ROW
WHEN NEW.`actor` <> 'searchengine' AND NEW.`action` <> 'created'
  AND (json_type(NEW.`changes`, '$.start_date') IS NOT NULL OR json_type(NEW.`changes`, '$.start_hour') IS NOT NULL
    OR json_type(NEW.`changes`, '$.end_date') IS NOT NULL OR json_type(NEW.`changes`, '$.pax') IS NOT NULL
    OR (json_type(NEW.`changes`, '$.status') IS NOT NULL AND NOT (
      coalesce(json_extract(NEW.`changes`, '$.status[0]'), '') IN ('ACCEPTED', 'CONFIRMED')
      AND coalesce(json_extract(NEW.`changes`, '$.status[1]'), '') IN ('ACCEPTED', 'CONFIRMED'))))
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
    'action', NEW.`action`, 'changes', json(NEW.`changes`)
  ), NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM `reservations` r JOIN `properties` p ON p.`id` = r.`property_id`
  WHERE r.`id` = NEW.`reservation_id`;
END;
