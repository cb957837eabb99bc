/**
 * The pool of shards: D1 databases bound as SHARD_0 .. SHARD_<n-1>, each holding
 * every row of the properties the directory places on it. Ids are unique across shards because
 * each shard hands them out from a range of its own (shard k first: k * ID_STRIDE + 1 onwards),
 * and a move copies rows with their ids, so they survive it. SQLite hands out the next id above
 * both a table's sequence and its highest id, so rows copied in from a higher range would drag
 * the shard's counters into another shard's range: before a move copies such rows, the target
 * moves on to a fresh range, above every id any shard holds (handed out by the control database).
 */
import { controlDb, shardHandle } from "../db/handles";
import type { Bindings, Db } from "../env";
import { allocateIdRange } from "./directory.repo";
import { type IdRangeState, readIdRange, rebaseIdRange, SEQUENCED_TABLES, seedIdRange } from "./shards.repo";

/** A trillion ids per range and table: a thousand ranges below 10^15, the API's ids having at most 15 digits. */
export const ID_STRIDE = 1_000_000_000_000;
const ID_LIMIT = 1_000_000_000_000_000;
/** The first ranges are the shards' own (shard k: k * ID_STRIDE); the 750 fresh ones moves may need come after. */
export const MAX_SHARDS = 250;

/** How many shards are bound: SHARD_0 upwards, without a gap. */
export function shardCount(env: Bindings): number {
  let n = 0;
  while (env[`SHARD_${n}`]) n++;
  return n;
}

export function shardD1(env: Bindings, index: number): D1Database {
  const d1 = env[`SHARD_${index}`];
  if (!d1)
    throw new Error(`no binding SHARD_${index}: the directory names a shard this Worker does not have`);
  return d1;
}

export const shardDb = (d1: D1Database | D1DatabaseSession): Db => shardHandle(d1);

// Per isolate: a shard's range is checked once, before the first write this isolate makes.
const ready = new Map<number, Promise<unknown>>();

/** Seeds shard `index`'s id range if it has none yet, and repairs it if needed (checkIdRange; once per isolate). */
export function ensureIdRange(env: Bindings, index: number): Promise<unknown> {
  let p = ready.get(index);
  if (!p) {
    p = checkIdRange(env, index);
    p.catch(() => ready.delete(index));
    ready.set(index, p);
  }
  return p;
}

/**
 * Shard `index`'s id range, seeded if it had none; moved to a fresh range if its counters have
 * left it (rows copied in by a move before ranges moved on kept lifting them into another shard's).
 */
export async function checkIdRange(env: Bindings, index: number): Promise<IdRangeState> {
  if (index >= MAX_SHARDS)
    throw new Error(`shard ${index}: at most ${MAX_SHARDS} shards have ranges of their own`);
  const d1 = shardD1(env, index);
  // one read when all is well (the cron asks every minute); the seeding's writes only when it is not
  const read = await readIdRange(d1);
  const seeded = read && SEQUENCED_TABLES.every((t) => (read.seqs[t] ?? -1) >= read.base);
  const state = seeded ? read : await seedIdRange(d1, index * ID_STRIDE);
  return state.high < state.base + ID_STRIDE ? state : freshRange(env, index, state, state.high);
}

/**
 * Before a move copies rows into shard `index` whose highest ids per table are `incoming`: a
 * fresh range when any of them would reach the table's counter, which would then follow it.
 */
export async function makeRoomForIds(
  env: Bindings,
  index: number,
  incoming: Record<string, number>,
): Promise<IdRangeState> {
  const state = await checkIdRange(env, index);
  const top = Math.max(...Object.values(incoming));
  const reached = Object.entries(incoming).some(([table, id]) => id > (state.seqs[table] ?? state.base));
  return reached ? freshRange(env, index, state, top) : state;
}

/** Moves shard `index` on to a range handed out now, above `above` (and every other range). */
async function freshRange(
  env: Bindings,
  index: number,
  state: IdRangeState,
  above: number,
): Promise<IdRangeState> {
  const base = await allocateIdRange(controlDb(env.DB), index, MAX_SHARDS * ID_STRIDE, ID_STRIDE);
  if (base <= above || base + ID_STRIDE > ID_LIMIT)
    throw new Error(`shard ${index}: no id range is left above ${above} (the next would start at ${base})`);
  console.warn(
    JSON.stringify({
      level: "warn",
      where: "id range",
      message: `shard ${index} hands out ids from ${base + 1} on (it held ids up to ${above})`,
    }),
  );
  return rebaseIdRange(shardD1(env, index), state.base, base);
}

/**
 * A session on shard `index`: writes go to the primary; reads may go to a read replica, no
 * older than `bookmark` (the X-D1-Bookmark a caller got from its last write) when one is given.
 */
export function openShard(
  env: Bindings,
  index: number,
  o: { write: boolean; bookmark?: string | undefined },
): D1DatabaseSession {
  const d1 = shardD1(env, index);
  if (o.write) return d1.withSession("first-primary");
  try {
    return d1.withSession(o.bookmark ?? "first-unconstrained");
  } catch {
    // A bookmark of another database (the property moved since) or garbage: start afresh.
    return d1.withSession("first-unconstrained");
  }
}
