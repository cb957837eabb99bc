DROP INDEX `reservations_manage_token_idx`;--> statement-breakpoint
DROP INDEX `reservations_status_due_idx`;--> statement-breakpoint
CREATE INDEX `reservations_manage_token_idx` ON `reservations` (`manage_token_hash`) WHERE "reservations"."manage_token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `reservations_status_due_idx` ON `reservations` (`status`,`payment_due_at`) WHERE "reservations"."payment_due_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX `webhook_deliveries_due_idx`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`state`,`next_attempt_at`) WHERE "webhook_deliveries"."state" = 'pending';