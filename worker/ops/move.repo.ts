/**
 * The SQL of moving a property between shards (move.ts): the property's rows, table by table in
 * the order their references need, read from one shard and written to another with their ids.
 */

/** How a table's rows of property ?1 are found, and by which column they are paged. */
export interface MovedTable {
  name: string;
  where: string;
  /** "id" for AUTOINCREMENT tables; rowid for tables keyed by two columns; the key of a WITHOUT ROWID table */
  key: "id" | "rowid" | "reservation_id, seq";
  sequenced: boolean;
}

/** Where a page starts: after this key (a pair for a two-column key; 0 is the start). */
export type PageKey = number | [number, number];

const own = "property_id = ?1";
const ofReservations = "reservation_id IN (SELECT id FROM reservations WHERE property_id = ?1)";

/**
 * Parents before children (D1 enforces foreign keys). catalog_changes and guest_booking_checks are
 * guard rows (the latter never outlive their batch): not moved.
 */
export const MOVED_TABLES: readonly MovedTable[] = [
  { name: "properties", where: "id = ?1", key: "id", sequenced: false },
  { name: "rooms", where: own, key: "id", sequenced: true },
  { name: "dining_tables", where: own, key: "id", sequenced: true },
  {
    name: "table_group_members",
    where: "group_id IN (SELECT id FROM dining_tables WHERE property_id = ?1)",
    key: "rowid",
    sequenced: false,
  },
  { name: "services", where: own, key: "id", sequenced: true },
  { name: "closures", where: own, key: "id", sequenced: true },
  { name: "customers", where: own, key: "id", sequenced: true },
  { name: "reservations", where: own, key: "id", sequenced: true },
  { name: "reservation_tables", where: ofReservations, key: "rowid", sequenced: false },
  { name: "reservation_history", where: ofReservations, key: "reservation_id, seq", sequenced: false },
  { name: "webhook_subscriptions", where: own, key: "id", sequenced: true },
  { name: "webhook_events", where: own, key: "id", sequenced: true },
  {
    name: "webhook_event_bodies",
    where: "event_id IN (SELECT id FROM webhook_events WHERE property_id = ?1)",
    key: "rowid",
    sequenced: false,
  },
  { name: "webhook_deliveries", where: own, key: "id", sequenced: true },
  {
    name: "webhook_attempts",
    where: "delivery_id IN (SELECT id FROM webhook_deliveries WHERE property_id = ?1)",
    key: "id",
    sequenced: true,
  },
  { name: "messages", where: own, key: "id", sequenced: true },
  {
    name: "message_bodies",
    where: "message_id IN (SELECT id FROM messages WHERE property_id = ?1)",
    key: "rowid",
    sequenced: false,
  },
  { name: "waitlist_offers", where: own, key: "id", sequenced: true },
  { name: "reservation_payments", where: ofReservations, key: "rowid", sequenced: false },
  { name: "stripe_events", where: own, key: "rowid", sequenced: false },
  { name: "walk_ins", where: own, key: "id", sequenced: true },
  { name: "shift_notes", where: own, key: "rowid", sequenced: false },
  { name: "audit_log", where: own, key: "id", sequenced: true },
];

export function movedTable(name: string): MovedTable {
  const t = MOVED_TABLES.find((x) => x.name === name);
  if (!t) throw new Error(`not a table a move copies: ${name}`);
  return t;
}

/** The property's state in a shard: undefined when the shard has no row of it. */
export async function shardState(d1: D1Database, propertyId: number) {
  return (
    (await d1
      .prepare("SELECT shard_state, copying FROM properties WHERE id = ?")
      .bind(propertyId)
      .first<{ shard_state: string; copying: number }>()) ?? undefined
  );
}

/** Freezes the property in its shard: from this commit on, every write to its rows aborts. */
export async function markLeaving(d1: D1Database, propertyId: number): Promise<boolean> {
  const r = await d1
    .prepare("UPDATE properties SET shard_state = 'leaving' WHERE id = ? AND shard_state = 'live'")
    .bind(propertyId)
    .run();
  return (r.meta.changes ?? 0) === 1;
}

/** A page of the property's rows of one table, by its key, after `after`. */
export async function readPage(
  d1: D1Database,
  t: MovedTable,
  propertyId: number,
  after: PageKey,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const columns = t.key === "rowid" ? "rowid AS _key, *" : "*";
  const pair = t.key === "reservation_id, seq";
  const [first, second] = typeof after === "number" ? [after, 0] : after;
  const { results } = await d1
    .prepare(
      `SELECT ${columns} FROM ${t.name} WHERE ${t.where} AND ${pair ? "(reservation_id, seq) > (?2, ?4)" : `${t.key} > ?2`} ORDER BY ${t.key} LIMIT ?3`,
    )
    .bind(...[propertyId, first, limit, ...(pair ? [second] : [])])
    .all<Record<string, unknown>>();
  return results;
}

