/** /bookings/slots, /bookings/rooms and the booking links (CONTRACT 5 and 8). */
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { localMinutes } from "../lib/localtime";
import { bearerSecurity, envelope, errorResponses, json, PROPERTY_SCOPED, propertyHeader } from "../lib/openapi";
import { dateField, hourField, queryBoolean, queryId, queryPax } from "../lib/query";
import { createRouter } from "../lib/router";
import { TableSchema, toTableDto } from "../properties/tables.schemas";
import { Availability, bestChoice, type EngineService, serviceDayOf, serviceRunsOn, serviceSpan, stayMinutes, UNAVAILABLE } from "./engine";
import { loadAvailability } from "./availability.repo";
import { dateOrDateTime, namedService, preloaded, slotListing, wantsFresh } from "./listing";

const SlotDetail = z
  .object({
    hour: z.string().openapi({ example: "19:30:00" }),
    disabled: z.boolean().openapi({ description: "with out_of_order=true: every table is closed at this time" }),
    free_tables: z.number().int().openapi({ description: "free, open tables that seat the party" }),
    reason: z
      .enum(UNAVAILABLE)
      .optional()
      .openapi({
        description:
          "present when the time cannot be booked: party_size (the service or no table takes the party), window (beyond the booking window), " +
          "notice (past or inside min_notice), closed (a closure overlaps the stay; with out_of_order=true), full (every fitting table is held), " +
          "pacing (the service's covers or parties per interval are reached)",
        example: "pacing",
      }),
  })
  .openapi("SlotDetail");

const SlotEntry = z
  .object({
    day: z.string().openapi({ example: "2026-12-05" }),
    available_services: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        available_slots: z.array(z.string()).openapi({ example: ["19:00:00", "19:15:00"] }),
        slots: z.array(SlotDetail).openapi({ description: "every time on the service's grid; a service past midnight lists its late times under the day it started" }),
      }),
    ),
  })
  .openapi("SlotListingEntry");

const BookingRoomTable = TableSchema.extend({
  free: z.boolean().openapi({ description: "no active reservation blocks the table for this party at this time" }),
  closed: z.boolean().openapi({ description: "a closure covers the table at this time" }),
  best_choice: z.boolean().openapi({ description: "with best_choice=true: the table the engine would give the party" }),
}).openapi("BookingRoomTable");

const BookingRoom = z
  .object({ id: z.number().int(), property_id: z.number().int(), name: z.string(), bookable: z.boolean(), tables: z.array(BookingRoomTable) })
  .openapi("BookingRoom");

const BookingLink = z
  .object({
    name: z.enum(["BOOKING_ENGINE_PAGE", "SERVICES_PAGE", "WELCOME_PAGE"]),
    link: z.string().openapi({ example: "https://book.example/p/pk_3f2a/book" }),
  })
  .openapi("BookingLink");

const base = { tags: ["Bookings"], security: bearerSecurity };

const slotsRoute = createRoute({
  ...base,
  method: "get",
  path: "/slots",
  summary: "Bookable times of 7 days",
  description:
    "One entry per day from start_date (default: today in the property's time zone) to start_date + 6 days (never past " +
    "9999-12-31), with each service running that day, its bookable start times for the party and the detail of every time on " +
    "its grid, with the `reason` of each time that cannot be booked. Online rules apply: online tables and services, min " +
    "notice, booking window, pacing. A service past midnight lists its late times under the day it started (book them on " +
    "the next calendar date). out_of_order absent or false: closures are ignored and nothing is disabled (SPEC); true: a " +
    "time is disabled when every table is closed to a party starting then. Answers are never stale: a listing is served " +
    "again only within the minute it was worked out and while no booking, change, catalog or settings edit touched the restaurant; " +
    "`Cache-Control: no-cache` reads the holds again and works the listing out afresh.",
  request: {
    headers: propertyHeader,
    query: z.object({
      start_date: dateOrDateTime.optional().openapi({ param: { name: "start_date", in: "query" }, example: "2026-12-05" }),
      pax: queryPax.default(2).openapi({ param: { name: "pax", in: "query" }, description: "party size (default 2)", example: 2 }),
      service_id: queryId.optional().openapi({ param: { name: "service_id", in: "query" }, description: "only this service" }),
      out_of_order: queryBoolean.optional().openapi({ param: { name: "out_of_order", in: "query" }, description: "true or 1: honour closures" }),
      out_of_service: queryBoolean.optional().openapi({ param: { name: "out_of_service", in: "query" }, description: "SPEC's other name for out_of_order" }),
    }),
  },
  responses: {
    200: json(envelope(SlotEntry), "7 days of slots"),
    ...errorResponses(...PROPERTY_SCOPED, "service_forbidden", "service_not_found", "no_service_available", "no_room_available"),
  },
});

