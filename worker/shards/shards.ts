/**
 * The pool of shards: D1 databases bound as SHARD_0 .. SHARD_<n-1>, each holding
 * every row of the properties the directory places on it. Ids are unique across shards because
 * each shard hands them out from a range of its own (shard k: k * ID_STRIDE + 1 onwards), and a
 * move copies rows with their ids, so they survive it.
 */
import { shardHandle } from "../db/handles";
import type { Bindings, Db } from "../env";
import { seedIdRange } from "./shards.repo";

/** A trillion ids per shard and table: 9,000 shards fit below 2^53 (JSON's exact integers). */
export const ID_STRIDE = 1_000_000_000_000;

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

// Per isolate: a shard's sequences are seeded once, before the first write this isolate makes.
const ready = new Map<number, Promise<void>>();

/** Seeds shard `index`'s id range if it has none yet (idempotent; once per isolate). */
export function ensureIdRange(env: Bindings, index: number): Promise<void> {
  let p = ready.get(index);
  if (!p) {
    p = index === 0 ? Promise.resolve() : seedIdRange(shardD1(env, index), index * ID_STRIDE);
    p.catch(() => ready.delete(index));
    ready.set(index, p);
  }
  return p;
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
