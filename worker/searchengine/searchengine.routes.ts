/**
 * The search engine's booking server (Reserve with Google, REST v3) and feeds under
 * <origin>/searchengine (CONTRACT 12), for the partner's HTTP Basic credentials only. Each method
 * answers at its path with or without a trailing slash.
 */
import { createRoute, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError, type ErrorCode } from "../errors";
import { sha256Hex, timingSafeEqual } from "../lib/crypto";
import { callerKey } from "../lib/middleware";
import { errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { bindProperty } from "../properties/binding";
import { findByPublicKey } from "../shards/directory.repo";
import { guestVisible } from "../public/public.repo";
import { createBooking, lookupSlots, type Merchant, present, updateBooking } from "./bookings";
import { searchengineConfig } from "./config";
import { allMerchants, availabilityFeed, merchantFeed, serviceFeed } from "./feeds";
import { listUserBookings, locateBooking } from "./locate";
import * as s from "./searchengine.schemas";

const CHALLENGE = { "WWW-Authenticate": 'Basic realm="searchengine", charset="UTF-8"' };

/** The partner's credentials, compared as digests (no timing or length to learn); none configured: nobody passes. */
export function partnerAuth(): MiddlewareHandler<AppEnv> {
  return async function partnerAuthMiddleware(c, next) {
    const expected = searchengineConfig(c.env).credentials;
    const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(c.req.header("Authorization") ?? "");
    let given = "";
    try {
      given = match ? atob(match[1]!) : "";
    } catch {
      // not base64: no credentials
    }
    const ok = expected !== undefined && given !== "" && timingSafeEqual(await sha256Hex(given), await sha256Hex(`${expected.user}:${expected.password}`));
    if (!ok) {
      // Guessing costs a request each: failed attempts are limited per address (IPv6 per /64).
      const { success } = await c.env.PUBLIC_RATE_LIMITER.limit({ key: `bad-partner:${callerKey(c)}` });
      if (!success) throw new ApiError("too_many_requests", "too many failed authentications; retry after 60 seconds", { headers: { "Retry-After": "60" } });
      throw new ApiError("authentication_required", "send the search engine partner's credentials (HTTP Basic)", { headers: CHALLENGE });
    }
    c.header("Cache-Control", "no-store");
    await next();
  };
}

const base = { tags: ["searchengine"], security: [{ partner: [] }] };
const problems = (...codes: ErrorCode[]) => errorResponses("authentication_required", ...codes);
const body = <T extends z.ZodType>(schema: T) => ({ body: { content: { "application/json": { schema } }, required: true } });

type Router = ReturnType<typeof createRouter>;
/** A v3 method at its path, and again with a trailing slash (kept out of the document). */
function method<R extends RouteConfig>(router: Router, route: R, handler: RouteHandler<R, AppEnv>) {
  // `as never`: checking a generic handler against openapi()'s conditional types costs tsc minutes
  router.openapi(createRoute(route), handler as never);
  router.openapi(createRoute({ ...route, path: `${route.path}/`, hide: true }), handler as never);
}

/** The merchant behind a merchant_id, bound to its shard's primary; undefined when unknown, off or not visible. */
async function merchantOf(c: Context<AppEnv>, merchantId: string, write: boolean): Promise<Merchant | undefined> {
  const entry = await findByPublicKey(c.get("control"), merchantId);
  const property = entry && (await bindProperty(c, entry, { write, primary: true }));
  return property && property.searchengineEnabled && guestVisible(property) ? { db: c.get("db"), property, linkSecret: config(c.env).linkSecret } : undefined;
}

/**
 * The search-engine booking `bookingId` with its property bound to its shard's primary (a read
 * goes on while the property moves between shards, a write waits); 404 when there is none.
 */
async function bookingOf(c: Context<AppEnv>, bookingId: string, write: boolean) {
  const located = /^[1-9]\d{0,15}$/.test(bookingId) ? await locateBooking(c.env, c.get("control"), Number(bookingId)) : undefined;
  const property = located && (await bindProperty(c, located.entry, { write, primary: true }));
  if (!located || !property) throw new ApiError("booking_not_found", `no booking ${bookingId} was made through the search engine`);
  return { merchant: { db: c.get("db"), property, linkSecret: config(c.env).linkSecret }, row: located.row };
}

export const searchengineRouter = createRouter();
const r = searchengineRouter;

method(
  r,
  { ...base, method: "get", path: "/v3/HealthCheck", summary: "HealthCheck: the booking server is up", responses: { 200: json(z.object({}), "serving"), ...problems() } },
  (c) => c.json({}, 200),
);

method(
  r,
  {
    ...base,
    method: "post",
    path: "/v3/BatchAvailabilityLookup",
    summary: "BatchAvailabilityLookup: whether each slot can be booked now",
    description: "One answer per slot_time, in order, by the engine that decides online bookings. An unknown merchant, or one whose switch is off, has nothing available.",
    request: body(s.BatchAvailabilityLookupRequest),
    responses: { 200: json(s.BatchAvailabilityLookupResponse, "the slots' availability"), ...problems() },
  },
  async (c) => {
    const q = c.req.valid("json");
    return c.json({ slot_time_availability: await lookupSlots(await merchantOf(c, q.merchant_id, false), q.slot_time) }, 200);
  },
);

method(
  r,
  {
    ...base,
    method: "post",
    path: "/v3/CreateBooking",
    summary: "CreateBooking: book a slot on channel SEARCHENGINE",
    description: "Idempotent on idempotency_token. A refusal (slot taken, already booked by the user) is HTTP 200 with booking_failure.",
    request: body(s.CreateBookingRequest),
    responses: { 200: json(s.BookingOutcome, "the booking, or booking_failure"), ...problems("service_unavailable") },
  },
  async (c) => {
    const q = c.req.valid("json");
    return c.json(await createBooking(await merchantOf(c, q.slot.merchant_id, true), q), 200);
  },
);

method(
  r,
  {
    ...base,
    method: "post",
    path: "/v3/UpdateBooking",
    summary: "UpdateBooking: move, resize or cancel a booking",
    description: "status CANCELED cancels (within the restaurant's cancel notice); a new start_sec, duration_sec or party size moves the booking by the online rules.",
    request: body(s.UpdateBookingRequest),
    responses: { 200: json(s.BookingOutcome, "the booking, or booking_failure"), ...problems("booking_not_found", "service_unavailable") },
  },
  async (c) => {
    const q = c.req.valid("json").booking;
    const { merchant, row } = await bookingOf(c, q.booking_id, true);
    return c.json(await updateBooking(merchant, row, q), 200);
  },
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
  async (c) => {
    const { booking_id } = c.req.valid("json");
    const { merchant, row } = await bookingOf(c, booking_id, false);
    const [booking] = await present(merchant.db, [{ ...row, merchantId: merchant.property.publicKey, settings: merchant.property.settings }]);
    return c.json({ booking_id: booking!.booking_id, booking_status: booking!.status, prepayment_status: "PREPAYMENT_NOT_PROVIDED" as const }, 200);
  },
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
  async (c) => c.json({ bookings: await listUserBookings(c.env, c.get("control"), c.req.valid("json").user_id) }, 200),
);

const feeds = {
  merchants: { summary: "The merchant feed: restaurants whose search-engine switch is on", build: merchantFeed },
  services: { summary: "The service feed: their services open to online booking", build: serviceFeed },
  availability: { summary: "The availability feed: every start and party size over each booking window, with spots_total and spots_open", build: availabilityFeed },
} as const;

const FeedQuery = z.object({
  merchant_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ param: { name: "merchant_id", in: "query" }, description: "only this merchant: an increment (PROCESS_AS_INCREMENTAL), to look at or to upload alone" }),
});

for (const [kind, feed] of Object.entries(feeds)) {
  r.openapi(
    createRoute({
      ...base,
      method: "get",
      path: `/feeds/${kind}.json`,
      summary: feed.summary,
      request: { query: FeedQuery },
      responses: { 200: json(s.Feed, "the feed: complete, or one merchant's increment"), ...problems() },
    }),
    async (c) => {
      const only = c.req.valid("query").merchant_id;
      const merchants = await allMerchants(c.env, c.get("control"), only);
      return c.json((await feed.build(merchants, only === undefined)) as unknown as z.infer<typeof s.Feed>, 200);
    },
  );
}
