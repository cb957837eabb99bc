DROP INDEX `webhook_events_uid_uq`;--> statement-breakpoint
DROP INDEX `webhook_events_created_idx`;