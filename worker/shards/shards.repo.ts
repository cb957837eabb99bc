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
  "walk_ins",
  "audit_log",
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
  "shift_notes",
] as const;

/** Where a shard's id range stands: its start, its tables' sequences, and the highest of them and of every id. */
export interface IdRangeState {
  base: number;
  seqs: Record<string, number>;
  high: number;
}

const tableList = SEQUENCED_TABLES.map((t) => `'${t}'`).join(", ");
const highest = SEQUENCED_TABLES.map((t) => `coalesce((SELECT max(id) FROM ${t}), 0)`).join(", ");
const rangeState = `SELECT r.base, max(coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name IN (${tableList})), 0), ${highest}) AS high, (SELECT json_group_object(name, seq) FROM sqlite_sequence WHERE name IN (${tableList})) AS seqs FROM id_range r`;

function stateOf(row: { base: number; high: number; seqs: string } | null): IdRangeState {
  if (!row) throw new Error("the shard has no id range");
  return { base: row.base, high: row.high, seqs: JSON.parse(row.seqs ?? "{}") };
}

/** Where the shard's id range stands, read only: undefined before it has one. */
export async function readIdRange(d1: D1Database): Promise<IdRangeState | undefined> {
  const row = await d1.prepare(rangeState).first<{ base: number; high: number; seqs: string }>();
  return row ? stateOf(row) : undefined;
}

/**
 * Gives the shard its id range, starting at `base`, unless it has one (a move may have moved it
 * on since), and starts every sequence there: a missing one is added, and one below the range is
 * raised (the migrations that rebuilt webhook_events and webhook_deliveries left theirs at 0, so
 * every shard handed out the same event and delivery ids). One batch; answers where it stands.
 */
export async function seedIdRange(d1: D1Database, base: number): Promise<IdRangeState> {
  const own = "(SELECT base FROM id_range)";
  const results = await d1.batch([
    d1.prepare("INSERT INTO id_range (id, base) VALUES (1, ?) ON CONFLICT (id) DO NOTHING").bind(base),
    ...SEQUENCED_TABLES.flatMap((name) => [
      d1
        .prepare(
          `INSERT INTO sqlite_sequence (name, seq) SELECT ?1, ${own} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)`,
        )
        .bind(name),
      d1.prepare(`UPDATE sqlite_sequence SET seq = ${own} WHERE name = ?1 AND seq < ${own}`).bind(name),
    ]),
    d1.prepare(rangeState),
  ]);
  return stateOf(results.at(-1)!.results[0] as { base: number; high: number; seqs: string });
}

/**
 * Moves the shard from the range at `from` to the one at `to` (above every id it holds), every
 * sequence with it, in one batch; answers where it stands (another caller may have moved it first).
 */
export async function rebaseIdRange(d1: D1Database, from: number, to: number): Promise<IdRangeState> {
  const own = "(SELECT base FROM id_range)";
  const results = await d1.batch([
    d1.prepare("UPDATE id_range SET base = ?2 WHERE id = 1 AND base = ?1").bind(from, to),
    d1.prepare(`UPDATE sqlite_sequence SET seq = ${own} WHERE name IN (${tableList}) AND seq < ${own}`),
    d1.prepare(rangeState),
  ]);
  return stateOf(results.at(-1)!.results[0] as { base: number; high: number; seqs: string });
}

/** Rows per table, the live properties, the start of the id range (null before it has one) and the database's size in bytes. */
export async function shardStats(d1: D1Database): Promise<{
  properties: number;
  rows: Record<string, number>;
  idBase: number | null;
  bytes: number;
}> {
  const results = await d1.batch<{ n: number }>([
    d1.prepare("SELECT count(*) AS n FROM properties WHERE deleted_at IS NULL AND shard_state = 'live'"),
    d1.prepare("SELECT base AS n FROM id_range"),
    ...SHARD_TABLES.map((t) => d1.prepare(`SELECT count(*) AS n FROM ${t}`)),
  ]);
  const rows: Record<string, number> = {};
  for (const [i, t] of SHARD_TABLES.entries()) rows[t] = results[i + 2]!.results[0]!.n;
  return {
    properties: results[0]!.results[0]!.n,
    rows,
    idBase: results[1]!.results[0]?.n ?? null,
    bytes: results.at(-1)!.meta.size_after ?? 0,
  };
}
