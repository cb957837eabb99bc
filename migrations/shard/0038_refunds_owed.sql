-- A refund a closed booking owes is recorded with the change that closes it, and retried until
-- Stripe makes it (the cron, with backoff; the same idempotency key every time).
ALTER TABLE `reservation_payments` ADD `refund_due` integer;--> statement-breakpoint
ALTER TABLE `reservation_payments` ADD `refund_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reservation_payments` ADD `refund_next_at` text;--> statement-breakpoint
ALTER TABLE `reservation_payments` ADD `refund_error` text;--> statement-breakpoint
CREATE INDEX `reservation_payments_refund_due_idx` ON `reservation_payments` (`refund_next_at`) WHERE "reservation_payments"."refund_due" IS NOT NULL;