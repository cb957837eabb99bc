-- A history entry keeps a change of status once, in from_status and to_status, no longer also in
-- `changes` (worker/reservations/history.repo.ts). The search engine's notification trigger reads
-- the status change from those columns and hands its notifier the changes with the status put back.
DROP TRIGGER `reservation_history_searchengine_notify`;
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
