/**
 * The slot listing (GET /bookings/slots): 7 days of bookable times for a party. Its
 * days' holds ride in the round trip of the property row (slotsPreload), and a listing computed
 * this minute on the same catalog, holds and settings is answered again without the engine.
 */
import type { Context } from "hono";
import { resolveSettings } from "../../shared/schemas";
import type { AppEnv, Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { addDays, zonedParts } from "../lib/localtime";
import { queryBoolean } from "../lib/query";
import type { Preload } from "../properties/binding";
import {
  availabilityFrom,
  type ListingRead,
  listingQueries,
  listingRead,
  loadAvailability,
} from "./availability.repo";
import { dateOrDateTime } from "./availability.schemas";
import { Availability, type DaySlots, type EngineService, listedDays, paced } from "./engine";

const DAYS = 7;

/** The service named by service_id: 404 when not in the property, 403 "service forbidden" when switched off. */
export function namedService(services: EngineService[], id: number, online: boolean): EngineService {
  const service = services.find((s) => s.id === id);
  if (!service) throw new ApiError("service_not_found", `service ${id} does not exist in this property`);
  if (!service.enabled || (online && !service.online)) {
    throw new ApiError(
      "service_forbidden",
      `service ${id} is ${service.enabled ? "not open to online booking" : "disabled"}`,
    );
  }
  return service;
}

/** The caller sent Cache-Control: no-cache: the holds are read again and the listing worked out afresh (the catalog's versioned cache still serves). */
export const wantsFresh = (c: Context<AppEnv>) => /no-cache/i.test(c.req.header("Cache-Control") ?? "");

/** What a slot listing read with its property row, and the results, by request. */
export interface Preloaded {
  read: ListingRead;
  results: readonly unknown[];
}
export const preloaded = new WeakMap<Context<AppEnv>, Preloaded>();

/**
 * GET /bookings/slots with a start_date: its days' holds (and closures, arrivals when needed) ride
 * in the round trip that reads the property row (without start_date the first day depends on the
 * property's zone, so they are read after it). Anything else reads nothing extra.
 */
export function slotsPreload(c: Context<AppEnv>): Preload | undefined {
  if (c.req.method !== "GET" || !c.req.path.endsWith("/bookings/slots")) return undefined;
  const date = dateOrDateTime.safeParse(c.req.query("start_date"));
  const flag = queryBoolean.safeParse(
    c.req.query("out_of_order") ?? c.req.query("out_of_service") ?? "false",
  );
  if (!date.success || !flag.success) return undefined;
  const outOfOrder = flag.data;
  let read: ListingRead;
  return {
    statements: (db, propertyId) => {
      read = listingRead(propertyId, date.data, addDays(date.data, DAYS - 1), {
        outOfOrder,
        fresh: wantsFresh(c),
      });
      return listingQueries(db, propertyId, read);
    },
    keep: (results) => preloaded.set(c, { read, results }),
  };
}

/** 7 days of slots from start_date (default: today in the property's zone); `read`: the days' rows, read already with the property row. */
export async function slotListing(
  db: Db,
  property: PropertyRow,
  q: ListingQuestion,
  read?: Preloaded,
): Promise<DaySlots[]> {
  const firstDay = q.start_date ?? zonedParts(resolveSettings(property.settings).timezone, now()).date;
  const days = listedDays(firstDay, DAYS);
  const { catalog, holds, arrivals, catalogVersion } = read
    ? await availabilityFrom(db, property, read.read, read.results)
    : await loadAvailability(db, property, firstDay, days.at(-1)!, { lean: true, noCache: q.fresh ?? false });
  let services = catalog.services.filter((s) => s.enabled && s.online);
  if (q.service_id !== undefined) services = [namedService(catalog.services, q.service_id, true)];
  if (!services.length)
    throw new ApiError("no_service_available", "the property has no service open to online booking");
  const key =
    read && !q.fresh ? listingKey(property, catalogVersion, catalog.services, q, firstDay) : undefined;
  const known = key === undefined ? undefined : listings.get(key);
  if (known) return known;
  const engine = new Availability(catalog, holds, now(), arrivals);
  if (!engine.usableTables("online").length)
    throw new ApiError("no_room_available", "the property has no bookable online table in a bookable room");
  const listed = days.map((day) => engine.daySlots(day, q.pax, services, q.out_of_order ?? false));
  if (key !== undefined) keepListing(key, listed);
  return listed;
}

/**
 * Listings computed in the current minute, by everything they depend on: the catalog and holds
 * versions, the settings, the minute (notice, the window and past times move by whole minutes)
 * and the question. Only listings that ignore closures and pace no service (the two inputs
 * without a version) are kept, and only from a preloaded read, whose holds are of the version
 * the key names. A popular restaurant's widget asks the same week many times a minute.
 */
const listings = new Map<string, DaySlots[]>();
/** A week's listing of a busy restaurant is about 850 times, some 70 KB of objects: 100 of them stay well inside an isolate's 128 MB. */
const LISTINGS_KEPT = 100;

function listingKey(
  property: PropertyRow,
  catalogVersion: number,
  services: EngineService[],
  q: ListingQuestion,
  firstDay: string,
): string | undefined {
  if (q.out_of_order || services.some(paced)) return undefined;
  const minute = Math.floor(now() / 60000);
  return [
    property.id,
    catalogVersion,
    property.holdsVersion,
    minute,
    firstDay,
    q.pax,
    q.service_id ?? "",
    JSON.stringify(property.settings),
  ].join("|");
}

function keepListing(key: string, days: DaySlots[]) {
  listings.set(key, days);
  if (listings.size > LISTINGS_KEPT) listings.delete(listings.keys().next().value!);
}

interface ListingQuestion {
  /** Cache-Control: no-cache asked for (wantsFresh): neither cache answers */
  fresh?: boolean;
  start_date?: string | undefined;
  pax: number;
  service_id?: number | undefined;
  out_of_order?: boolean | undefined;
}
