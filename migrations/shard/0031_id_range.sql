CREATE TABLE `id_range` (
	`id` integer PRIMARY KEY NOT NULL,
	`base` integer NOT NULL,
	`copying` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "id_range_one_ck" CHECK("id_range"."id" = 1),
	CONSTRAINT "id_range_base_ck" CHECK("id_range"."base" >= 0),
	CONSTRAINT "id_range_copying_ck" CHECK("id_range"."copying" IN (0, 1))
);
--> statement-breakpoint
DROP TABLE `move_sequences`;