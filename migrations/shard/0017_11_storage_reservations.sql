-- The room index goes (rooms use the property's start index); created_at and updated_at go (the
-- history holds every change's time; nothing read them).
DROP INDEX `reservations_room_idx`;--> statement-breakpoint
ALTER TABLE `reservations` DROP COLUMN `created_at`;--> statement-breakpoint
ALTER TABLE `reservations` DROP COLUMN `updated_at`;