/** SQL that concerns a shard as a whole: its id range, and what it holds. */

/** The AUTOINCREMENT tables of a shard: each takes its ids from the shard's range. */
export const SEQUENCED_TABLES = [
  "rooms",
  "dining_tables",
  "services",
  "closures",
  "customers",
  "reservations",
  "catalog_changes",
  "webhook_subscriptions",
  "webhook_events",
  "webhook_deliveries",
  "webhook_attempts",
  "messages",
  "waitlist_offers",
] as const;

/** Every table of a shard, for `ops shards`. */
export const SHARD_TABLES = [
  "properties",
  ...SEQUENCED_TABLES,
  "table_group_members",
  "reservation_tables",
  "reservation_history",
  "webhook_event_bodies",
  "message_bodies",
] as const;

/**
 * Starts every sequence of the shard at `base` unless it is there already (SQLite's AUTOINCREMENT
 * then hands out base + 1, base + 2, ...): a missing one is added, and one below the range is
 * raised (the migrations that rebuilt webhook_events and webhook_deliveries left theirs at 0, so
 * every shard handed out the same event and delivery ids). Two statements per table, one batch.
 */
export async function seedIdRange(d1: D1Database, base: number): Promise<void> {
  await d1.batch(
    SEQUENCED_TABLES.flatMap((name) => [
      d1
        .prepare(
          "INSERT INTO sqlite_sequence (name, seq) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)",
        )
        .bind(name, base),
      d1.prepare("UPDATE sqlite_sequence SET seq = ?2 WHERE name = ?1 AND seq < ?2").bind(name, base),
    ]),
  );
}

/** Rows per table, the live properties and the database's size in bytes. */
export async function shardStats(
  d1: D1Database,
): Promise<{ properties: number; rows: Record<string, number>; bytes: number }> {
  const results = await d1.batch<{ n: number }>([
    d1.prepare("SELECT count(*) AS n FROM properties WHERE deleted_at IS NULL AND shard_state = 'live'"),
    ...SHARD_TABLES.map((t) => d1.prepare(`SELECT count(*) AS n FROM ${t}`)),
  ]);
  const rows: Record<string, number> = {};
  for (const [i, t] of SHARD_TABLES.entries()) rows[t] = results[i + 1]!.results[0]!.n;
  return { properties: results[0]!.results[0]!.n, rows, bytes: results.at(-1)!.meta.size_after ?? 0 };
}
