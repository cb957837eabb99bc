// What drizzle-orm's sql.js imports as "../pg-core/columns/enum.js" in the Worker's bundle
// (wrangler.toml [alias]): only isPgEnum(), the same test as drizzle's own, without the Postgres
// column classes that module brings (the Worker's tables are SQLite's, no value is ever a Postgres enum).
const isPgEnumSym = Symbol.for("drizzle:isPgEnum");
export function isPgEnum(obj) {
  return !!obj && typeof obj === "function" && isPgEnumSym in obj && obj[isPgEnumSym] === true;
}
