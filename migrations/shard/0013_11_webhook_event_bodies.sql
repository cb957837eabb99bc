CREATE TABLE `webhook_event_bodies` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`snapshot` text NOT NULL,
	`previous` text,
	`payload` text,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE no action
);
