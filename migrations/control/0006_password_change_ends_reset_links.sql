-- A new password ends every reset link asked before it, whichever way it was set (the console's
-- change, a reset link, the integrator API): a link emailed for the old password must not set
-- another one afterwards.
CREATE TRIGGER `property_directory_password_ends_reset_links`
AFTER UPDATE OF `password_hash` ON `property_directory`
FOR EACH ROW
WHEN OLD.`password_hash` IS NOT NEW.`password_hash`
BEGIN
  DELETE FROM `console_links` WHERE `property_id` = NEW.`id` AND `kind` = 'reset';
END;
