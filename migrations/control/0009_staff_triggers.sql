-- The property's own username and password are its first owner: a member of staff marked
-- `account`, made with the property (or when it is first given a username), named by its username.
-- Properties that have one already get theirs here.
CREATE TRIGGER `property_directory_account_member`
AFTER INSERT ON `property_directory`
FOR EACH ROW
WHEN NEW.`username_key` IS NOT NULL
BEGIN
  INSERT INTO `staff_members` (`property_id`, `name`, `role`, `account`) VALUES (NEW.`id`, NEW.`username`, 'owner', 1);
END;
--> statement-breakpoint
CREATE TRIGGER `property_directory_account_member_renamed`
AFTER UPDATE OF `username`, `username_key` ON `property_directory`
FOR EACH ROW
WHEN NEW.`username_key` IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO `staff_members` (`property_id`, `name`, `role`, `account`) VALUES (NEW.`id`, NEW.`username`, 'owner', 1);
  UPDATE `staff_members` SET `name` = NEW.`username` WHERE `property_id` = NEW.`id` AND `account` = 1;
END;
--> statement-breakpoint
-- The last owner who can sign in stays an active owner: a demotion or deactivation that would leave
-- the restaurant without one fails, however many requests race for it.
CREATE TRIGGER `staff_members_last_owner`
BEFORE UPDATE OF `role`, `active` ON `staff_members`
FOR EACH ROW
WHEN OLD.`role` = 'owner' AND OLD.`active` = 1 AND (OLD.`account` = 1 OR OLD.`password_hash` IS NOT NULL)
  AND (NEW.`role` <> 'owner' OR NEW.`active` = 0)
  AND NOT EXISTS (
    SELECT 1 FROM `staff_members` s
    WHERE s.`property_id` = OLD.`property_id` AND s.`id` <> OLD.`id` AND s.`role` = 'owner' AND s.`active` = 1
      AND (s.`account` = 1 OR s.`password_hash` IS NOT NULL)
  )
BEGIN
  SELECT RAISE(ABORT, 'last_owner');
END;
--> statement-breakpoint
INSERT INTO `staff_members` (`property_id`, `name`, `role`, `account`)
SELECT `id`, `username`, 'owner', 1 FROM `property_directory` WHERE `username_key` IS NOT NULL;
--> statement-breakpoint
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
