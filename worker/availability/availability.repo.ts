/**
 * Loads what the engine needs for some days of one property, in one D1 round trip: the
 * catalog (rooms, tables, groups, services), the closures touching those days, the holds
 * around them and, when a service is paced, the arrivals pacing counts. Only the days asked
 * for are read, so the cost does not grow with the property's history.
 *
 * The catalog changes rarely and is read on every availability request, so each isolate
 * keeps it per property, keyed by properties.catalog_version. Triggers bump that version
 * on every write to rooms, tables, group members and services (migrations/0001), and the
 * version is read with the catalog in one batch, so a cached catalog is never used once
 * the property row a request loaded says it changed.
 */
import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import { resolveSettings } from "../../shared/schemas";
import { closures, diningTables, properties, reservations, reservationTables, rooms, services, tableGroupMembers } from "../db/shard.schema";
import type { Db, PropertyRow } from "../env";
import { addDays, localMinutes } from "../lib/localtime";
import { ARRIVING, type Arrival, type Catalog, type EngineRoom, type EngineService, type EngineTable, type Hold } from "./rules";

/** The longest stay a hold can have; bounds how far back a hold can still reach a day. */
const MAX_STAY = 1440;
/** The longest pacing interval: an arrival this far before a time can share its interval. */
const MAX_PACING = 240;

interface CachedCatalog {
  version: number;
  rooms: EngineRoom[];
  tables: EngineTable[];
  services: EngineService[];
}

const CACHE_SIZE = 500;
const catalogs = new Map<number, CachedCatalog>();

function remember(propertyId: number, entry: CachedCatalog) {
  catalogs.delete(propertyId);
  catalogs.set(propertyId, entry);
  if (catalogs.size > CACHE_SIZE) catalogs.delete(catalogs.keys().next().value!);
}

/**
 * `fresh` skips the cache: a retry after the database said the catalog changed must not
 * trust the property row the request loaded. `catalogVersion` is the version the catalog
 * answered is, for writes to carry (a trigger refuses tables chosen on an older catalog).
 */
