CREATE TABLE `guest_booking_checks` (
	`property_id` integer NOT NULL,
	`email` text,
	`phone` text,
	`now_min` integer NOT NULL,
	`max_bookings` integer NOT NULL,
	FOREIGN KEY (`property_id`) REFERENCES `properties`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "guest_booking_checks_max_ck" CHECK("guest_booking_checks"."max_bookings" >= 1)
);
