ALTER TABLE `reservations` ADD `searchengine_user_id` text;--> statement-breakpoint
ALTER TABLE `reservations` ADD `searchengine_token` text;--> statement-breakpoint
CREATE INDEX `reservations_searchengine_user_idx` ON `reservations` (`searchengine_user_id`) WHERE "reservations"."searchengine_user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `reservations_searchengine_token_uq` ON `reservations` (`property_id`,`searchengine_token`) WHERE "reservations"."searchengine_token" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_subscriptions_searchengine_uq` ON `webhook_subscriptions` (`property_id`) WHERE "webhook_subscriptions"."webhook_type" = 'SEARCHENGINE_BOOKING' AND "webhook_subscriptions"."deleted_at" IS NULL;