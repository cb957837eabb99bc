/**
 * Loads what the engine needs for some days of one property, in one D1 round trip:
 * the catalog, the closures touching those days and the holds around them. Only the days
 * asked for are read, so the cost does not grow with the property's history.
 */
import { and, asc, eq, gt, gte, isNull, lt, lte } from "drizzle-orm";
import { resolveSettings } from "../../shared/schemas";
import { closures, diningTables, reservationTables, rooms, services, tableGroupMembers } from "../db/schema";
import type { Db, PropertyRow } from "../env";
import { localMinutes } from "../lib/localtime";
import type { Catalog, Hold } from "./engine";

/** The longest stay a hold can have; bounds how far back a hold can still reach a day. */
const MAX_STAY = 1440;

export async function loadAvailability(db: Db, property: PropertyRow, firstDate: string, lastDate: string): Promise<{ catalog: Catalog; holds: Hold[] }> {
  const from = localMinutes(firstDate);
  const to = localMinutes(lastDate) + 1440;
  const live = (t: typeof rooms | typeof diningTables | typeof services) => and(eq(t.propertyId, property.id), isNull(t.deletedAt));
  const [roomRows, tableRows, memberRows, serviceRows, closureRows, holdRows] = await db.batch([
    db.select().from(rooms).where(live(rooms)).orderBy(asc(rooms.id)),
    db.select().from(diningTables).where(live(diningTables)).orderBy(asc(diningTables.id)),
    db
      .select({ groupId: tableGroupMembers.groupId, memberId: tableGroupMembers.memberId })
      .from(tableGroupMembers)
      .innerJoin(diningTables, eq(diningTables.id, tableGroupMembers.groupId))
      .where(live(diningTables))
      .orderBy(asc(tableGroupMembers.memberId)),
    db.select().from(services).where(live(services)).orderBy(asc(services.id)),
    db
      .select()
      .from(closures)
      .where(and(eq(closures.propertyId, property.id), lte(closures.startDate, lastDate), gte(closures.endDate, firstDate))),
    db
      .select({
        reservationId: reservationTables.reservationId,
        tableId: reservationTables.tableId,
        startMin: reservationTables.startMin,
        endMin: reservationTables.endMin,
      })
      .from(reservationTables)
      .innerJoin(diningTables, eq(diningTables.id, reservationTables.tableId))
      .where(
        and(
          eq(diningTables.propertyId, property.id),
          // a hold that starts up to MAX_STAY before the window can still reach into it,
          // and one that starts up to MAX_STAY after it can still block a party inside it
          gt(reservationTables.startMin, from - MAX_STAY - 1),
          lt(reservationTables.startMin, to + MAX_STAY + 1),
        ),
      ),
  ]);
  const members = new Map<number, number[]>();
  for (const m of memberRows) members.set(m.groupId, [...(members.get(m.groupId) ?? []), m.memberId]);
  const catalog: Catalog = {
    settings: resolveSettings(property.settings),
    rooms: roomRows.map((r) => ({ id: r.id, name: r.name, bookable: r.bookable })),
    tables: tableRows.map((t) => ({
      id: t.id,
      roomId: t.roomId,
      name: t.name,
      guestsMin: t.guestsMin,
      guestsMax: t.guestsMax,
      bookable: t.bookable,
      online: t.online,
      isGroup: t.isGroup,
      memberIds: members.get(t.id) ?? [],
    })),
    services: serviceRows,
    closures: closureRows,
  };
  return { catalog, holds: holdRows };
}
