CREATE TABLE `message_bodies` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`raw` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `message_bodies` (`message_id`, `raw`) SELECT `id`, `raw` FROM `messages` WHERE `raw` IS NOT NULL AND `state` = 'pending';
--> statement-breakpoint
ALTER TABLE `messages` DROP COLUMN `raw`;