/**
 * Rooms, tables (with group members), services and closures of one property.
 * Deletion is soft: past reservations keep pointing at what they used.
 */

import { and, asc, eq, gt, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem as AnyBatchItem } from "drizzle-orm/batch";
import type { TableLayout } from "../../shared/floor";
import {
  catalogChanges,
  closures,
  diningTables,
  rooms,
  services,
  tableGroupMembers,
} from "../db/shard.schema";
import type { Db } from "../env";
import { abortReason } from "../errors";
import { zonedParts } from "../lib/localtime";
import { now, nowIso } from "../lib/time";

export type RoomRow = typeof rooms.$inferSelect;
export type TableRow = typeof diningTables.$inferSelect;
export type ServiceRow = typeof services.$inferSelect;
export type ClosureRow = typeof closures.$inferSelect;
export type TableWithMembers = TableRow & { memberIds: number[] };

const FINAL_STATUSES = sql`('CANCELLED', 'EXPIRED', 'REJECTED')`;

// D1 binds at most 100 parameters per statement: id lists are read in chunks below that.
const CHUNK = 90;
export async function inChunks<T>(ids: number[], read: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

// ---------- rooms ----------

export async function listRooms(db: Db, propertyId: number, limit: number, afterId = 0) {
  return db
    .select()
    .from(rooms)
    .where(and(eq(rooms.propertyId, propertyId), isNull(rooms.deletedAt), gt(rooms.id, afterId)))
    .orderBy(asc(rooms.id))
    .limit(limit + 1);
}

export async function getRoom(db: Db, propertyId: number, id: number) {
  const rows = await db
    .select()
    .from(rooms)
    .where(and(eq(rooms.id, id), eq(rooms.propertyId, propertyId), isNull(rooms.deletedAt)))
    .limit(1);
  return rows[0];
}

export async function insertRoom(
  db: Db,
  propertyId: number,
  input: { name: string; bookable?: boolean | undefined },
) {
  const rows = await db
    .insert(rooms)
    .values({ propertyId, name: input.name, bookable: input.bookable ?? true })
    .returning();
  return rows[0]!;
}

/** Undefined when the room was deleted meanwhile. */
export async function updateRoom(
  db: Db,
  id: number,
  input: { name?: string | undefined; bookable?: boolean | undefined },
) {
  const rows = await db
    .update(rooms)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.bookable !== undefined && { bookable: input.bookable }),
    })
    .where(and(eq(rooms.id, id), isNull(rooms.deletedAt)))
    .returning();
  return rows[0];
}

/** Soft-deletes a room with its tables, their group memberships and their mentions in closures, in one batch. */
export async function deleteRoom(
  db: Db,
  propertyId: number,
  id: number,
  timeZone: string,
): Promise<Deletion> {
  const at = nowIso();
  const tableIds = sql`SELECT id FROM dining_tables WHERE room_id = ${id}`;
  return guardedDelete(db, propertyId, timeZone, { roomId: id }, [
    db
      .delete(tableGroupMembers)
      .where(
        inArray(
          tableGroupMembers.groupId,
          db.select({ id: diningTables.id }).from(diningTables).where(eq(diningTables.roomId, id)),
        ),
      ),
    ...pruneClosures(db, propertyId, "tableIds", tableIds),
    ...pruneClosures(db, propertyId, "roomIds", sql`SELECT ${id}`),
    db
      .update(diningTables)
      .set({ deletedAt: at })
      .where(and(eq(diningTables.roomId, id), isNull(diningTables.deletedAt))),
    db.update(rooms).set({ deletedAt: at }).where(eq(rooms.id, id)),
  ]);
}

/**
 * Removes deleted ids from closures' lists. A closure whose list empties is deleted: it
 * closed only what is gone, and an empty list must never widen into "everything" (null).
 */
function pruneClosures(db: Db, propertyId: number, field: "roomIds" | "tableIds" | "serviceIds", gone: SQL) {
  const col = closures[field];
  return [
    db
      .update(closures)
      .set({
        [field]: sql`(SELECT json_group_array(value) FROM json_each(${col}) WHERE value NOT IN (${gone}))`,
      })
      .where(
        and(
          eq(closures.propertyId, propertyId),
          sql`${col} IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(${col}) WHERE value IN (${gone}))`,
        ),
      ),
    db.delete(closures).where(and(eq(closures.propertyId, propertyId), sql`${col} = '[]'`)),
  ] as const;
}

