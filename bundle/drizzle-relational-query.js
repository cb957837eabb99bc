// What drizzle-orm's SQLite database imports as "./query-builders/query.js" in the Worker's bundle
// (wrangler.toml [alias]): the builders of its relational queries (`db.query`). A database made
// without a schema, as the Worker's handles are (worker/db/handles.ts), never makes one, so each
// class here says so instead of building.
class LeftOut {
  constructor() {
    throw new Error("drizzle's relational queries are left out of the Worker's bundle");
  }
}
export class RelationalQueryBuilder extends LeftOut {}
export class SQLiteRelationalQuery extends LeftOut {}
export class SQLiteSyncRelationalQuery extends SQLiteRelationalQuery {}
