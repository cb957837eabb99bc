/**
 * A property's creation and deletion span two databases: the directory (control) first, then
 * the property's own row in its shard. D1 has no transaction across databases, so a failed
 * second step undoes the first; a directory entry whose shard row never came is "not found".
 * Its sign-in (username, password hash) is written to both, the directory first: its unique
 * index decides whether a username is free.
 */
import type { Bindings, ControlDb, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { randomToken } from "../lib/crypto";
import { nowIso } from "../lib/time";
import { normaliseUsername, usernameKey, usernameProblem } from "../lib/username";
import {
  type DirectoryRow,
  fillCredentials,
  grantJustPlaced,
  listGranted,
  markDeleted,
  placeStatement,
  setCredentials,
  unplace,
} from "../shards/directory.repo";
import { ensureIdRange, openShard, shardCount, shardD1, shardDb } from "../shards/shards";
import { asUsernameTaken, credentialChanges, newCredentials } from "./credentials";
import {
  getPropertyRows,
  insertPropertyRow,
  type PropertyInput,
  softDeleteProperty,
  usernamesPage,
} from "./properties.repo";

export interface Placement {
  sandbox: boolean;
  sandboxDays: number;
}

/** Writes the row of a property the directory has just placed; undoes the placement on failure. */
export async function writePlaced(
  env: Bindings,
  control: ControlDb,
  entry: DirectoryRow,
  input: PropertyInput,
  o: Placement,
): Promise<PropertyRow> {
  try {
    await ensureIdRange(env, entry.shard);
    return await insertPropertyRow(
      shardDb(shardD1(env, entry.shard)),
      { ...entry, createdAt: entry.createdAt },
      input,
      o,
    );
  } catch (err) {
    await unplace(control, entry.id);
    throw err;
  }
}

/**
 * A new property of `clientId`, granted to it, placed on the emptiest shard. Its username is
 * claimed in the directory's unique index first: taken -> 409 "username taken".
 */
export async function createProperty(
  env: Bindings,
  control: ControlDb,
  clientId: number,
  input: PropertyInput,
  o: Placement,
): Promise<PropertyRow> {
  const createdAt = nowIso();
  const credentials = await newCredentials(input);
  const place = placeStatement(control, {
    publicKey: randomToken("pk_", 16),
    owner: clientId,
    shards: shardCount(env),
    createdAt,
    credentials,
  });
  const [placed] = await control.batch([place, grantJustPlaced(control, clientId)]).catch((err) => {
    throw asUsernameTaken(err, input.username);
  });
  return writePlaced(
    env,
    control,
    placed[0]!,
    { ...input, passwordHash: credentials.passwordHash ?? undefined },
    o,
  );
}

/**
 * A property's new username and/or password, in the directory first (whose unique index says
 * whether the username is free): only the client that created the property changes them.
 * Answers the hashed changes for the shard's copy.
 */
export async function changeCredentials(
  control: ControlDb,
  clientId: number,
  property: PropertyRow,
  input: { username?: string | null | undefined; password?: string | undefined },
) {
  if (input.username === undefined && input.password === undefined) return {};
  requireOwner(property, clientId, "changes its username or password");
  const changes = await credentialChanges(input);
  await setCredentials(control, property.id, changes).catch((err) => {
    throw asUsernameTaken(err, input.username);
  });
  return changes;
}

/**
 * What only the client that created the property may do (403 for the other apps it granted): acts
 * the restaurant cannot undo or that change who may act for it. See docs/decisions.md.
 */
export function requireOwner(property: PropertyRow, clientId: number, act: string): void {
  if (property.ownerClientId !== clientId)
    throw new ApiError("property_forbidden", `only the client that created this property ${act}`);
}

/** Marks the property deleted in its shard, then in the directory (which makes it unknown): its creator only. */
export async function deleteProperty(
  db: Parameters<typeof softDeleteProperty>[0],
  control: ControlDb,
  clientId: number,
  property: PropertyRow,
): Promise<void> {
  requireOwner(property, clientId, "deletes it");
  await softDeleteProperty(db, property.id);
  await markDeleted(control, property.id);
}

/**
 * A page of the client's properties: ids from the directory, rows from each shard that holds
 * some (one read per shard, side by side), in id order. `more`: another page follows.
 */
export async function propertiesPage(
  env: Bindings,
  control: ControlDb,
  clientId: number,
  limit: number,
  afterId = 0,
  only: number | null = null,
) {
  const entries = await listGranted(control, clientId, limit + 1, afterId, only);
  const shown = entries.slice(0, limit);
  const byShard = new Map<number, number[]>();
  for (const e of shown) byShard.set(e.shard, [...(byShard.get(e.shard) ?? []), e.id]);
  const rows = (
    await Promise.all(
      [...byShard].map(([shard, ids]) =>
        getPropertyRows(shardDb(openShard(env, shard, { write: false })), ids),
      ),
    )
  ).flat();
  return { rows: rows.sort((a, b) => a.id - b.id), more: entries.length > limit, lastId: shown.at(-1)?.id };
}

/**
 * Copies each property's username and password hash from its shard to the directory where the
 * directory has none (properties made before the directory kept the sign-in). A username that is
 * not acceptable any more, or taken by another in its normalised form, is left out and reported.
 */
export async function syncUsernames(env: Bindings, control: ControlDb) {
  let copied = 0;
  const skipped: { id: number; username: string; why: string }[] = [];
  for (let shard = 0; shard < shardCount(env); shard++) {
    const db = shardDb(shardD1(env, shard));
    for (
      let after = 0, page = await usernamesPage(db, 0, 500);
      page.length;
      page = await usernamesPage(db, after, 500)
    ) {
      after = page.at(-1)!.id;
      for (const row of page) {
        const username = normaliseUsername(row.username!);
        const problem = usernameProblem(username);
        if (problem) {
          skipped.push({ id: row.id, username, why: problem });
          continue;
        }
        const filled = await fillCredentials(control, row.id, {
          username,
          usernameKey: usernameKey(username),
          passwordHash: row.passwordHash,
        }).catch((err: unknown) => {
          if (asUsernameTaken(err, username) instanceof ApiError)
            skipped.push({ id: row.id, username, why: "taken by another property or client" });
          else throw err;
          return false;
        });
        if (filled) copied++;
      }
    }
  }
  return { copied, skipped };
}