// ---------- tables ----------

async function withMembers(db: Db, tables: TableRow[]): Promise<TableWithMembers[]> {
  const groupIds = tables.filter((t) => t.isGroup).map((t) => t.id);
  const members = await inChunks(groupIds, (chunk) =>
    db
      .select()
      .from(tableGroupMembers)
      .where(inArray(tableGroupMembers.groupId, chunk))
      .orderBy(asc(tableGroupMembers.memberId)),
  );
  return tables.map((t) => ({
    ...t,
    memberIds: members.filter((m) => m.groupId === t.id).map((m) => m.memberId),
  }));
}

export async function listTables(db: Db, propertyId: number, limit: number, afterId = 0) {
  const rows = await db
    .select()
    .from(diningTables)
    .where(
      and(
        eq(diningTables.propertyId, propertyId),
        isNull(diningTables.deletedAt),
        gt(diningTables.id, afterId),
      ),
    )
    .orderBy(asc(diningTables.id))
    .limit(limit + 1);
  return withMembers(db, rows);
}

/** The live tables of these rooms, by id. */
export async function tablesOfRooms(db: Db, propertyId: number, roomIds: number[]) {
  const rows = await inChunks(roomIds, (chunk) =>
    db
      .select()
      .from(diningTables)
      .where(
        and(
          eq(diningTables.propertyId, propertyId),
          isNull(diningTables.deletedAt),
          inArray(diningTables.roomId, chunk),
        ),
      ),
  );
  return withMembers(
    db,
    rows.sort((a, b) => a.id - b.id),
  );
}

export async function getTable(db: Db, propertyId: number, id: number) {
  const rows = await db
    .select()
    .from(diningTables)
    .where(
      and(eq(diningTables.id, id), eq(diningTables.propertyId, propertyId), isNull(diningTables.deletedAt)),
    )
    .limit(1);
  return rows[0] ? (await withMembers(db, rows))[0] : undefined;
}

export function getTablesByIds(db: Db, propertyId: number, ids: number[]) {
  return inChunks(ids, (chunk) =>
    db
      .select()
      .from(diningTables)
      .where(
        and(
          inArray(diningTables.id, chunk),
          eq(diningTables.propertyId, propertyId),
          isNull(diningTables.deletedAt),
        ),
      ),
  );
}

export function getRoomsByIds(db: Db, propertyId: number, ids: number[]) {
  return inChunks(ids, (chunk) =>
    db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(inArray(rooms.id, chunk), eq(rooms.propertyId, propertyId), isNull(rooms.deletedAt))),
  );
}

export function getServicesByIds(db: Db, propertyId: number, ids: number[]) {
  return inChunks(ids, (chunk) =>
    db
      .select({ id: services.id })
      .from(services)
      .where(
        and(inArray(services.id, chunk), eq(services.propertyId, propertyId), isNull(services.deletedAt)),
      ),
  );
}

export interface TableFields {
  name: string;
  roomId: number;
  guestsMin: number;
  guestsMax: number;
  /** a group's guests_max follows its members (migrations/shard/0003) */
  guestsMaxAuto: boolean;
  bookable: boolean;
  online: boolean;
  isGroup: boolean;
  /** where it stands on the floor plan; null: not placed */
  layout: TableLayout | null;
}

export async function insertTable(db: Db, propertyId: number, fields: TableFields, memberIds: number[]) {
  const insert = db
    .insert(diningTables)
    .values({ propertyId, ...fields })
    .returning();
  if (!memberIds.length) return (await insert)[0]!;
  // Not last_insert_rowid(): each member row inserted changes it. The table's sequence holds
  // the id AUTOINCREMENT just gave the group (the batch runs alone), whatever rows a move
  // brought here from another shard's range.
  const groupId = sql`(SELECT seq FROM sqlite_sequence WHERE name = 'dining_tables')`;
  const [rows] = await db.batch([
    insert,
    ...memberIds.map((memberId) => db.insert(tableGroupMembers).values({ groupId, memberId })),
  ]);
  return rows[0]!;
}

