-- Every change of a reservation is in the audit log: its history entry's who and what, copied in
-- the same statement, whatever code wrote it (not while a move copies the property's rows in: they
-- bring their audit rows with them).
CREATE TRIGGER `reservation_history_audit`
AFTER INSERT ON `reservation_history`
FOR EACH ROW
BEGIN
  INSERT INTO `audit_log` (`property_id`, `at`, `actor`, `action`, `subject`, `subject_id`, `ref`)
  SELECT r.`property_id`, NEW.`at`, NEW.`actor`, NEW.`action`, 'reservation', NEW.`reservation_id`, NEW.`seq`
  FROM `reservations` r JOIN `properties` p ON p.`id` = r.`property_id`
  WHERE r.`id` = NEW.`reservation_id` AND p.`copying` = 0;
END;
--> statement-breakpoint
-- A webhook event names who made its change: the reservation's changed_by, written by the same
-- statement that made the event, so the event's actor does not depend on where its batch puts the
-- history entry.
CREATE TRIGGER `webhook_events_actor`
AFTER INSERT ON `webhook_events`
FOR EACH ROW
WHEN NEW.`actor` IS NULL AND (SELECT `copying` FROM `properties` WHERE `id` = NEW.`property_id`) = 0
BEGIN
  UPDATE `webhook_events` SET `actor` = (SELECT `changed_by` FROM `reservations` WHERE `id` = NEW.`reservation_id`)
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_id_in_range` AFTER INSERT ON `audit_log` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: audit_log');
END;
