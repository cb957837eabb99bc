/**
 * The search engine's booking server (Reserve with Google, REST v3) and feeds under
 * <origin>/searchengine, for the partner's HTTP Basic credentials only (partner.ts). Each method
 * answers at its path with or without a trailing slash.
 */
import { createRoute, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import type { ErrorCode } from "../errors";
import { errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import * as h from "./searchengine.handlers";
import * as s from "./searchengine.schemas";

const base = { tags: ["searchengine"], security: [{ partner: [] }] };
const problems = (...codes: ErrorCode[]) => errorResponses("authentication_required", ...codes);
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

type Router = ReturnType<typeof createRouter>;
/** A v3 method at its path, and again with a trailing slash (kept out of the document). */
function method<R extends RouteConfig>(router: Router, route: R, handler: RouteHandler<R, AppEnv>) {
  // `as never`: checking a generic handler against openapi()'s conditional types costs tsc minutes
  router.openapi(createRoute(route), handler as never);
  router.openapi(createRoute({ ...route, path: `${route.path}/`, hide: true }), handler as never);
}

export const searchengineRouter = createRouter();
const r = searchengineRouter;

method(
  r,
  {
    ...base,
    method: "get",
    path: "/v3/HealthCheck",
    summary: "HealthCheck: the booking server is up",
    responses: { 200: json(z.object({}), "serving"), ...problems() },
  },
  (c) => c.json({}, 200),
);

method(
  r,
  {
    ...base,
    method: "post",
    path: "/v3/BatchAvailabilityLookup",
    summary: "BatchAvailabilityLookup: whether each slot can be booked now",
    description:
      "One answer per slot_time, in order, by the engine that decides online bookings. An unknown merchant, or one whose switch is off, has nothing available.",
    request: body(s.BatchAvailabilityLookupRequest),
    responses: { 200: json(s.BatchAvailabilityLookupResponse, "the slots' availability"), ...problems() },
  },
  async (c) => c.json(await h.lookupAvailability(c, c.req.valid("json")), 200),
);

method(
  r,
  {
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
  },
  async (c) => c.json(await h.book(c, c.req.valid("json")), 200),
);

method(
  r,
  {
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
  },
  async (c) => c.json(await h.changeBooking(c, c.req.valid("json")), 200),
);

method(
  r,
  {
    ...base,
    method: "post",
    path: "/v3/GetBookingStatus",
    summary: "GetBookingStatus: a booking's status",
    request: body(s.GetBookingStatusRequest),
    responses: { 200: json(s.GetBookingStatusResponse, "the status"), ...problems("booking_not_found") },
  },
  async (c) => c.json(await h.bookingStatus(c, c.req.valid("json")), 200),
);

method(
  r,
  {
    ...base,
    method: "post",
    path: "/v3/ListBookings",
    summary: "ListBookings: every booking of a search-engine user",
    request: body(s.ListBookingsRequest),
    responses: { 200: json(s.ListBookingsResponse, "the user's bookings, oldest first"), ...problems() },
  },
  async (c) => c.json(await h.userBookings(c, c.req.valid("json")), 200),
);

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

for (const [kind, summary] of Object.entries(FEEDS) as [h.FeedKind, string][]) {
  r.openapi(
    createRoute({
      ...base,
      method: "get",
      path: `/feeds/${kind}.json`,
      summary,
      request: { query: FeedQuery },
      responses: { 200: json(s.Feed, "the feed: complete, or one merchant's increment"), ...problems() },
    }),
    async (c) => {
      const only = c.req.valid("query").merchant_id;
      // the availability feed is written as it is worked out (its Response typed as the contract's JSON)
      if (kind === "availability") return (await h.availabilityFeed(c, only)) as never;
      return c.json(await h.feed(c, kind, only), 200);
    },
  );
}