/**
 * Updates a table; undefined when it was deleted meanwhile. A change of a group's members
 * or of a table's room runs behind the guard: refused (`usedBy`) while upcoming
 * reservations hold the table, since their holds name the old members.
 */
export async function updateTable(
  db: Db,
  id: number,
  fields: Partial<TableFields>,
  memberIds: number[] | undefined,
  guard: { propertyId: number; timeZone: string } | undefined,
): Promise<{ table: TableRow | undefined } | { usedBy: number | undefined }> {
  const update = db
    .update(diningTables)
    .set(fields)
    .where(and(eq(diningTables.id, id), isNull(diningTables.deletedAt)))
    .returning();
  const members =
    memberIds === undefined
      ? []
      : [
          db.delete(tableGroupMembers).where(eq(tableGroupMembers.groupId, id)),
          ...memberIds.map((memberId) => db.insert(tableGroupMembers).values({ groupId: id, memberId })),
        ];
  if (!guard) {
    if (!members.length) return { table: (await update)[0] };
    const [rows] = await db.batch([update, ...members]);
    return { table: rows[0] };
  }
  const result = await guarded(db, guard.propertyId, guard.timeZone, { tableId: id }, "regroup", [
    update,
    ...members,
  ]);
  return "usedBy" in result ? result : { table: (result.results[0] as TableRow[])[0] };
}

export async function deleteTable(
  db: Db,
  propertyId: number,
  id: number,
  timeZone: string,
): Promise<Deletion> {
  return guardedDelete(db, propertyId, timeZone, { tableId: id }, [
    db.delete(tableGroupMembers).where(eq(tableGroupMembers.groupId, id)),
    ...pruneClosures(db, propertyId, "tableIds", sql`SELECT ${id}`),
    db.update(diningTables).set({ deletedAt: nowIso() }).where(eq(diningTables.id, id)),
  ]);
}

/** Live groups that have this table as a member. */
export async function groupsContaining(db: Db, tableId: number) {
  const rows = await db
    .select({ id: diningTables.id })
    .from(tableGroupMembers)
    .innerJoin(diningTables, eq(diningTables.id, tableGroupMembers.groupId))
    .where(and(eq(tableGroupMembers.memberId, tableId), isNull(diningTables.deletedAt)));
  return rows.map((r) => r.id);
}

// ---------- services ----------

export async function listServices(db: Db, propertyId: number, limit: number, afterId = 0) {
  return db
    .select()
    .from(services)
    .where(and(eq(services.propertyId, propertyId), isNull(services.deletedAt), gt(services.id, afterId)))
    .orderBy(asc(services.id))
    .limit(limit + 1);
}

export async function getService(db: Db, propertyId: number, id: number) {
  const rows = await db
    .select()
    .from(services)
    .where(and(eq(services.id, id), eq(services.propertyId, propertyId), isNull(services.deletedAt)))
    .limit(1);
  return rows[0];
}

export type ServiceFields = Omit<
  typeof services.$inferInsert,
  "id" | "propertyId" | "createdAt" | "deletedAt"
>;

export async function insertService(db: Db, propertyId: number, fields: ServiceFields) {
  return (
    await db
      .insert(services)
      .values({ ...fields, propertyId })
      .returning()
  )[0]!;
}

/** Undefined when the service was deleted meanwhile. */
export async function updateService(db: Db, id: number, fields: Partial<ServiceFields>) {
  return (
    await db
      .update(services)
      .set(fields)
      .where(and(eq(services.id, id), isNull(services.deletedAt)))
      .returning()
  )[0];
}

export async function deleteService(
  db: Db,
  propertyId: number,
  id: number,
  timeZone: string,
): Promise<Deletion> {
  return guardedDelete(db, propertyId, timeZone, { serviceId: id }, [
    ...pruneClosures(db, propertyId, "serviceIds", sql`SELECT ${id}`),
    db.update(services).set({ deletedAt: nowIso() }).where(eq(services.id, id)),
  ]);
}

// ---------- closures ----------

export async function listClosures(db: Db, propertyId: number, limit: number, afterId = 0) {
  return db
    .select()
    .from(closures)
    .where(and(eq(closures.propertyId, propertyId), gt(closures.id, afterId)))
    .orderBy(asc(closures.id))
    .limit(limit + 1);
}

