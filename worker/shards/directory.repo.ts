/**
 * The property directory in the control database: which shard holds each property,
 * who may act on it (grants), and whether a move is under way. Read once per request.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { apiClients, propertyDirectory as d, propertyGrants as g, idRanges } from "../db/control.schema";
import { preparedOnce } from "../db/handles";
import type { ControlDb } from "../env";
import { nowIso } from "../lib/clock";

export type DirectoryRow = typeof d.$inferSelect;

/** A property's sign-in, as the directory keeps it (null fields clear it). */
export interface Credentials {
  username: string | null;
  usernameKey: string | null;
  passwordHash: string | null;
}

const entry = preparedOnce((control) =>
  control
    .select({
      entry: d,
      granted: sql<
        number | null
      >`(SELECT 1 FROM ${g} WHERE ${g.clientId} = ${sql.placeholder("client")} AND ${g.propertyId} = ${d.id})`,
    })
    .from(d)
    .where(and(eq(d.id, sql.placeholder("id")), isNull(d.deletedAt)))
    .limit(1)
    .prepare(),
);

/**
 * The live entry of `id`, with whether `clientId` is granted it. `only`: the one property the
 * caller's token reaches (a token from a restaurant's approval); null for every granted one.
 */
export async function findEntry(
  control: ControlDb,
  id: number,
  clientId: number,
  only: number | null = null,
) {
  const row = await entry(control).get({ id, client: clientId });
  return foundEntry(row?.entry, row?.granted != null, id, only);
}

/** What findEntry answers, from an entry and its grant read elsewhere (with the token: auth/clients.repo.ts). */
export function foundEntry(
  row: DirectoryRow | null | undefined,
  granted: boolean,
  id: number,
  only: number | null,
) {
  return row ? { entry: row, granted: granted && (only === null || only === id) } : undefined;
}

/** The live entry whose username has this key (the hosted sign-in). */
export async function findByUsername(control: ControlDb, key: string): Promise<DirectoryRow | undefined> {
  return (
    await control
      .select()
      .from(d)
      .where(and(eq(d.usernameKey, key), isNull(d.deletedAt)))
      .limit(1)
  )[0];
}

/** Fills a property's sign-in where the directory has none yet (rows from before it kept one). */
export async function fillCredentials(
  control: ControlDb,
  id: number,
  credentials: Credentials,
): Promise<boolean> {
  const rows = await control
    .update(d)
    .set(credentials)
    .where(and(eq(d.id, id), isNull(d.usernameKey)))
    .returning({ id: d.id });
  return rows.length > 0;
}

/** Changes a property's username and/or password hash; a taken username fails on the UNIQUE index. */
export async function setCredentials(
  control: ControlDb,
  id: number,
  set: Partial<Credentials>,
): Promise<void> {
  if (Object.keys(set).length) await control.update(d).set(set).where(eq(d.id, id));
}

/** The live entry of a public key (the widget's API, the hosted pages). */
export async function findByPublicKey(
  control: ControlDb,
  publicKey: string,
): Promise<DirectoryRow | undefined> {
  return (
    await control
      .select()
      .from(d)
      .where(and(eq(d.publicKey, publicKey), isNull(d.deletedAt)))
      .limit(1)
  )[0];
}

/** Any entry of `id`, live or deleted (the queue consumer, ops). */
export async function getEntry(control: ControlDb, id: number): Promise<DirectoryRow | undefined> {
  return (await control.select().from(d).where(eq(d.id, id)).limit(1))[0];
}

/** A page of the client's live granted properties, by id (`only`: as in findEntry). */
export async function listGranted(
  control: ControlDb,
  clientId: number,
  limit: number,
  afterId = 0,
  only: number | null = null,
): Promise<DirectoryRow[]> {
  return (
    await control
      .select({ entry: d })
      .from(g)
      .innerJoin(d, eq(d.id, g.propertyId))
      .where(
        and(
          eq(g.clientId, clientId),
          isNull(d.deletedAt),
          gt(d.id, afterId),
          only === null ? undefined : eq(d.id, only),
        ),
      )
      .orderBy(asc(d.id))
      .limit(limit)
  ).map((r) => r.entry);
}