const roomsRoute = createRoute({
  ...base,
  method: "get",
  path: "/rooms",
  summary: "Rooms and tables at one time, with which are free",
  description:
    "`data` holds one array of rooms, each with all its tables. `free`: no reservation blocks the table for this party; " +
    "with best_choice=true the table the engine would give the party is marked. Staff rules apply (offline tables count). " +
    "No table can seat the party: 206 \"no room available\".",
  request: {
    headers: propertyHeader,
    query: z.object({
      start_date: dateField.openapi({ param: { name: "start_date", in: "query" }, type: "string", example: "2026-12-05" }),
      start_hour: hourField.openapi({ param: { name: "start_hour", in: "query" }, type: "string", example: "20:00:00" }),
      pax: queryPax.openapi({ param: { name: "pax", in: "query" }, example: 2 }),
      service_id: queryId.optional().openapi({ param: { name: "service_id", in: "query" } }),
      best_choice: queryBoolean.optional().openapi({ param: { name: "best_choice", in: "query" }, description: "mark the best table" }),
    }),
  },
  responses: {
    200: json(z.object({ data: z.array(z.array(BookingRoom)) }), "the rooms"),
    ...errorResponses(...PROPERTY_SCOPED, "service_forbidden", "service_not_found", "no_service_available"),
    206: { description: "no room available", content: { "application/problem+json": { schema: z.object({ title: z.string() }) } } },
  },
});

const linksRoute = (path: string, summary: string) =>
  createRoute({
    ...base,
    method: "get",
    path,
    summary,
    description: "WELCOME_PAGE, SERVICES_PAGE and BOOKING_ENGINE_PAGE: the hosted pages of the property, by its public key.",
    request: { headers: propertyHeader },
    responses: { 200: json(envelope(BookingLink), "the three links"), ...errorResponses(...PROPERTY_SCOPED) },
  });

export function bookingLinks(origin: string, publicKey: string) {
  const home = `${origin}/p/${publicKey}`;
  return [
    { name: "BOOKING_ENGINE_PAGE" as const, link: `${home}/book` },
    { name: "SERVICES_PAGE" as const, link: `${home}/services` },
    { name: "WELCOME_PAGE" as const, link: home },
  ];
}

const links: RouteHandler<ReturnType<typeof linksRoute>, AppEnv> = (c) =>
  c.json({ data: bookingLinks(config(c.env).publicOrigin, c.get("property").publicKey) }, 200);

export const bookingsRouter = createRouter()
  .openapi(slotsRoute, async (c) => {
    const q = c.req.valid("query");
    const outOfOrder = q.out_of_order ?? q.out_of_service ?? false;
    const read = preloaded.get(c);
    const usable = read && read.read.firstDate === q.start_date && read.read.closures === outOfOrder ? read : undefined;
    const data = await slotListing(c.get("db"), c.get("property"), { ...q, out_of_order: outOfOrder, fresh: wantsFresh(c) }, usable);
    return c.json({ data }, 200);
  })
  .openapi(roomsRoute, async (c) => {
    const q = c.req.valid("query");
    const property = c.get("property");
    const { catalog, holds } = await loadAvailability(c.get("db"), property, q.start_date, q.start_date);
    const engine = new Availability(catalog, holds, now());
    const start = localMinutes(q.start_date, q.start_hour);
    // By the service day: 00:30 belongs to last night's service when it runs past midnight.
    const covers = (s: EngineService) => {
      const day = serviceDayOf(s, start);
      const [first, last] = serviceSpan(s, day);
      return serviceRunsOn(s, day) && start >= first && start <= last;
    };
    let service: EngineService | undefined;
    if (q.service_id !== undefined) {
      service = namedService(catalog.services, q.service_id, false);
      if (!covers(service)) throw new ApiError("no_service_available", `service ${service.id} does not run at ${q.start_date} ${q.start_hour}`);
    } else {
      service = catalog.services.find((s) => s.enabled && covers(s));
      if (!service) throw new ApiError("no_service_available", `no service runs at ${q.start_date} ${q.start_hour}`);
    }
    const stay = stayMinutes(q.pax, catalog.settings, service);
    const usable = engine.usableTables("staff");
    if (!usable.some((t) => t.guestsMin <= q.pax && q.pax <= t.guestsMax)) {
      throw new ApiError("no_room_available", `no bookable table seats a party of ${q.pax}`, { status: 206 });
    }
    const best = q.best_choice
      ? bestChoice(engine.freeTables({ pax: q.pax, start, stay, date: q.start_date, mode: "staff", serviceId: service.id }), q.pax)
      : undefined;
    const data = catalog.rooms.map((room) => ({
      id: room.id,
      property_id: property.id,
      name: room.name,
      bookable: room.bookable,
      tables: catalog.tables
        .filter((t) => t.roomId === room.id)
        .map((t) => ({
          ...toTableDto(t),
          free: engine.isFree(t, start, stay),
          closed: engine.isClosed(t, q.start_date, start, service.id, stay),
          best_choice: best?.id === t.id,
        })),
    }));
    return c.json({ data: [data] }, 200);
  })
  .openapi(linksRoute("/list", "The booking links of the property"), links)
  .openapi(linksRoute("/links", "The booking links (the path of SPEC's example)"), links);
