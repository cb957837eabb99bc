// npm run db:guards -- <name>: a new shard migration (drizzle-kit's custom one, so its journal
// knows it) with the guards of every table of PROPERTY_TABLES the shard's schema lacks them for,
// then the schema files written anew. Add a new table a property owns to PROPERTY_TABLES
// (scripts/db/triggers.mjs) first.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../paths.mjs";
import { currentSchemas, refreshSchemas } from "./schema.mjs";
import { allGuards, migrationSql } from "./triggers.mjs";

/** A new custom shard migration (drizzle-kit writes its journal entry) holding `sql`; answers its path. */
function newShardMigration(name, sql) {
  const r = spawnSync("npx", ["drizzle-kit", "generate", "--custom", "--name", name], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, DB_KIND: "shard" },
  });
  if (r.status !== 0) throw new Error(`drizzle-kit generate --custom failed:\n${r.stdout}${r.stderr}`);
  const journal = JSON.parse(readFileSync(join(ROOT, "migrations/shard/meta/_journal.json"), "utf8"));
  const file = join("migrations/shard", `${journal.entries.at(-1).tag}.sql`);
  writeFileSync(join(ROOT, file), sql);
  return file;
}

/** npm run db:guards -- <name>: the guards the shard's schema lacks, in a migration of their own. */
async function writeMissingGuards(name) {
  const shard = (await currentSchemas()).find((s) => s.dir === "migrations/shard");
  const missing = allGuards().filter((t) => !shard.text.includes(`CREATE TRIGGER \`${t.name}\``));
  if (!missing.length)
    return console.log("every table of PROPERTY_TABLES has its guards: no migration written");
  const tables = [...new Set(missing.map((t) => t.name.replace(/_moving_\w+$/, "")))];
  const head = `-- Written by \`npm run db:guards\` (scripts/db/triggers.mjs): while a property moves between\n-- shards, its rows of ${tables.join(", ")} take no write but the move's own.\n`;
  const file = newShardMigration(name, head + migrationSql(missing));
  await refreshSchemas();
  console.log(`wrote ${file} (${missing.length} triggers) and refreshed the schema files`);
}

const name = process.argv[2] ?? "";
if (!/^\w+$/.test(name)) throw new Error("usage: npm run db:guards -- <migration_name>");
await writeMissingGuards(name);