/** The shards that hold any of the client's live granted properties, with those properties (`only`: as in findEntry). */
export async function grantedByShard(
  control: ControlDb,
  clientId: number,
  only: number | null = null,
): Promise<Map<number, number[]>> {
  const rows = await control
    .select({ id: d.id, shard: d.shard })
    .from(g)
    .innerJoin(d, eq(d.id, g.propertyId))
    .where(and(eq(g.clientId, clientId), isNull(d.deletedAt), only === null ? undefined : eq(d.id, only)));
  const byShard = new Map<number, number[]>();
  for (const r of rows) byShard.set(r.shard, [...(byShard.get(r.shard) ?? []), r.id]);
  return byShard;
}

/**
 * The statement that places a new property on the shard with the fewest live properties (the
 * lowest index on a tie), for one control batch; `owner` is a client id or a subquery for one.
 */
export function placeStatement(
  control: ControlDb,
  o: {
    publicKey: string;
    owner: number | ReturnType<typeof sql>;
    shards: number;
    createdAt: string;
    credentials?: Credentials | undefined;
  },
) {
  const indexes = sql.raw(Array.from({ length: o.shards }, (_, i) => `(${i})`).join(", "));
  const emptiest = sql`(SELECT v.column1 FROM (VALUES ${indexes}) v
    ORDER BY (SELECT count(*) FROM ${d} x WHERE x.shard = v.column1 AND x.deleted_at IS NULL), v.column1 LIMIT 1)`;
  return control
    .insert(d)
    .values({
      publicKey: o.publicKey,
      ownerClientId: o.owner,
      shard: emptiest,
      createdAt: o.createdAt,
      ...o.credentials,
    })
    .returning();
}

/** The grant of the property just placed in the same batch to its creator. */
export function grantJustPlaced(control: ControlDb, owner: number | ReturnType<typeof sql>) {
  return control.insert(g).values({
    clientId: owner,
    propertyId: sql`(SELECT seq FROM sqlite_sequence WHERE name = 'property_directory')`,
  });
}

/** The clients granted a property, oldest grant first (the restaurant's connected-apps page). */
export async function grantsOf(control: ControlDb, propertyId: number) {
  return control
    .select({
      id: apiClients.id,
      clientId: apiClients.clientId,
      name: apiClients.name,
      redirectUri: apiClients.redirectUri,
      grantedAt: g.createdAt,
    })
    .from(g)
    .innerJoin(apiClients, eq(apiClients.id, g.clientId))
    .where(eq(g.propertyId, propertyId))
    .orderBy(asc(g.createdAt), asc(apiClients.id));
}

/** Undoes a placement whose shard row could not be written. */
export async function unplace(control: ControlDb, id: number): Promise<void> {
  await control.batch([control.delete(g).where(eq(g.propertyId, id)), control.delete(d).where(eq(d.id, id))]);
}

export async function markDeleted(control: ControlDb, id: number): Promise<void> {
  await control.update(d).set({ deletedAt: nowIso() }).where(eq(d.id, id));
}

/** The shard of each of these properties (ops, the queue consumer). */
export async function shardsOf(control: ControlDb, ids: number[]): Promise<Map<number, DirectoryRow>> {
  if (!ids.length) return new Map();
  const rows = await control.select().from(d).where(inArray(d.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Live properties per shard. */
export async function countByShard(control: ControlDb): Promise<Map<number, number>> {
  const rows = await control
    .select({ shard: d.shard, n: sql<number>`count(*)` })
    .from(d)
    .where(isNull(d.deletedAt))
    .groupBy(d.shard);
  return new Map(rows.map((r) => [r.shard, r.n]));
}

/** Marks a move as started (writes answer 503) or clears it, optionally switching the shard. */
export async function setMoving(
  control: ControlDb,
  id: number,
  moving: boolean,
  shard?: number,
): Promise<void> {
  await control
    .update(d)
    .set({ movingSince: moving ? nowIso() : null, ...(shard !== undefined && { shard }) })
    .where(eq(d.id, id));
}

/** A fresh id range for `shard`, above every one handed out so far (the first at `first`); answers its start. */
export async function allocateIdRange(
  control: ControlDb,
  shard: number,
  first: number,
  stride: number,
): Promise<number> {
  const next = sql`(SELECT coalesce(max(${idRanges.base}) + ${stride}, ${first}) FROM ${idRanges})`;
  const rows = await control
    .insert(idRanges)
    .values({ base: next, shard, createdAt: nowIso() })
    .returning({ base: idRanges.base });
  return rows[0]!.base;
}
