// Applies the migrations to every database: the control database DB (migrations/control) and
// each shard SHARD_<k> (migrations/shard), as wrangler.toml lists them.
//   npm run db:migrate                 the local D1 of `npm start` (STATE_DIR or .wrangler/state)
//   npm run db:migrate -- --persist-to DIR
//   npm run db:migrate -- --remote     the deployed databases (wrangler must be logged in)
// Locally one Miniflare serves all databases at once (a wrangler process each would take seconds);
// the applied migrations are recorded in wrangler's own table, so `wrangler d1 migrations` agrees.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { defaultPersistDir, ROOT, wrangler } from "./paths.mjs";

/**
 * The [[d1_databases]] of wrangler.toml: binding, database_id, migrations_dir. smol-toml is imported
 * when used: `npm start` and `npm test` import this module before they install the packages.
 */
export async function d1Databases(file = join(ROOT, "wrangler.toml")) {
  const { parse } = await import("smol-toml");
  return parse(readFileSync(file, "utf8")).d1_databases ?? [];
}

/** The migration files of a folder, in order, each split into its statements. */
function migrationsIn(dir) {
  return readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({
      name,
      statements: readFileSync(join(ROOT, dir, name), "utf8")
        .split("--> statement-breakpoint")
        .map((s) => s.trim())
        .filter((s) => s.replace(/^--.*$/gm, "").trim() !== ""),
    }));
}

const TRACKING = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/** Applies what is missing to one database (`sql(statements)` runs one batch); answers the names applied. */
export async function applyTo(sql, dir) {
  await sql([TRACKING]);
  const [names] = await sql(["SELECT name FROM d1_migrations"]);
  const done = new Set(names.map((r) => r.name));
  const applied = [];
  for (const m of migrationsIn(dir)) {
    if (done.has(m.name)) continue;
    // One batch per file: a failing statement leaves the file unapplied, as wrangler does.
    await sql([...m.statements, { sql: "INSERT INTO d1_migrations (name) VALUES (?)", params: [m.name] }]);
    applied.push(m.name);
  }
  return applied;
}

// Statements reach the databases through dispatchFetch, not Miniflare's getD1Database(): that
// proxy answers property reads with a synchronous fetch from a worker thread, whose assertion
// failed once in CI (SynchronousFetcher.fetch, "false == true") with two wrangler devs beside it.
const BATCH_WORKER = `export default {
  async fetch(request, env) {
    const { binding, statements } = await request.json();
    const db = env[binding];
    try {
      const results = await db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
      return Response.json(results.map((r) => r.results ?? []));
    } catch (e) {
      return Response.json({ error: String(e?.message ?? e) }, { status: 500 });
    }
  },
};`;

/**
 * Runs `work` with every local database of wrangler.toml under `persistTo`; `work` gets the
 * databases and `sqlOf(binding)`, a function that runs one batch of statements (strings or
 * { sql, params }) on that database and answers each statement's rows.
 */
export async function withLocalDatabases(persistTo, work) {
  const { Miniflare } = await import("miniflare");
  const dbs = await d1Databases();
  const mf = new Miniflare({
    modules: true,
    script: BATCH_WORKER,
    d1Persist: join(persistTo, "v3", "d1"),
    d1Databases: Object.fromEntries(dbs.map((d) => [d.binding, d.preview_database_id ?? d.database_id])),
  });
  const sqlOf = (binding) => async (statements) => {
    const body = JSON.stringify({
      binding,
      statements: statements.map((s) => (typeof s === "string" ? { sql: s, params: [] } : s)),
    });
    const res = await mf.dispatchFetch("http://migrate.local/", { method: "POST", body });
    const answer = await res.json();
    if (!res.ok) throw new Error(`${binding}: ${answer.error}`);
    return answer;
  };
  try {
    return await work(dbs, sqlOf);
  } finally {
    await mf.dispose();
  }
}

/** Migrates every local database under `persistTo`; answers how many migrations were applied. */
export async function migrateLocal(persistTo) {
  return withLocalDatabases(persistTo, async (dbs, sqlOf) => {
    let count = 0;
    for (const d of dbs) count += (await applyTo(sqlOf(d.binding), d.migrations_dir)).length;
    return count;
  });
}

/**
 * Whether the local state under `persistTo` holds the single database of before the shards
 * (its migrations were migrations/0000_init.sql and on), which the control migrations cannot
 * build on.
 */
export async function isSingleDatabaseState(persistTo) {
  if (!existsSync(join(persistTo, "v3", "d1"))) return false;
  return withLocalDatabases(persistTo, async (_dbs, sqlOf) => {
    const sql = sqlOf("DB");
    const [tracked] = await sql([
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'",
    ]);
    if (tracked.length === 0) return false;
    const [old] = await sql(["SELECT 1 AS found FROM d1_migrations WHERE name = '0000_init.sql'"]);
    return old.length > 0;
  });
}

async function main() {
  const { values } = parseArgs({
    options: { remote: { type: "boolean", default: false }, "persist-to": { type: "string" } },
  });
  if (values.remote) {
    for (const d of await d1Databases()) {
      console.log(`${d.binding}: wrangler d1 migrations apply --remote`);
      const r = wrangler(["d1", "migrations", "apply", d.binding, "--remote"], { stdio: "inherit" });
      if (r.status !== 0) process.exit(r.status ?? 1);
    }
    return;
  }
  const dir = values["persist-to"] ?? defaultPersistDir();
  const applied = await migrateLocal(dir);
  console.log(
    applied
      ? `applied ${applied} migration(s) to the local databases in ${dir}`
      : `the local databases in ${dir} are up to date`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
