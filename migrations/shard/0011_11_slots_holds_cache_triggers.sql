-- The slot listing caches a window's holds per isolate, keyed by properties.holds_version (as the
-- catalog by catalog_version): every write to reservation_tables bumps it, whatever code path made
-- the write (a move's copies excepted: the version travels with the property). The bump is in the
-- writer's own statement, so no reader can see the new holds under the old version.
CREATE TRIGGER `reservation_tables_holds_version_insert` AFTER INSERT ON `reservation_tables` FOR EACH ROW
BEGIN
  UPDATE `properties` SET `holds_version` = `holds_version` + 1
  WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND `copying` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_tables_holds_version_update` AFTER UPDATE ON `reservation_tables` FOR EACH ROW
BEGIN
  UPDATE `properties` SET `holds_version` = `holds_version` + 1
  WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = NEW.`reservation_id`) AND `copying` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `reservation_tables_holds_version_delete` AFTER DELETE ON `reservation_tables` FOR EACH ROW
BEGIN
  UPDATE `properties` SET `holds_version` = `holds_version` + 1
  WHERE `id` = (SELECT `property_id` FROM `reservations` WHERE `id` = OLD.`reservation_id`) AND `copying` = 0;
END;