export async function getClosure(db: Db, propertyId: number, id: number) {
  const rows = await db
    .select()
    .from(closures)
    .where(and(eq(closures.id, id), eq(closures.propertyId, propertyId)))
    .limit(1);
  return rows[0];
}

export type ClosureFields = Omit<typeof closures.$inferInsert, "id" | "propertyId" | "createdAt">;

export async function insertClosure(db: Db, propertyId: number, fields: ClosureFields) {
  return (
    await db
      .insert(closures)
      .values({ ...fields, propertyId })
      .returning()
  )[0]!;
}

/** Undefined when the closure was deleted meanwhile. */
export async function updateClosure(db: Db, id: number, fields: Partial<ClosureFields>) {
  return (await db.update(closures).set(fields).where(eq(closures.id, id)).returning())[0];
}

export async function deleteClosure(db: Db, id: number) {
  await db.delete(closures).where(eq(closures.id, id));
}

// ---------- deletion guard ----------

type BatchItem = AnyBatchItem<"sqlite">;
type Target = { roomId: number } | { tableId: number } | { serviceId: number };
export type Deletion = { deleted: true } | { deleted: false; usedBy: number | undefined };

/**
 * Runs a deletion's statements behind a catalog_changes row, in one batch: the row's
 * trigger aborts the batch while an upcoming reservation uses the target.
 */
async function guardedDelete(
  db: Db,
  propertyId: number,
  timeZone: string,
  what: Target,
  statements: BatchItem[],
): Promise<Deletion> {
  const kind = "roomId" in what ? "room" : "tableId" in what ? "table" : "service";
  const result = await guarded(db, propertyId, timeZone, what, kind, statements);
  return "usedBy" in result ? { deleted: false, usedBy: result.usedBy } : { deleted: true };
}

async function guarded(
  db: Db,
  propertyId: number,
  timeZone: string,
  what: Target,
  kind: "room" | "table" | "service" | "regroup",
  statements: BatchItem[],
): Promise<{ results: unknown[] } | { usedBy: number | undefined }> {
  const targetId = "roomId" in what ? what.roomId : "tableId" in what ? what.tableId : what.serviceId;
  const nowMin = zonedParts(timeZone, now()).minutes;
  try {
    const results = await db.batch([
      db.insert(catalogChanges).values({ propertyId, kind, targetId, nowMin }),
      ...statements,
    ]);
    return { results: results.slice(1) };
  } catch (err) {
    if (!abortReason(err, ["resource_in_use"] as const)) throw err;
    return { usedBy: await upcomingUse(db, propertyId, nowMin, what) };
  }
}

/**
 * The first upcoming (not final, not yet ended) reservation that uses the room, one of the
 * tables or the service, in the property's own clock: the one named in the 409.
 */
export async function upcomingUse(
  db: Db,
  propertyId: number,
  nowMin: number,
  what: Target,
): Promise<number | undefined> {
  const used = (tables: ReturnType<typeof sql>) =>
    sql`(EXISTS (SELECT 1 FROM reservation_tables rt WHERE rt.reservation_id = r.id AND rt.table_id IN (${tables}))
        OR EXISTS (SELECT 1 FROM json_each(r.table_ids) j WHERE j.value IN (${tables})))`;
  const uses =
    "roomId" in what
      ? [
          sql`r.room_id = ${what.roomId}`,
          used(sql`SELECT id FROM dining_tables WHERE room_id = ${what.roomId}`),
        ]
      : "tableId" in what
        ? [used(sql`SELECT ${what.tableId}`)]
        : [sql`r.service_id = ${what.serviceId}`];
  const row = await db.get<{ id: number } | undefined>(
    sql`SELECT r.id FROM reservations r WHERE r.property_id = ${propertyId} AND r.status NOT IN ${FINAL_STATUSES}
        AND r.end_min > ${nowMin} AND (${sql.join(uses, sql` OR `)}) ORDER BY r.start_min LIMIT 1`,
  );
  return row?.id;
}

/** Guard rows older than `before` (retention): their batch committed long ago. */
export async function purgeCatalogChanges(db: Db, before: string): Promise<void> {
  await db.delete(catalogChanges).where(lt(catalogChanges.at, before));
}
