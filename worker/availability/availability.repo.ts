/**
 * Loads what the engine needs for some days of one property, in one D1 round trip: the
 * catalog (rooms, tables, groups, services), the closures touching those days, the holds
 * around them and, when a service is paced, the arrivals pacing counts. Only the days asked
 * for are read, so the cost does not grow with the property's history. The days' statements
 * can also ride in the round trip that reads the property row (dayQueries, then
 * availabilityFrom): the slot listing's one shard read.
 *
 * The catalog changes rarely and is read on every availability request, so each isolate
 * keeps it per property, keyed by properties.catalog_version. Triggers bump that version
 * on every write to rooms, tables, group members and services (migrations/0001), and the
 * version is read with the catalog in one batch, so a cached catalog is never used once
 * the property row a request loaded says it changed. The slot listing keeps a window's holds
 * the same way, keyed by properties.holds_version, which triggers bump on every write to
 * reservation_tables (migrations/shard/0011).
 */
import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { resolveSettings } from "../../shared/schemas";
import {
  closures,
  diningTables,
  properties,
  reservations,
  reservationTables,
  rooms,
  services,
  tableGroupMembers,
} from "../db/shard.schema";
import type { Db, PropertyRow } from "../env";
import { addDays, localMinutes } from "../lib/localtime";
import { getPropertyRowWith } from "../properties/properties.repo";
import {
  ARRIVING,
  type Arrival,
  type Catalog,
  type EngineRoom,
  type EngineService,
  type EngineTable,
  type Hold,
  listingReach,
  paced,
} from "./rules";

/** The longest stay a hold can have; bounds how far back a hold can still reach a day. */
const MAX_STAY = 1440;
/** The longest pacing interval: an arrival this far before a time can share its interval. */
const MAX_PACING = 240;
/** A lean hold's stay is its packed number modulo this (stays are at most MAX_STAY minutes, the CHECK of reservation_tables). */
const LEAN_BASE = 2048;

interface CachedCatalog {
  version: number;
  rooms: EngineRoom[];
  tables: EngineTable[];
  services: EngineService[];
  /**
   * how far past a service day's date its listed parties reach (listingReach), as the last
   * listing worked it out with the settings it read: the next listing's holds are read that far
   * only, and read again should the row read with them reach further
   */
  reach?: number;
}

const CACHE_SIZE = 500;
const catalogs = new Map<number, CachedCatalog>();

function remember(propertyId: number, entry: CachedCatalog) {
  catalogs.delete(propertyId);
  catalogs.set(propertyId, entry);
  if (catalogs.size > CACHE_SIZE) catalogs.delete(catalogs.keys().next().value!);
}

/** The rows of dayQueries: the days' closures, each table's holds packed in one string, and the arrivals pacing counts. */
export type DayRows = readonly [
  closures: (typeof closures.$inferSelect)[],
  holds: { tableId: number; packed: string }[],
  arrivals: Arrival[],
];

/**
 * `lean`: holds without their reservation ids, each one integer (start - from) * LEAN_BASE +
 * stay: a third of the bytes of the full form to carry out of D1 and to parse, and one number
 * for SQLite to write per hold instead of two joined by a comma (the listing's read costs SQLite
 * a third less); for listings, which never set a reservation aside.
 * Otherwise "reservation,start,end,...". Either is read back by JSON.parse (splitting strings
 * cost more than the query).
 */
function holdsQuery(
  db: Db,
  propertyId: number,
  from: number,
  until: number,
  lean: boolean,
  cached: { version: number } | undefined,
) {
  const rt = reservationTables;
  const packed = lean
    ? sql<string>`group_concat((${rt.startMin} - ${from}) * ${LEAN_BASE} + (${rt.endMin} - ${rt.startMin}))`
    : sql<string>`group_concat(${rt.reservationId} || ',' || ${rt.startMin} || ',' || ${rt.endMin})`;
  return (
    db
      .select({ tableId: diningTables.id, packed })
      .from(diningTables)
      .innerJoin(rt, eq(rt.tableId, diningTables.id))
      .where(
        and(
          eq(diningTables.propertyId, propertyId),
          // nothing to read when the isolate holds this window at the version the batch sees (a
          // constant condition: SQLite tests it once, before touching an index)
          cached
            ? sql`(SELECT ${properties.holdsVersion} FROM ${properties} WHERE ${properties.id} = ${propertyId}) <> ${cached.version}`
            : undefined,
          // a hold that starts up to MAX_STAY before the window can still reach into it (the
          // index range), if it ends inside it; one that starts before `until` can still block a
          // party inside it (windowUntil)
          gt(rt.startMin, from - MAX_STAY - 1),
          gt(rt.endMin, from),
          lt(rt.startMin, until),
        ),
      )
      // by the tables' index order, so SQLite groups without sorting
      .groupBy(diningTables.id)
  );
}

