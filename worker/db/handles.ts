/**
 * Drizzle handles without drizzle's relational schema: nothing here uses its query API, and
 * building that schema's config on every handle cost about a millisecond a request.
 */
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

/** A property's shard, through drizzle (the request's D1 session); its query builder only. */
export type Db = DrizzleD1Database;
/** The control database: clients, tokens, grants, the property directory, idempotency keys (`$client`: the raw D1 binding). */
export type ControlDb = DrizzleD1Database & { $client: D1Database };

/** A handle on the control database. */
export const controlDb = (d1: D1Database): ControlDb => drizzle(d1);

/** A handle on a shard (its binding, or a session on it). */
export const shardHandle = (d1: D1Database | D1DatabaseSession): Db => drizzle(d1 as D1Database);

/**
 * A query of `build`, its SQL made once per database binding (and isolate), run with
 * placeholders. Building a query's SQL costs drizzle more than D1 takes to answer a small one,
 * and the queries every request sends (its token, its directory entry) are always the same.
 */
export function preparedOnce<Q>(build: (db: ControlDb) => Q): (db: ControlDb) => Q {
  const made = new WeakMap<D1Database, Q>();
  return (db) => {
    let q = made.get(db.$client);
    if (!q) {
      q = build(db);
      made.set(db.$client, q);
    }
    return q;
  };
}
