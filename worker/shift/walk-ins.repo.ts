/** The walk-in waiting list's rows: the open list, a party joining, told, seated or gone. */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { WALK_IN_STATES } from "../db/enums";
import { walkIns } from "../db/shard.schema";
import type { Db } from "../env";
import { nowIso } from "../lib/clock";

export type WalkInRow = typeof walkIns.$inferSelect;
export type WalkInFields = Pick<typeof walkIns.$inferInsert, "pax" | "name" | "email" | "phone" | "notes">;
type Closed = Extract<(typeof WALK_IN_STATES)[number], "seated" | "left">;

/** The parties still waiting (or told), first come first. */
export function listOpen(db: Db, propertyId: number): Promise<WalkInRow[]> {
  return db
    .select()
    .from(walkIns)
    .where(and(eq(walkIns.propertyId, propertyId), isNull(walkIns.closedAt)))
    .orderBy(asc(walkIns.id))
    .limit(200);
}

export async function getWalkIn(db: Db, propertyId: number, id: number): Promise<WalkInRow | undefined> {
  const rows = await db
    .select()
    .from(walkIns)
    .where(and(eq(walkIns.id, id), eq(walkIns.propertyId, propertyId)))
    .limit(1);
  return rows[0];
}

export async function insertWalkIn(
  db: Db,
  propertyId: number,
  fields: WalkInFields,
  quotedMinutes: number | null,
): Promise<WalkInRow> {
  const rows = await db
    .insert(walkIns)
    .values({ propertyId, ...fields, quotedMinutes })
    .returning();
  return rows[0]!;
}

/** Marks an open party told its table is ready; undefined when it closed meanwhile. */
export async function markNotified(db: Db, id: number): Promise<WalkInRow | undefined> {
  const rows = await db
    .update(walkIns)
    .set({ state: "notified", notifiedAt: nowIso() })
    .where(and(eq(walkIns.id, id), isNull(walkIns.closedAt)))
    .returning();
  return rows[0];
}

/** Closes an open party (seated, with its reservation, or gone); undefined when it was closed already. */
export async function closeWalkIn(
  db: Db,
  id: number,
  state: Closed,
  reservationId: number | null,
): Promise<WalkInRow | undefined> {
  const rows = await db
    .update(walkIns)
    .set({ state, reservationId, closedAt: nowIso() })
    .where(and(eq(walkIns.id, id), isNull(walkIns.closedAt), inArray(walkIns.state, ["waiting", "notified"])))
    .returning();
  return rows[0];
}
