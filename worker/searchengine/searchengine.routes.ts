/**
 * The search engine's booking server (Reserve with Google, REST v3) and feeds under
 * <origin>/searchengine, for the partner's HTTP Basic credentials only (partner.ts). Each method
 * answers at its path with or without a trailing slash.
 */
import { createRoute, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { type ErrorCode, invalidInput } from "../errors";
import { errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import * as h from "./searchengine.handlers";
import * as s from "./searchengine.schemas";

const base = { tags: ["searchengine"], security: [{ partner: [] }] };
const problems = (...codes: ErrorCode[]) => errorResponses("authentication_required", ...codes);
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

/**
 * A v3 method again with a trailing slash (the partner may send either), kept out of the
 * document; its handler is the method's own (no path parameters, so the same input either way).
 */
const slashed = <R extends RouteConfig>(route: R): R => ({ ...route, path: `${route.path}/`, hide: true });

export const searchengineRouter = createRouter();
const r = searchengineRouter;

const healthCheck = createRoute({
  ...base,
  method: "get",
  path: "/v3/HealthCheck",
  summary: "HealthCheck: the booking server is up",
  responses: { 200: json(z.object({}), "serving"), ...problems() },
});
const healthCheckHandler: RouteHandler<typeof healthCheck, AppEnv> = (c) => c.json({}, 200);
r.openapi(healthCheck, healthCheckHandler).openapi(slashed(healthCheck), healthCheckHandler);

const availabilityLookup = createRoute({
  ...base,
  method: "post",
  path: "/v3/BatchAvailabilityLookup",
  summary: "BatchAvailabilityLookup: whether each slot can be booked now",
  description:
    "One answer per slot_time, in order, by the engine that decides online bookings. An unknown merchant, or one whose switch is off, has nothing available.",
  request: body(s.BatchAvailabilityLookupRequest),
  responses: { 200: json(s.BatchAvailabilityLookupResponse, "the slots' availability"), ...problems() },
});
const availabilityLookupHandler: RouteHandler<typeof availabilityLookup, AppEnv> = async (c) =>
  c.json(await h.lookupAvailability(c, c.req.valid("json")), 200);
r.openapi(availabilityLookup, availabilityLookupHandler).openapi(
  slashed(availabilityLookup),
  availabilityLookupHandler,
);

const createBooking = createRoute({
  ...base,
  method: "post",
  path: "/v3/CreateBooking",
  summary: "CreateBooking: book a slot on channel SEARCHENGINE",
  description:
    "Idempotent on idempotency_token. A refusal (slot taken, already booked by the user) is HTTP 200 with booking_failure.",
  request: body(s.CreateBookingRequest),
  responses: {
    200: json(s.BookingOutcome, "the booking, or booking_failure"),
    ...problems("service_unavailable"),
  },
});
const createBookingHandler: RouteHandler<typeof createBooking, AppEnv> = async (c) =>
  c.json(await h.book(c, c.req.valid("json")), 200);
r.openapi(createBooking, createBookingHandler).openapi(slashed(createBooking), createBookingHandler);

const updateBooking = createRoute({
  ...base,
  method: "post",
  path: "/v3/UpdateBooking",
  summary: "UpdateBooking: move, resize or cancel a booking",
  description:
    "status CANCELED cancels (within the restaurant's cancel notice); a new start_sec, duration_sec or party size moves the booking by the online rules.",
  request: body(s.UpdateBookingRequest),
  responses: {
    200: json(s.BookingOutcome, "the booking, or booking_failure"),
    ...problems("booking_not_found", "service_unavailable"),
  },
});
const updateBookingHandler: RouteHandler<typeof updateBooking, AppEnv> = async (c) =>
  c.json(await h.changeBooking(c, c.req.valid("json")), 200);
r.openapi(updateBooking, updateBookingHandler).openapi(slashed(updateBooking), updateBookingHandler);

const bookingStatus = createRoute({
  ...base,
  method: "post",
  path: "/v3/GetBookingStatus",
  summary: "GetBookingStatus: a booking's status",
  request: body(s.GetBookingStatusRequest),
  responses: { 200: json(s.GetBookingStatusResponse, "the status"), ...problems("booking_not_found") },
});
const bookingStatusHandler: RouteHandler<typeof bookingStatus, AppEnv> = async (c) =>
  c.json(await h.bookingStatus(c, c.req.valid("json")), 200);
r.openapi(bookingStatus, bookingStatusHandler).openapi(slashed(bookingStatus), bookingStatusHandler);

const listBookings = createRoute({
  ...base,
  method: "post",
  path: "/v3/ListBookings",
  summary: "ListBookings: every booking of a search-engine user",
  request: body(s.ListBookingsRequest),
  responses: { 200: json(s.ListBookingsResponse, "the user's bookings, oldest first"), ...problems() },
});
const listBookingsHandler: RouteHandler<typeof listBookings, AppEnv> = async (c) =>
  c.json(await h.userBookings(c, c.req.valid("json")), 200);
r.openapi(listBookings, listBookingsHandler).openapi(slashed(listBookings), listBookingsHandler);

const FEEDS: Record<h.FeedKind, string> = {
  merchants: "The merchant feed: restaurants whose search-engine switch is on",
  services: "The service feed: their services open to online booking",
  availability:
    "The availability feed: every start and party size over each booking window, with spots_total and spots_open",
};

const FeedQuery = z.object({
  merchant_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({
      param: { name: "merchant_id", in: "query" },
      description: "only this merchant: an increment (PROCESS_AS_INCREMENTAL), to look at or to upload alone",
    }),
});

const feedRoute = (kind: h.FeedKind) =>
  createRoute({
    ...base,
    method: "get",
    path: `/feeds/${kind}.json`,
    summary: FEEDS[kind],
    request: { query: FeedQuery },
    responses: { 200: json(s.Feed, "the feed: complete, or one merchant's increment"), ...problems() },
  });

for (const kind of ["merchants", "services"] as const)
  r.openapi(feedRoute(kind), async (c) =>
    c.json(await h.feed(c, kind, c.req.valid("query").merchant_id), 200),
  );

// The availability feed is written as it is worked out, a stream of the contract's JSON: the route
// is documented as the others, and served by a plain handler that validates its query alike.
r.openAPIRegistry.registerPath(feedRoute("availability"));
r.get("/feeds/availability.json", async (c) => {
  const query = FeedQuery.safeParse(c.req.query());
  if (!query.success) throw invalidInput(query.error, "query");
  return h.availabilityFeed(c, query.data.merchant_id);
});