/**
 * Only when a service is paced (the condition names no row, so SQLite tests it once and
 * otherwise reads nothing): the hot path of unpaced restaurants stays as it was.
 */
function arrivalsQuery(db: Db, propertyId: number, from: number, to: number) {
  return db
    .select({
      reservationId: reservations.id,
      serviceId: sql<number>`${reservations.serviceId}`,
      startMin: reservations.startMin,
      pax: reservations.pax,
    })
    .from(reservations)
    .where(
      and(
        sql`EXISTS (SELECT 1 FROM services WHERE property_id = ${propertyId} AND deleted_at IS NULL AND (max_covers_per_interval IS NOT NULL OR max_parties_per_interval IS NOT NULL))`,
        eq(reservations.propertyId, propertyId),
        gte(reservations.startMin, from - MAX_PACING),
        lt(reservations.startMin, to + MAX_PACING),
        inArray(reservations.status, [...ARRIVING]),
        sql`${reservations.serviceId} IS NOT NULL`,
      ),
    );
}

/** The minutes the days' holds are read for: a service day's times past midnight fall on the next calendar day. */
const windowOf = (firstDate: string, lastDate: string) => ({
  from: localMinutes(firstDate),
  to: localMinutes(lastDate) + 2 * 1440,
});

/** Holds starting before this can block a party of the window, whatever its stay: one that starts up to MAX_STAY after the window's end. */
const windowUntil = (lastDate: string) => windowOf(lastDate, lastDate).to + MAX_STAY + 1;

/** Where a listing's holds read can stop: its reach past the last day, within the whole window. */
const listingUntil = (lastDate: string, reach: number | undefined) =>
  Math.min(windowUntil(lastDate), reach === undefined ? Infinity : localMinutes(lastDate) + reach + 1);

/**
 * The isolate's holds of a window, at the holds_version they were read at: a slot listing that
 * finds them asks the database for its holds only if the version moved (a booking, a change, a
 * cancellation), so repeated listings of a restaurant between bookings read no holds at all.
 */
interface CachedHolds {
  version: number;
  holds: Hold[];
  /** the holds starting before this minute (a listing's reach, or windowUntil) */
  until: number;
}

const holdsCache = new Map<string, CachedHolds>();
/** At most this many holds in the cache (about 50 bytes each in V8): a busy week holds 1,500, an isolate has 128 MB. */
const CACHED_HOLDS_MAX = 100_000;
let cachedHoldCount = 0;

function forgetHolds(key: string) {
  cachedHoldCount -= holdsCache.get(key)?.holds.length ?? 0;
  holdsCache.delete(key);
}

const holdsKey = (propertyId: number, firstDate: string, lastDate: string) =>
  `${propertyId}:${firstDate}:${lastDate}`;

/** The isolate's holds of a window, when they reach `until` (those read for a listing's reach may stop short of it). */
function cachedHolds(
  propertyId: number,
  firstDate: string,
  lastDate: string,
  until: number,
): CachedHolds | undefined {
  const cached = holdsCache.get(holdsKey(propertyId, firstDate, lastDate));
  return cached && cached.until >= until ? cached : undefined;
}

