CREATE TABLE `id_ranges` (
	`base` integer PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "id_ranges_shard_ck" CHECK("id_ranges"."shard" >= 0)
);
