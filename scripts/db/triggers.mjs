// The freeze of a property while it moves between shards (worker/ops/move.ts), written once for
// every table: while a property's shard_state is not 'live', a write to any of its rows aborts
// with 'property_moving' (the API answers 503), except the move's own batches, which set
// properties.copying = 1 first and 0 last. The SQL comes from the list below, and the migrations
// hold exactly what it writes (`node scripts/db/schema.mjs --check` proves it; npm test runs it).
//   node scripts/db/triggers.mjs              every guard, as the migrations hold them
//   node scripts/db/triggers.mjs <table>...   those tables' guards (a migration that rebuilds a
//                                             table recreates its triggers)
//   npm run db:guards -- <name>               a new shard migration with the guards the schema lacks
//                                             (scripts/db/guards-migration.mjs)
import { pathToFileURL } from "node:url";

/**
 * Every table of a shard whose rows belong to one property, in the order their guards were
 * added, and how a row names its property: its own `property_id`, or its parent row's (`via`).
 */
export const PROPERTY_TABLES = [
  { table: "rooms" },
  { table: "dining_tables" },
  { table: "services" },
  { table: "closures" },
  { table: "customers" },
  { table: "reservations" },
  { table: "catalog_changes" },
  { table: "webhook_subscriptions" },
  { table: "webhook_events" },
  { table: "table_group_members", via: { table: "dining_tables", key: "group_id" } },
  { table: "reservation_tables", via: { table: "reservations", key: "reservation_id" } },
  { table: "reservation_history", via: { table: "reservations", key: "reservation_id" } },
  { table: "webhook_deliveries" },
  { table: "webhook_attempts", via: { table: "webhook_deliveries", key: "delivery_id" } },
  { table: "guest_booking_checks" },
  { table: "messages" },
  { table: "waitlist_offers" },
  { table: "webhook_event_bodies", via: { table: "webhook_events", key: "event_id" } },
  { table: "message_bodies", via: { table: "messages", key: "message_id" } },
  { table: "reservation_payments", via: { table: "reservations", key: "reservation_id" } },
  { table: "stripe_events" },
  { table: "walk_ins" },
  { table: "shift_notes" },
  { table: "audit_log" },
];

/** The row a trigger of each operation sees. */
const OPERATIONS = [
  ["insert", "NEW"],
  ["update", "NEW"],
  ["delete", "OLD"],
];

const ABORT = "BEGIN\n  SELECT RAISE(ABORT, 'property_moving');\nEND";

/** The SQL expression of the property a row belongs to. */
function ownerOf({ via }, row) {
  return via
    ? `(SELECT \`property_id\` FROM \`${via.table}\` WHERE \`id\` = ${row}.\`${via.key}\`)`
    : `${row}.\`property_id\``;
}

/** The three guards of one table of PROPERTY_TABLES: [{ name, sql }], sql as SQLite keeps it (no `;`). */
export function guardsOf(entry) {
  return OPERATIONS.map(([op, row]) => {
    const name = `${entry.table}_moving_${op}`;
    const sql = [
      `CREATE TRIGGER \`${name}\` BEFORE ${op.toUpperCase()} ON \`${entry.table}\` FOR EACH ROW`,
      `WHEN EXISTS (SELECT 1 FROM \`properties\` p WHERE p.\`id\` = ${ownerOf(entry, row)} AND p.\`shard_state\` <> 'live' AND p.\`copying\` = 0)`,
      ABORT,
    ].join("\n");
    return { name, sql };
  });
}

/**
 * The property's own row: while it moves, only the move changes it (it sets copying first, so
 * that one update passes), and only the move deletes it (the old copy, copying set).
 */
export function propertyGuards() {
  return [
    {
      name: "properties_moving_update",
      sql: `CREATE TRIGGER \`properties_moving_update\` BEFORE UPDATE ON \`properties\` FOR EACH ROW\nWHEN OLD.\`shard_state\` <> 'live' AND OLD.\`copying\` = 0 AND NEW.\`copying\` = 0\n${ABORT}`,
    },
    {
      name: "properties_moving_delete",
      sql: `CREATE TRIGGER \`properties_moving_delete\` BEFORE DELETE ON \`properties\` FOR EACH ROW\nWHEN OLD.\`copying\` = 0\n${ABORT}`,
    },
  ];
}

/** Every guard of a shard: the property's own row and each table of PROPERTY_TABLES. */
export function allGuards(tables = PROPERTY_TABLES) {
  return [...propertyGuards(), ...tables.flatMap(guardsOf)];
}

/** Triggers as a migration's statements, drizzle-kit's breakpoints between them. */
export function migrationSql(triggers) {
  return `${triggers.map((t) => `${t.sql};`).join("\n--> statement-breakpoint\n")}\n`;
}

/** The shard's tables that are no property's rows: the property itself, the shard's own id range. */
const NOT_PROPERTY_ROWS = ["properties", "id_range"];

/**
 * Where the shard's schema (migrations/shard.schema.sql) and this list part: a guard that is not
 * the one written here, a guard written here that the schema lacks, a table that is no one's.
 */
export function guardProblems(schema, tables = PROPERTY_TABLES) {
  const made = allGuards(tables);
  const problems = made
    .filter((t) => !schema.includes(`${t.sql};`))
    .map((t) => `${t.name}: not in the schema as scripts/db/triggers.mjs writes it`);
  const names = new Set(made.map((t) => t.name));
  for (const [, name] of schema.matchAll(/^CREATE TRIGGER `(\w+_moving_\w+)`/gm))
    if (!names.has(name)) problems.push(`${name}: a guard scripts/db/triggers.mjs does not write`);
  const listed = new Set([...tables.map((t) => t.table), ...NOT_PROPERTY_ROWS]);
  for (const [, table] of schema.matchAll(/^CREATE TABLE [`"](\w+)[`"]/gm))
    if (!listed.has(table))
      problems.push(`${table}: in neither PROPERTY_TABLES nor NOT_PROPERTY_ROWS (scripts/db/triggers.mjs)`);
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !PROPERTY_TABLES.some((t) => t.table === a));
  if (unknown.length) throw new Error(`not in PROPERTY_TABLES: ${unknown.join(", ")} (add them first)`);
  const tables = PROPERTY_TABLES.filter((t) => args.includes(t.table));
  process.stdout.write(migrationSql(args.length ? tables.flatMap(guardsOf) : allGuards()));
}
