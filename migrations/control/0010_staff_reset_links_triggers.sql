-- A reset link names whose password it sets: the property's own (staff_id null) or a member's. A new
-- password ends the reset links asked for it before, and only those: the property's password ends
-- the property's links, a member's password that member's.
DROP TRIGGER IF EXISTS `property_directory_password_ends_reset_links`;
--> statement-breakpoint
CREATE TRIGGER `property_directory_password_ends_reset_links`
AFTER UPDATE OF `password_hash` ON `property_directory`
FOR EACH ROW
WHEN OLD.`password_hash` IS NOT NEW.`password_hash`
BEGIN
  DELETE FROM `console_links` WHERE `property_id` = NEW.`id` AND `kind` = 'reset' AND `staff_id` IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `staff_members_password_ends_reset_links`
AFTER UPDATE OF `password_hash` ON `staff_members`
FOR EACH ROW
WHEN OLD.`password_hash` IS NOT NEW.`password_hash`
BEGIN
  DELETE FROM `console_links` WHERE `staff_id` = NEW.`id` AND `kind` = 'reset';
END;
