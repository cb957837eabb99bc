ALTER TABLE `reservations` ADD `wait_until_min` integer;--> statement-breakpoint
ALTER TABLE `waitlist_offers` ADD `start_min` integer;