/** The key a page ends at, for the next page to start after. */
export function keyOf(t: MovedTable, row: Record<string, unknown>): PageKey {
  if (t.key === "reservation_id, seq") return [Number(row.reservation_id), Number(row.seq)];
  return Number(t.key === "rowid" ? row._key : row.id);
}

/**
 * Writes copied rows in one batch that sets `copying` first and clears it last: the property's
 * (the triggers let only such a batch write to a property that is moving, and stay quiet for it)
 * and the shard's id range's (its triggers let such a batch write ids of another range). The
 * shard's counters are above every id copied in (beginMove saw to it), so they stay where they are.
 */
export async function writePage(
  d1: D1Database,
  t: MovedTable,
  propertyId: number,
  rows: Record<string, unknown>[],
): Promise<void> {
  const insert = (row: Record<string, unknown>) => {
    const cols = Object.keys(row).filter((c) => c !== "_key");
    return d1
      .prepare(`INSERT INTO ${t.name} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
      .bind(...cols.map((c) => row[c] ?? null));
  };
  // The property's own row arrives "arriving": no write reaches it until the move switches it live.
  if (t.name === "properties") {
    await d1.batch(rows.map((row) => insert({ ...row, shard_state: "arriving", copying: 0 })));
    return;
  }
  const copying = (on: 0 | 1) => [
    d1.prepare("UPDATE properties SET copying = ?2 WHERE id = ?1").bind(propertyId, on),
    d1.prepare("UPDATE id_range SET copying = ? WHERE id = 1").bind(on),
  ];
  await d1.batch([...copying(1), ...rows.map(insert), ...copying(0)]);
}

/**
 * Of these ids of a table keyed by id, those a shard holds already: `mine`, rows of the property
 * (a page copied before), and `others`, rows of another property (ids that clashed before moves
 * kept each shard in a range of its own).
 */
export async function heldIds(
  d1: D1Database,
  t: MovedTable,
  propertyId: number,
  ids: number[],
): Promise<{ mine: Set<number>; others: number[] }> {
  const { results } = await d1
    .prepare(
      `SELECT id, CASE WHEN ${t.where} THEN 1 ELSE 0 END AS mine FROM ${t.name} WHERE id IN (SELECT value FROM json_each(?2)) ORDER BY id`,
    )
    .bind(propertyId, JSON.stringify(ids))
    .all<{ id: number; mine: number }>();
  return {
    mine: new Set(results.filter((r) => r.mine).map((r) => r.id)),
    others: results.filter((r) => !r.mine).map((r) => r.id),
  };
}

/** The property's highest id in each table keyed by id (0 where it has no row). */
export async function highestIds(d1: D1Database, propertyId: number): Promise<Record<string, number>> {
  const tables = MOVED_TABLES.filter((t) => t.sequenced);
  const results = await d1.batch<{ n: number | null }>(
    tables.map((t) => d1.prepare(`SELECT max(id) AS n FROM ${t.name} WHERE ${t.where}`).bind(propertyId)),
  );
  return Object.fromEntries(tables.map((t, i) => [t.name, results[i]!.results[0]?.n ?? 0]));
}

/** How many rows of the property each table holds in a shard. */
export async function countRows(d1: D1Database, propertyId: number): Promise<Record<string, number>> {
  const results = await d1.batch<{ n: number }>(
    MOVED_TABLES.map((t) =>
      d1.prepare(`SELECT count(*) AS n FROM ${t.name} WHERE ${t.where}`).bind(propertyId),
    ),
  );
  return Object.fromEntries(MOVED_TABLES.map((t, i) => [t.name, results[i]!.results[0]!.n]));
}

/** Opens the copied property for writes on its new shard. */
export async function markLive(d1: D1Database, propertyId: number): Promise<void> {
  await d1.batch([
    d1.prepare("UPDATE properties SET shard_state = 'live', copying = 1 WHERE id = ?").bind(propertyId),
    d1.prepare("UPDATE properties SET copying = 0 WHERE id = ?").bind(propertyId),
  ]);
}

/**
 * Deletes up to `limit` of the property's rows of one table (children first), in a batch that sets
 * `copying` around it; the property's own row goes last. Answers how many went.
 */
export async function deletePage(
  d1: D1Database,
  t: MovedTable,
  propertyId: number,
  limit: number,
): Promise<number> {
  const copying = d1.prepare("UPDATE properties SET copying = 1 WHERE id = ?").bind(propertyId);
  if (t.name === "properties") {
    await d1.batch([
      copying,
      d1.prepare("DELETE FROM catalog_changes WHERE property_id = ?").bind(propertyId),
      d1.prepare("DELETE FROM properties WHERE id = ?").bind(propertyId),
    ]);
    return 1;
  }
  const [, deleted] = await d1.batch([
    copying,
    d1
      .prepare(
        `DELETE FROM ${t.name} WHERE (${t.key}) IN (SELECT ${t.key} FROM ${t.name} WHERE ${t.where} LIMIT ?2)`,
      )
      .bind(propertyId, limit),
    d1.prepare("UPDATE properties SET copying = 0 WHERE id = ?").bind(propertyId),
  ]);
  return deleted!.meta.changes ?? 0;
}
