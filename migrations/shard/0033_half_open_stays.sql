-- Stays are half-open intervals: a party holds its tables over [start, end), so one leaving at
-- 21:00 and another arriving at 21:00 share a table, whichever was booked first. The guard
-- against overlapping holds refused the later-booked of two such parties when it came first on
-- the clock (it compared the hold's start with the new end inclusively); it now compares both
-- ends strictly, as the engine does. Otherwise unchanged: stays are 5 to 1440 minutes (a CHECK),
-- which bounds the index range; a hold on a deleted table is refused; RAISE aborts the batch.
DROP TRIGGER `reservation_tables_no_overlap`;
--> statement-breakpoint
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
