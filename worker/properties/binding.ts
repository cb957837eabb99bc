/**
 * Resolving a request's property, once: the directory (control database) says which shard holds
 * it; the request then talks to that shard only, through a D1 session (a write on the primary, a
 * read possibly on a replica no older than the caller's X-D1-Bookmark), and answers the session's
 * bookmark so the caller's next read sees its own write.
 */

import type { BatchItem } from "drizzle-orm/batch";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { type DirectoryRow, findByPublicKey } from "../shards/directory.repo";
import { ensureIdRange, openShard, shardDb } from "../shards/shards";
import { getPropertyRow, getPropertyRowWith } from "./properties.repo";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
/** D1 bookmarks are short strings of hex groups and dashes; anything else is ignored. */
const BOOKMARK = /^[0-9a-zA-Z-]{1,200}$/;
/** How long a writer should wait before retrying while its property moves between shards. */
export const MOVING_RETRY_AFTER = "5";

export function movingError(): ApiError {
  return new ApiError("service_unavailable", "this restaurant's data is being moved; retry shortly", {
    headers: { "Retry-After": MOVING_RETRY_AFTER },
  });
}

const sessions = new WeakMap<Context<AppEnv>, D1DatabaseSession>();

/**
 * What a route reads in the same round trip as the property row: `statements` on the shard,
 * whose results go to `keep` (the slot listing's days: one shard read per request).
 */
export interface Preload {
  statements: (db: Db, propertyId: number) => BatchItem<"sqlite">[];
  keep: (results: unknown[]) => void;
}

/**
 * Opens the property's shard for this request and loads its row; undefined when the shard has none.
 * By default the method decides: a write goes to the primary (and is refused while the property
 * moves), a read may go to a replica. `write: false` reads whatever the method; `primary` reads
 * on the primary (the search engine's POSTed lookups, which must see a switch turned off at once).
 */
export async function bindProperty(
  c: Context<AppEnv>,
  entry: DirectoryRow,
  o: { write?: boolean; primary?: boolean; preload?: Preload | undefined } = {},
): Promise<PropertyRow | undefined> {
  const { preload } = o;
  const db = await bindShard(c, entry, o);
  const [row, results] = preload
    ? await getPropertyRowWith(db, entry.id, preload.statements(db, entry.id))
    : [await getPropertyRow(db, entry.id), []];
  preload?.keep(results);
  if (row) c.set("property", row);
  return row;
}

/** Opens the property's shard for this request (as bindProperty), without reading the property's row. */
export async function bindShard(
  c: Context<AppEnv>,
  entry: DirectoryRow,
  o: { write?: boolean; primary?: boolean } = {},
): Promise<Db> {
  const write = o.write ?? !READS.has(c.req.method);
  if (write && entry.movingSince) throw movingError();
  if (write) await ensureIdRange(c.env, entry.shard);
  const asked = c.req.header("X-D1-Bookmark");
  const session = openShard(c.env, entry.shard, {
    write: write || o.primary === true,
    bookmark: asked && BOOKMARK.test(asked) ? asked : undefined,
  });
  sessions.set(c, session);
  c.set("shard", entry.shard);
  c.set("d1", session);
  c.set("db", shardDb(session));
  return c.get("db");
}

/** The property behind a public key, bound; undefined when the key is unknown or deleted. */
export async function bindByPublicKey(
  c: Context<AppEnv>,
  publicKey: string,
): Promise<PropertyRow | undefined> {
  const entry = await findByPublicKey(c.get("control"), publicKey);
  return entry && bindProperty(c, entry);
}

/** Answers X-D1-Bookmark once a shard session served the request. */
export function shardBookmark(): MiddlewareHandler<AppEnv> {
  return async function shardBookmarkMiddleware(c, next) {
    await next();
    // a booking answers the bookmark of the desk's commit, which is later than anything this session read
    if (c.res.headers.has("X-D1-Bookmark")) return;
    const bookmark = sessions.get(c)?.getBookmark();
    if (bookmark) c.header("X-D1-Bookmark", bookmark);
  };
}
