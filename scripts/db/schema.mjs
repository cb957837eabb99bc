// The whole schema in one place: every migration applied to empty local databases (as
// `npm run db:migrate` applies them), then sqlite_schema written out, one file per kind of
// database: migrations/control.schema.sql and migrations/shard.schema.sql (beside the migration
// folders, not in them: wrangler takes every .sql file of a folder for a migration).
//   npm run db:schema                      writes both files
//   node scripts/db/schema.mjs --check     exits 1 when a file is not what the migrations make, or
//                                          the shard's guards not what scripts/db/triggers.mjs writes
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { applyTo, withLocalDatabases } from "../migrate.mjs";
import { ROOT } from "../paths.mjs";
import { guardProblems } from "./triggers.mjs";

/** What the schema holds that is not ours: SQLite's own tables, the runtime's, wrangler's record of migrations. */
const NOT_OURS =
  "name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name <> 'd1_migrations'";

const header = (dir) =>
  [
    `-- The schema every migration of ${dir} leaves, as SQLite keeps it: each table, then its indexes`,
    "-- and its triggers. Written by `npm run db:schema`; do not edit (npm test fails when it is not",
    "-- what the migrations make).",
  ].join("\n");

/** sqlite_schema's rows as one file: tables by name, each followed by its indexes and triggers. */
export function schemaText(dir, rows) {
  const ours = rows.filter((r) => r.sql);
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const tables = ours.filter((r) => r.type === "table" || r.type === "view").sort(byName);
  const of = (table, type) => ours.filter((r) => r.tbl_name === table.name && r.type === type).sort(byName);
  const statements = tables.flatMap((t) => [t, ...of(t, "index"), ...of(t, "trigger")]);
  return `${header(dir)}\n\n${statements.map((r) => `${r.sql};`).join("\n\n")}\n`;
}

/** The schema file of each migrations folder of wrangler.toml: [{ file, text }], from empty databases. */
export async function currentSchemas() {
  const persistTo = mkdtempSync(join(tmpdir(), "schema-"));
  try {
    return await withLocalDatabases(persistTo, async (dbs, sqlOf) => {
      const out = [];
      for (const d of dbs) {
        if (out.some((s) => s.dir === d.migrations_dir)) continue;
        const sql = sqlOf(d.binding);
        await applyTo(sql, d.migrations_dir);
        const [rows] = await sql([`SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE ${NOT_OURS}`]);
        out.push({
          dir: d.migrations_dir,
          file: `${d.migrations_dir}.schema.sql`,
          text: schemaText(d.migrations_dir, rows),
        });
      }
      return out;
    });
  } finally {
    rmSync(persistTo, { recursive: true, force: true });
  }
}

/** Writes every schema file anew; answers those that changed. */
export async function refreshSchemas() {
  const changed = [];
  for (const s of await currentSchemas()) {
    const path = join(ROOT, s.file);
    if (!existsSync(path) || readFileSync(path, "utf8") !== s.text) changed.push(s.file);
    writeFileSync(path, s.text);
  }
  return changed;
}

/**
 * npm test's check: every schema file is what the migrations make, and the shard's guards are
 * what scripts/db/triggers.mjs writes, for every table a property owns. Answers the problems.
 */
export async function schemaProblems() {
  const schemas = await currentSchemas();
  const problems = [];
  for (const s of schemas) {
    const path = join(ROOT, s.file);
    if (!existsSync(path) || readFileSync(path, "utf8") !== s.text)
      problems.push(`${s.file}: not what the migrations make; run npm run db:schema`);
  }
  const shard = schemas.find((s) => s.dir === "migrations/shard");
  return [...problems, ...guardProblems(shard.text)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--check")) {
    const problems = await schemaProblems();
    for (const p of problems) console.error(`  ${p}`);
    console.log(`schema files and guards: ${problems.length ? "FAILED" : "OK"}`);
    process.exit(problems.length ? 1 : 0);
  }
  const changed = await refreshSchemas();
  console.log(changed.length ? `wrote ${changed.join(", ")}` : "the schema files were up to date");
}