export async function loadAvailability(
  db: Db,
  property: PropertyRow,
  firstDate: string,
  lastDate: string,
  fresh = false,
): Promise<{ catalog: Catalog; holds: Hold[]; arrivals: Arrival[]; catalogVersion: number }> {
  const from = localMinutes(firstDate);
  // a service day's times past midnight fall on the next calendar day
  const to = localMinutes(lastDate) + 2 * 1440;
  const live = (t: typeof rooms | typeof diningTables | typeof services) => and(eq(t.propertyId, property.id), isNull(t.deletedAt));
  // Closures by service day, or by the hours of the calendar dates a stay reaches: a day either side.
  const closureQuery = db
    .select()
    .from(closures)
    .where(and(eq(closures.propertyId, property.id), lte(closures.startDate, addDays(lastDate, 2)), gte(closures.endDate, addDays(firstDate, -1))));
  // Only when a service is paced (the condition names no row, so SQLite tests it once and
  // otherwise reads nothing): the hot path of unpaced restaurants stays as it was.
  const arrivalQuery = db
    .select({ reservationId: reservations.id, serviceId: sql<number>`${reservations.serviceId}`, startMin: reservations.startMin, pax: reservations.pax })
    .from(reservations)
    .where(
      and(
        sql`EXISTS (SELECT 1 FROM services WHERE property_id = ${property.id} AND deleted_at IS NULL AND (max_covers_per_interval IS NOT NULL OR max_parties_per_interval IS NOT NULL))`,
        eq(reservations.propertyId, property.id),
        gte(reservations.startMin, from - MAX_PACING),
        lt(reservations.startMin, to + MAX_PACING),
        inArray(reservations.status, [...ARRIVING]),
        sql`${reservations.serviceId} IS NOT NULL`,
      ),
    );
  // One row per table, its holds packed as "reservation:start:end,...": far fewer rows to
  // carry out of D1 than one per hold.
  const holdQuery = db
    .select({
      tableId: reservationTables.tableId,
      packed: sql<string>`group_concat(${reservationTables.reservationId} || ':' || ${reservationTables.startMin} || ':' || ${reservationTables.endMin})`,
    })
    .from(reservationTables)
    .innerJoin(diningTables, eq(diningTables.id, reservationTables.tableId))
    .where(
      and(
        eq(diningTables.propertyId, property.id),
        // a hold that starts up to MAX_STAY before the window can still reach into it (the
        // index range), if it ends inside it; one that starts up to MAX_STAY after it can
        // still block a party inside it
        gt(reservationTables.startMin, from - MAX_STAY - 1),
        gt(reservationTables.endMin, from),
        lt(reservationTables.startMin, to + MAX_STAY + 1),
      ),
    )
    .groupBy(reservationTables.tableId);

  let cached = catalogs.get(property.id);
  let closureRows: (typeof closures.$inferSelect)[];
  let packedHolds: { tableId: number; packed: string }[];
  let arrivals: Arrival[];
  if (cached && !fresh && cached.version === property.catalogVersion) {
    [closureRows, packedHolds, arrivals] = await db.batch([closureQuery, holdQuery, arrivalQuery]);
  } else {
    const [versionRows, roomRows, tableRows, memberRows, serviceRows, closureResult, holdResult, arrivalResult] = await db.batch([
      db.select({ version: properties.catalogVersion }).from(properties).where(eq(properties.id, property.id)),
      db.select({ id: rooms.id, name: rooms.name, bookable: rooms.bookable }).from(rooms).where(live(rooms)).orderBy(asc(rooms.id)),
      db
        .select({
          id: diningTables.id,
          roomId: diningTables.roomId,
          name: diningTables.name,
          guestsMin: diningTables.guestsMin,
          guestsMax: diningTables.guestsMax,
          bookable: diningTables.bookable,
          online: diningTables.online,
          isGroup: diningTables.isGroup,
        })
        .from(diningTables)
        .where(live(diningTables))
        .orderBy(asc(diningTables.id)),
      db
        .select({ groupId: tableGroupMembers.groupId, memberId: tableGroupMembers.memberId })
        .from(tableGroupMembers)
        .innerJoin(diningTables, eq(diningTables.id, tableGroupMembers.groupId))
        .where(live(diningTables))
        .orderBy(asc(tableGroupMembers.memberId)),
      db.select().from(services).where(live(services)).orderBy(asc(services.id)),
      closureQuery,
      holdQuery,
      arrivalQuery,
    ]);
    const members = new Map<number, number[]>();
    for (const m of memberRows) members.set(m.groupId, [...(members.get(m.groupId) ?? []), m.memberId]);
    cached = {
      version: versionRows[0]?.version ?? -1,
      rooms: roomRows,
      // A group whose member was deleted (a race of two edits) cannot seat anyone: its holds
      // would name a deleted table, which the database refuses.
      tables: tableRows.map((t) => {
        const memberIds = members.get(t.id) ?? [];
        const whole = memberIds.every((m) => tableRows.some((x) => x.id === m));
        return { ...t, memberIds, bookable: t.bookable && whole };
      }),
      services: serviceRows,
    };
    remember(property.id, cached);
    closureRows = closureResult;
    packedHolds = holdResult;
    arrivals = arrivalResult;
  }

  const holds: Hold[] = [];
  for (const { tableId, packed } of packedHolds) {
    for (const item of packed.split(",")) {
      const [reservationId, startMin, endMin] = item.split(":").map(Number) as [number, number, number];
      holds.push({ reservationId, tableId, startMin, endMin });
    }
  }
  const catalog: Catalog = {
    settings: resolveSettings(property.settings),
    rooms: cached.rooms,
    tables: cached.tables,
    services: cached.services,
    closures: closureRows,
  };
  return { catalog, holds, arrivals, catalogVersion: cached.version };
}