/** The holds a lean read uses: the cached ones when `version` (read in the same batch) is theirs, else those just read until `until` (then cached). */
function holdsAt(
  propertyId: number,
  window: { firstDate: string; lastDate: string; until: number },
  version: number,
  rows: DayRows[1],
  cached: CachedHolds | undefined,
): Hold[] {
  if (cached && cached.version === version) return cached.holds;
  const key = holdsKey(propertyId, window.firstDate, window.lastDate);
  const holds = unpackHolds(rows, window.firstDate, true);
  forgetHolds(key);
  holdsCache.set(key, { version, holds, until: window.until });
  cachedHoldCount += holds.length;
  // the oldest first, never the one just kept
  while (holdsCache.size > 1 && (holdsCache.size > CACHE_SIZE || cachedHoldCount > CACHED_HOLDS_MAX))
    forgetHolds(holdsCache.keys().next().value!);
  return holds;
}

/** The days' closures, by service day or by the hours of the calendar dates a stay reaches: a day either side. */
function closureQuery(db: Db, propertyId: number, firstDate: string, lastDate: string) {
  return db
    .select()
    .from(closures)
    .where(
      and(
        eq(closures.propertyId, propertyId),
        lte(closures.startDate, addDays(lastDate, 2)),
        gte(closures.endDate, addDays(firstDate, -1)),
      ),
    );
}

/**
 * The statements of the days' closures, holds (one row per table: far fewer rows than one per
 * hold) and arrivals. `cached`: the isolate's holds of this window (lean only), which the holds
 * statement then reads only if the version moved; `until`: where the holds stop (a listing's reach).
 */
export function dayQueries(
  db: Db,
  propertyId: number,
  firstDate: string,
  lastDate: string,
  o: { lean?: boolean; cached?: { version: number } | undefined; until?: number } = {},
) {
  const { from, to } = windowOf(firstDate, lastDate);
  const holds = holdsQuery(db, propertyId, from, o.until ?? windowUntil(lastDate), o.lean ?? false, o.cached);
  return [
    closureQuery(db, propertyId, firstDate, lastDate),
    holds,
    arrivalsQuery(db, propertyId, from, to),
  ] as const;
}

function unpackHolds(rows: DayRows[1], firstDate: string, lean: boolean): Hold[] {
  const from = localMinutes(firstDate);
  const holds: Hold[] = [];
  for (const { tableId, packed } of rows) {
    const n = JSON.parse(`[${packed}]`) as number[];
    if (!lean) {
      for (let i = 0; i < n.length; i += 3)
        holds.push({ reservationId: n[i]!, tableId, startMin: n[i + 1]!, endMin: n[i + 2]! });
      continue;
    }
    for (const v of n) {
      // a hold may start before the window (a negative offset): floor, not truncation
      const offset = Math.floor(v / LEAN_BASE);
      holds.push({ tableId, startMin: from + offset, endMin: from + offset + (v - offset * LEAN_BASE) });
    }
  }
  return holds;
}

/** The statements of the catalog, the first one its version (so the version is the one the rows are). */
function catalogQueries(db: Db, propertyId: number) {
  const live = (t: typeof rooms | typeof diningTables | typeof services) =>
    and(eq(t.propertyId, propertyId), isNull(t.deletedAt));
  const t = diningTables;
  return [
    db.select({ version: properties.catalogVersion }).from(properties).where(eq(properties.id, propertyId)),
    db
      .select({ id: rooms.id, name: rooms.name, bookable: rooms.bookable })
      .from(rooms)
      .where(live(rooms))
      .orderBy(asc(rooms.id)),
    db
      .select({
        id: t.id,
        roomId: t.roomId,
        name: t.name,
        guestsMin: t.guestsMin,
        guestsMax: t.guestsMax,
        bookable: t.bookable,
        online: t.online,
        isGroup: t.isGroup,
      })
      .from(t)
      .where(live(t))
      .orderBy(asc(t.id)),
    db
      .select({ groupId: tableGroupMembers.groupId, memberId: tableGroupMembers.memberId })
      .from(tableGroupMembers)
      .innerJoin(t, eq(t.id, tableGroupMembers.groupId))
      .where(live(t))
      .orderBy(asc(tableGroupMembers.memberId)),
    db.select().from(services).where(live(services)).orderBy(asc(services.id)),
  ] as const;
}

type CatalogRows = BatchRows<ReturnType<typeof catalogQueries>>;
type BatchRows<T extends readonly unknown[]> = { [K in keyof T]: Awaited<T[K]> };

