/**
 * The contracts of the public widget API under /api/v2/public/{public_key}: no token, CORS open,
 * limited per IP (app.ts). Unknown, deleted, disabled or expired properties all answer 404
 * "property not found", alike.
 */
import { createRoute } from "@hono/zod-openapi";
import type { ErrorCode } from "../errors";
import { envelope, errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import * as h from "./public.handlers";
import {
  BookingInputSchema,
  BookingSchema,
  ChangeSchema,
  KeyParam,
  LocaleQuery,
  ManageParam,
  ProfileSchema,
  ReservationSchema,
  ServiceSchema,
  SlotDaySchema,
  SlotsQuery,
  TimeTakenSchema,
} from "./public.schemas";

const base = { tags: ["public"] };

const NOT_FOUND: ErrorCode[] = ["property_not_found"];

const profileRoute = createRoute({
  ...base,
  method: "get",
  path: "/{public_key}",
  summary: "The restaurant's public profile",
  description:
    "Name, look, locale and zone, the largest party bookable online, the first and last bookable dates, the cancel notice, " +
    "and where to find the restaurant: address, position (for a map), phone and website. `locale` picks the welcome message's translation.",
  request: { params: KeyParam, query: LocaleQuery },
  responses: { 200: json(envelope(ProfileSchema), "the profile"), ...errorResponses(...NOT_FOUND) },
});

const servicesRoute = createRoute({
  ...base,
  method: "get",
  path: "/{public_key}/services",
  summary: "Services open to online booking",
  description:
    "Enabled, online, still valid services; pax_max is capped by the restaurant's max_online_pax. `locale` picks the names' and descriptions' translations.",
  request: { params: KeyParam, query: LocaleQuery },
  responses: { 200: json(envelope(ServiceSchema), "the services"), ...errorResponses(...NOT_FOUND) },
});

const slotsRoute = createRoute({
  ...base,
  method: "get",
  path: "/{public_key}/slots",
  summary: "Times bookable online",
  description:
    "One entry per day from `date` for `days` days, with each online service running that day and the times the party can book " +
    "now: online tables, notice and booking window, closures and pacing honoured. Exactly what POST reservations accepts. " +
    "A service past midnight lists its late times (those before its `start_hour`) under the day it started: book them on " +
    "the next calendar date. Days past 9999-12-31 are not listed. A party over max_online_pax is a 400.",
  request: { params: KeyParam, query: SlotsQuery },
  responses: {
    200: json(envelope(SlotDaySchema), "the days"),
    ...errorResponses(...NOT_FOUND, "service_not_found"),
  },
});

const createRouteDef = createRoute({
  ...base,
  method: "post",
  path: "/{public_key}/reservations",
  summary: "Book a table",
  description:
    "Channel PLATFORM_BOOK. Without service_id, the service is the one whose times include `hour`. waiting_list true books " +
    "normally when the time is free and answers status WAITING only when it is full. A time taken meanwhile is 409 " +
    '"time no longer available" with `alternatives`. `date` is the calendar date of the start (a time past midnight is on ' +
    "the day after the listing's). `special_request`, `occasion` and `allergies` are the guest's own (`notes`, the earlier " +
    "name of special_request, is still accepted). The answer shows what the guest typed, and the manage token, once. " +
    "Idempotency-Key is honoured per IP. A guest whose email or phone already holds the restaurant's " +
    '`max_online_bookings_per_guest` upcoming online bookings (waiting list included) is refused with 403 "guest booking limit reached".',
  request: {
    params: KeyParam,
    body: { content: { "application/json": { schema: BookingInputSchema } }, required: true },
  },
  responses: {
    201: json(envelope(BookingSchema), "the booking, with its manage token and link"),
    ...errorResponses(
      ...NOT_FOUND,
      "service_not_found",
      "booking_slot_not_available",
      "service_is_not_available",
      "service_not_available",
      "guest_booking_limit",
      "idempotency_key_in_use",
      "idempotency_key_reused",
      "payload_too_large",
      "unsupported_media_type",
    ),
    409: {
      description: "time no longer available; idempotency key in use",
      content: { "application/problem+json": { schema: TimeTakenSchema } },
    },
  },
});

const manageRoute = createRoute({
  ...base,
  method: "get",
  path: "/{public_key}/manage/{token}",
  summary: "The guest's own reservation",
  request: { params: ManageParam },
  responses: {
    200: json(envelope(ReservationSchema), "the reservation"),
    ...errorResponses(...NOT_FOUND, "reservation_not_found"),
  },
});

const changeRoute = createRoute({
  ...base,
  method: "patch",
  path: "/{public_key}/manage/{token}",
  summary: "Change the guest's own reservation",
  description:
    "Any of date, hour, pax and service_id (the service defaults to the reservation's, else the one whose times include the new hour). " +
    "The rules of an online booking; one atomic move: the old time stays the guest's until the new one is taken. A new time taken " +
    'meanwhile is 409 "time no longer available" with `alternatives`. Open until the start minus the cancel notice (403 after). ' +
    "Integrators see RESERVATION_UPDATED with previous_attributes.",
  request: {
    params: ManageParam,
    body: { content: { "application/json": { schema: ChangeSchema } }, required: true },
  },
  responses: {
    200: json(envelope(ReservationSchema), "the reservation, moved"),
    ...errorResponses(
      ...NOT_FOUND,
      "reservation_not_found",
      "cancel_notice_passed",
      "party_arrived",
      "reservation_not_available",
      "service_not_found",
      "booking_slot_not_available",
      "service_is_not_available",
      "service_not_available",
      "payload_too_large",
      "unsupported_media_type",
    ),
    409: {
      description: "time no longer available",
      content: { "application/problem+json": { schema: TimeTakenSchema } },
    },
  },
});

const cancelRoute = createRoute({
  ...base,
  method: "delete",
  path: "/{public_key}/manage/{token}",
  summary: "Cancel the guest's own reservation",
  description:
    'Until the start minus the cancel notice (403 "cancel notice passed" after), and not once the staff checked the party in ' +
    '(403 "party has arrived"). Safe to repeat: an already cancelled reservation is answered as it is.',
  request: { params: ManageParam },
  responses: {
    200: json(envelope(ReservationSchema), "the reservation, CANCELLED"),
    ...errorResponses(
      ...NOT_FOUND,
      "reservation_not_found",
      "cancel_notice_passed",
      "party_arrived",
      "reservation_not_available",
    ),
  },
});

export const publicRouter = createRouter()
  .openapi(profileRoute, (c) => h.profile(c, c.req.valid("param").public_key, c.req.valid("query").locale))
  .openapi(servicesRoute, (c) => h.services(c, c.req.valid("param").public_key, c.req.valid("query").locale))
  .openapi(slotsRoute, (c) => h.slots(c, c.req.valid("param").public_key, c.req.valid("query")))
  .openapi(createRouteDef, (c) => h.book(c, c.req.valid("param").public_key, c.req.valid("json")))
  .openapi(manageRoute, (c) => h.manage(c, c.req.valid("param")))
  .openapi(changeRoute, (c) => h.change(c, c.req.valid("param"), c.req.valid("json")))
  .openapi(cancelRoute, (c) => h.cancel(c, c.req.valid("param")));
