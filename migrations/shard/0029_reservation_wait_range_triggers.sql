-- A waiting range ends at or after its earliest start (wait_until_min null or >= start_min): triggers,
-- since a CHECK added to an existing table makes drizzle-kit rebuild it, which would drop its triggers.
CREATE TRIGGER `reservations_wait_until_check_insert`
BEFORE INSERT ON `reservations`
FOR EACH ROW
WHEN NEW.`wait_until_min` IS NOT NULL AND NEW.`wait_until_min` < NEW.`start_min`
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_wait_until_ck');
END;
--> statement-breakpoint
CREATE TRIGGER `reservations_wait_until_check_update`
BEFORE UPDATE OF `wait_until_min`, `start_min` ON `reservations`
FOR EACH ROW
WHEN NEW.`wait_until_min` IS NOT NULL AND NEW.`wait_until_min` < NEW.`start_min`
BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: reservations_wait_until_ck');
END;