/** The catalog of the rows read, cached under their version. */
function keepCatalog(
  propertyId: number,
  [versionRows, roomRows, tableRows, memberRows, serviceRows]: CatalogRows,
): CachedCatalog {
  const members = new Map<number, number[]>();
  for (const m of memberRows) members.set(m.groupId, [...(members.get(m.groupId) ?? []), m.memberId]);
  const cached = {
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
  remember(propertyId, cached);
  return cached;
}

/** The isolate's catalog of the property, when it is the version the request's property row says. */
function cachedCatalog(property: PropertyRow, fresh: boolean): CachedCatalog | undefined {
  const cached = catalogs.get(property.id);
  return cached && !fresh && cached.version === property.catalogVersion ? cached : undefined;
}

function assemble(
  property: PropertyRow,
  cached: CachedCatalog,
  closureRows: DayRows[0],
  holds: Hold[],
  arrivals: Arrival[],
) {
  const catalog: Catalog = {
    settings: resolveSettings(property.settings),
    rooms: cached.rooms,
    tables: cached.tables,
    services: cached.services,
    closures: closureRows,
  };
  return { catalog, holds, arrivals, catalogVersion: cached.version };
}

/**
 * `fresh` skips the catalog cache: a retry after the database said the catalog changed must not
 * trust the property row the request loaded. `catalogVersion` is the version the catalog
 * answered is, for writes to carry (a trigger refuses tables chosen on an older catalog).
 * `lean` (listings): holds without reservation ids, from the isolate's cache while the
 * holds_version read in the same batch is theirs, unless `noCache`; and, when the isolate has the
 * current catalog, only as far as a listed party reaches (listingReach).
 */
export async function loadAvailability(
  db: Db,
  property: PropertyRow,
  firstDate: string,
  lastDate: string,
  o: { fresh?: boolean; lean?: boolean; noCache?: boolean } = {},
) {
  const lean = o.lean ?? false;
  let cached = cachedCatalog(property, o.fresh ?? false);
  const until =
    lean && cached
      ? listingUntil(lastDate, listingReach(resolveSettings(property.settings), cached.services))
      : windowUntil(lastDate);
  const held = lean && !o.noCache ? cachedHolds(property.id, firstDate, lastDate, until) : undefined;
  const days = [
    ...dayQueries(db, property.id, firstDate, lastDate, { lean, cached: held, until }),
    db.select({ v: properties.holdsVersion }).from(properties).where(eq(properties.id, property.id)),
  ] as const;
  let rows: BatchRows<typeof days>;
  if (cached) {
    rows = await db.batch(days);
  } else {
    const [version, roomRows, tableRows, members, serviceRows, ...day] = await db.batch([
      ...catalogQueries(db, property.id),
      ...days,
    ]);
    cached = keepCatalog(property.id, [version, roomRows, tableRows, members, serviceRows]);
    rows = day;
  }
  const [closureRows, holdRows, arrivals, [current]] = rows;
  const holds = lean
    ? holdsAt(property.id, { firstDate, lastDate, until }, current?.v ?? -1, holdRows, held)
    : unpackHolds(holdRows, firstDate, false);
  return assemble(property, cached, closureRows, holds, arrivals);
}

/**
 * What a slot listing reads in the round trip of its property row: the holds (nothing when the
 * isolate's cached ones are still current), the closures only when the listing honours them
 * (out_of_order), the arrivals only when the isolate's catalog, whatever its version, has a
 * paced service; availabilityFrom reads them afterwards if the current catalog turns out to.
 */
export interface ListingRead {
  firstDate: string;
  lastDate: string;
  /** the holds read start before this minute: the listing's reach when the isolate knows it */
  until: number;
  cached: CachedHolds | undefined;
  closures: boolean;
  arrivals: boolean;
}

/** `fresh`: the caller asked for no cache, so the holds are read whatever the isolate has. */
export function listingRead(
  propertyId: number,
  firstDate: string,
  lastDate: string,
  o: { outOfOrder: boolean; fresh: boolean },
): ListingRead {
  const catalog = catalogs.get(propertyId);
  const until = listingUntil(lastDate, catalog?.reach);
  const cached = o.fresh ? undefined : cachedHolds(propertyId, firstDate, lastDate, until);
  return {
    firstDate,
    lastDate,
    until,
    cached,
    closures: o.outOfOrder,
    arrivals: !catalog || catalog.services.some(paced),
  };
}

/** The statements of a ListingRead: holds, then closures and arrivals when asked for. */
export function listingQueries(db: Db, propertyId: number, read: ListingRead) {
  // only the statements the listing reads are built (drizzle's builders cost more than the read)
  const { from, to } = windowOf(read.firstDate, read.lastDate);
  const holds = holdsQuery(db, propertyId, from, read.until, true, read.cached);
  return [
    holds,
    ...(read.closures ? [closureQuery(db, propertyId, read.firstDate, read.lastDate)] : []),
    ...(read.arrivals ? [arrivalsQuery(db, propertyId, from, to)] : []),
  ];
}

/**
 * The slot listing's availability from the results of listingQueries; the catalog from the
 * isolate's cache, or read now. Holds read short of the listing's reach (its services or
 * settings changed since the isolate learnt it) are read again, as far as it now reaches.
 */
export async function availabilityFrom(
  db: Db,
  property: PropertyRow,
  read: ListingRead,
  results: readonly unknown[],
) {
  const rest = [...results];
  const holdRows = rest.shift() as DayRows[1];
  const closureRows = (read.closures ? rest.shift() : []) as DayRows[0];
  const catalog =
    cachedCatalog(property, false) ??
    keepCatalog(property.id, await db.batch(catalogQueries(db, property.id)));
  const reach = listingReach(resolveSettings(property.settings), catalog.services);
  catalog.reach = reach;
  if (read.until < listingUntil(read.lastDate, reach))
    return loadAvailability(db, property, read.firstDate, read.lastDate, { lean: true, noCache: true });
  const { from, to } = windowOf(read.firstDate, read.lastDate);
  const arrivals = read.arrivals
    ? (rest.shift() as DayRows[2])
    : catalog.services.some(paced)
      ? await arrivalsQuery(db, property.id, from, to)
      : [];
  return assemble(
    property,
    catalog,
    closureRows,
    holdsAt(property.id, read, property.holdsVersion, holdRows, read.cached),
    arrivals,
  );
}

/** A day's holds as the restaurant's object keeps them, at the holds_version they were read at. */
export interface KeptHolds {
  version: number;
  holds: Hold[];
}

/**
 * The booking desk's read of one day (worker/restaurant/desk.ts), in one round trip: the
 * property row (its settings, catalog_version and holds_version), the day's closures and arrivals,
 * and the day's holds only when holds_version moved from `kept`'s (the statement's constant
 * condition reads the version in the same batch, so holds and version always agree). The catalog
 * comes from the isolate's cache when the row's catalog_version is its own. `alongside`: more
 * reads for the same round trip (the bookings' customers), their results in `alongside` of the
 * answer. Undefined: no such live property.
 */
export async function loadDeskDay(
  db: Db,
  propertyId: number,
  date: string,
  kept: KeptHolds | undefined,
  alongside: BatchItem<"sqlite">[] = [],
) {
  const [closureQuery, holdsQuery, arrivals] = dayQueries(db, propertyId, date, date, { cached: kept });
  const [property, rows] = await getPropertyRowWith(db, propertyId, [
    closureQuery,
    holdsQuery,
    arrivals,
    ...alongside,
  ]);
  if (!property) return undefined;
  const [closureRows, holdRows, arrivalRows, ...more] = rows as [
    DayRows[0],
    DayRows[1],
    DayRows[2],
    ...unknown[],
  ];
  const catalog =
    cachedCatalog(property, false) ??
    keepCatalog(property.id, await db.batch(catalogQueries(db, property.id)));
  const holds =
    kept && kept.version === property.holdsVersion ? kept.holds : unpackHolds(holdRows, date, false);
  return {
    property,
    day: assemble(property, catalog, closureRows, holds, arrivalRows),
    kept: { version: property.holdsVersion, holds },
    alongside: more,
  };
}
