-- The pacing triggers (0005) count a service's arrivals in one interval through the property's
-- start index (0023 dropped the index by service): the same rows, a range of a few minutes.
DROP TRIGGER `reservations_pacing_insert`;
--> statement-breakpoint
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
--> statement-breakpoint
DROP TRIGGER `reservations_pacing_update`;
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
    WHERE (p.max_parties IS NOT NULL AND (SELECT count(*) FROM `reservations` r WHERE r.`property_id` = NEW.`property_id` AND r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`id` <> NEW.`id` AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + 1 > p.max_parties)
       OR (p.max_covers IS NOT NULL AND (SELECT coalesce(sum(r.`pax`), 0) FROM `reservations` r WHERE r.`property_id` = NEW.`property_id` AND r.`service_id` = NEW.`service_id` AND r.`status` IN ('PREPAY', 'ACCEPTED', 'CONFIRMED') AND r.`id` <> NEW.`id` AND r.`start_min` >= p.bucket AND r.`start_min` < p.bucket + p.width) + NEW.`pax` > p.max_covers)
  )
BEGIN
  SELECT RAISE(ABORT, 'pacing_full');
END;
