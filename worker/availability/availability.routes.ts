/** /bookings/slots, /bookings/rooms and the booking links of the property named by the Property header. */
import { createRoute, z } from "@hono/zod-openapi";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  PROPERTY_SCOPED,
  ProblemSchema,
  propertyHeader,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { links, rooms, slots } from "./availability.handlers";
import { BookingLink, BookingRoom, RoomsQuery, SlotEntry, SlotsQuery } from "./availability.schemas";

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
    "the next calendar date). out_of_order absent or false: closures are ignored and nothing is disabled; true: a " +
    "time is disabled when every table is closed to a party starting then. Answers are never stale: a listing is served " +
    "again only within the minute it was worked out and while no booking, change, catalog or settings edit touched the restaurant; " +
    "`Cache-Control: no-cache` reads the holds again and works the listing out afresh.",
  request: { headers: propertyHeader, query: SlotsQuery },
  responses: {
    200: json(envelope(SlotEntry), "7 days of slots"),
    ...errorResponses(
      ...PROPERTY_SCOPED,
      "service_forbidden",
      "service_not_found",
      "no_service_available",
      "no_room_available",
    ),
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
    'No table can seat the party: 206 "no room available".',
  request: { headers: propertyHeader, query: RoomsQuery },
  responses: {
    200: json(z.object({ data: z.array(z.array(BookingRoom)) }), "the rooms"),
    ...errorResponses(...PROPERTY_SCOPED, "service_forbidden", "service_not_found", "no_service_available"),
    206: {
      description: "no room available",
      content: { "application/problem+json": { schema: ProblemSchema } },
    },
  },
});

const linksRoute = (path: string, summary: string) =>
  createRoute({
    ...base,
    method: "get",
    path,
    summary,
    description:
      "WELCOME_PAGE, SERVICES_PAGE and BOOKING_ENGINE_PAGE: the hosted pages of the property, by its public key.",
    request: { headers: propertyHeader },
    responses: { 200: json(envelope(BookingLink), "the three links"), ...errorResponses(...PROPERTY_SCOPED) },
  });

export const bookingsRouter = createRouter()
  .openapi(slotsRoute, async (c) => c.json(await slots(c, c.req.valid("query")), 200))
  .openapi(roomsRoute, async (c) => c.json(await rooms(c, c.req.valid("query")), 200))
  .openapi(linksRoute("/list", "The booking links of the property"), (c) => c.json(links(c), 200))
  .openapi(linksRoute("/links", "The booking links (another path for /bookings/list)"), (c) =>
    c.json(links(c), 200),
  );
