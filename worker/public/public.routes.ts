/**
 * The public widget API (CONTRACT 8, shared/public.ts) under /api/v2/public/{public_key}: no
 * token, CORS open, limited per IP (app.ts). Unknown, deleted, disabled or expired properties
 * all answer 404 "property not found", alike.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PublicBooking, PublicBookingInput, PublicChangeInput, PublicProfile, PublicReservation, PublicService, PublicSlotDay } from "../../shared/public";
import { dateString, LOCALES } from "../../shared/schemas";
import { config } from "../config";
import type { AppEnv, PropertyRow } from "../env";
import { ApiError, type ErrorCode } from "../errors";
import { envelope, errorResponses, json } from "../lib/openapi";
import { queryId, queryPax } from "../lib/query";
import { createRouter } from "../lib/router";
import { bindByPublicKey } from "../properties/binding";
import { bookOnline, cancelManaged, findManaged, onlineServices, profile, publicSlots, toPublicReservation } from "./guest";
import { changeManaged } from "./change";
import { guestVisible } from "./public.repo";

const base = { tags: ["public"] };

// shared/ schemas were built before the OpenAPI extension loaded: objects made here from their
// shapes validate the same and can carry names and examples.
const ProfileSchema = z.object(PublicProfile.shape).openapi("PublicProfile", {
  example: {
    public_key: "pk_3f2a9c0d1e",
    name: "Trattoria Demo",
    welcome_message: "Benvenuti!",
    logo_url: null,
    photos: [],
    accent_color: "#9c2f2f",
    timezone: "Europe/Rome",
    locale: "en",
    max_online_pax: 8,
    first_date: "2026-12-05",
    last_date: "2027-02-03",
    cancel_notice: 120,
    address: { street: "Via Roma 1", city: "Milano", zip: "20121", country: "IT" },
    position: { latitude: 45.4642, longitude: 9.19 },
    phone: "+39 02 1234567",
    website: "https://trattoria.example",
  },
});
const ServiceSchema = z.object(PublicService.shape).openapi("PublicService", {
  example: { id: 3, name: "Cena", description: "Dinner from the wood-fired oven", image_url: null, pax_min: 1, pax_max: 8, weekdays: [2, 3, 4, 5, 6, 7], start_hour: "19:00:00", end_hour: "22:30:00" },
});
const SlotDaySchema = z.object(PublicSlotDay.shape).openapi("PublicSlotDay", {
  example: {
    date: "2026-12-05",
    services: [{ service_id: 3, name: "Cena", start_hour: "19:00:00", times: ["19:00:00", "19:15:00", "21:30:00", "00:30:00"], waiting_list: true, full_times: ["20:00:00", "20:15:00"] }],
  },
});
const reservationExample = {
  status: "ACCEPTED",
  date: "2026-12-05",
  hour: "19:30:00",
  pax: 2,
  service: { id: 3, name: "Cena" },
  guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+39 055 123456" },
  notes: "a quiet table, please",
  special_request: "a quiet table, please",
  occasion: "birthday",
  allergies: "peanuts",
  restaurant: { name: "Trattoria Demo", timezone: "Europe/Rome" },
  cancellable_until: "2026-12-05T16:30:00.000Z",
  arrived: false,
};
export const ReservationSchema = z.object(PublicReservation.shape).openapi("PublicReservation", { example: reservationExample });
const BookingSchema = z.object(PublicBooking.shape).openapi("PublicBooking", {
  example: { ...reservationExample, manage_token: "Vx3…43 characters…Qk", manage_url: "https://book.example/p/pk_3f2a9c0d1e/manage/Vx3…Qk" },
});
const BookingInputSchema = z.object(PublicBookingInput.shape).openapi("PublicBookingInput", {
  example: {
    service_id: 3,
    date: "2026-12-05",
    hour: "19:30",
    pax: 2,
    guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+39 055 123456" },
    special_request: "a quiet table, please",
    occasion: "birthday",
    allergies: "peanuts",
    waiting_list: false,
  },
});
const TimeTakenSchema = z
  .object({
    type: z.string(),
    title: z.string().openapi({ example: "time no longer available" }),
    status: z.number().int().openapi({ example: 409 }),
    code: z.string().openapi({ example: "time_no_longer_available" }),
    detail: z.string(),
    request_id: z.string().nullable(),
    alternatives: z.array(z.string()).openapi({ description: "free times of that day and service, nearest first, at most 6", example: ["19:45:00", "19:15:00"] }),
  })
  .openapi("TimeTakenProblem");

export const publicKeyParam = z
  .string()
  .min(1)
  .max(100)
  .openapi({ param: { name: "public_key", in: "path" }, description: "the property's public key (booking links)", example: "pk_3f2a9c0d1e" });
const KeyParam = z.object({ public_key: publicKeyParam });
export const ManageParam = z.object({
  public_key: publicKeyParam,
  token: z.string().min(1).max(200).openapi({ param: { name: "token", in: "path" }, description: "the manage token of the confirmation", example: "Vx3…Qk" }),
});

const localeQuery = z
  .enum(LOCALES)
  .optional()
  .openapi({ param: { name: "locale", in: "query" }, description: "the restaurant's own texts in this language (settings.translations), the defaults where it has none", example: "it" });
const LocaleQuery = z.object({ locale: localeQuery });

// PublicSlotsQuery's rules, in plain digits as the integrator API's query fields ("1e1" is not 10).
const SlotsQuery = z.object({
  date: z.string().pipe(dateString).openapi({ param: { name: "date", in: "query" }, description: "first day, in the restaurant's zone", example: "2026-12-05" }),
  pax: queryPax.openapi({ param: { name: "pax", in: "query" }, type: "integer", description: "party size", example: 2 }),
  days: z
    .string()
    .regex(/^\d{1,2}$/, { message: "expected a number of days 1..14", abort: true })
    .transform(Number)
    .pipe(z.number().int().min(1).max(14))
    .optional()
    .openapi({ param: { name: "days", in: "query" }, type: "integer", description: "how many days from date (default 1, at most 14)", example: 7 }),
  service_id: queryId
    .optional()
    .openapi({ param: { name: "service_id", in: "query" }, type: "integer", description: "only this service" }),
  locale: localeQuery,
});

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
  description: "Enabled, online, still valid services; pax_max is capped by the restaurant's max_online_pax. `locale` picks the names' and descriptions' translations.",
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
  responses: { 200: json(envelope(SlotDaySchema), "the days"), ...errorResponses(...NOT_FOUND, "service_not_found") },
});

const createRouteDef = createRoute({
  ...base,
  method: "post",
  path: "/{public_key}/reservations",
  summary: "Book a table",
  description:
    "Channel PLATFORM_BOOK. Without service_id, the service is the one whose times include `hour`. waiting_list true books " +
    "normally when the time is free and answers status WAITING only when it is full. A time taken meanwhile is 409 " +
    "\"time no longer available\" with `alternatives`. `date` is the calendar date of the start (a time past midnight is on " +
    "the day after the listing's). `special_request`, `occasion` and `allergies` are the guest's own (`notes`, the earlier " +
    "name of special_request, is still accepted). The answer shows what the guest typed, and the manage token, once. " +
    "Idempotency-Key is honoured per IP. A guest whose email or phone already holds the restaurant's " +
    "`max_online_bookings_per_guest` upcoming online bookings (waiting list included) is refused with 403 \"guest booking limit reached\".",
  request: { params: KeyParam, body: { content: { "application/json": { schema: BookingInputSchema } }, required: true } },
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
    409: { description: "time no longer available; idempotency key in use", content: { "application/problem+json": { schema: TimeTakenSchema } } },
  },
});

const manageRoute = createRoute({
  ...base,
  method: "get",
  path: "/{public_key}/manage/{token}",
  summary: "The guest's own reservation",
  request: { params: ManageParam },
  responses: { 200: json(envelope(ReservationSchema), "the reservation"), ...errorResponses(...NOT_FOUND, "reservation_not_found") },
});

const ChangeSchema = z
  .object(PublicChangeInput.shape)
  .refine((c) => c.date !== undefined || c.hour !== undefined || c.pax !== undefined || c.service_id !== undefined, "give date, hour, pax or service_id")
  .openapi("PublicChangeInput", { example: { date: "2026-12-06", hour: "20:00", pax: 3 } });

const changeRoute = createRoute({
  ...base,
  method: "patch",
  path: "/{public_key}/manage/{token}",
  summary: "Change the guest's own reservation",
  description:
    "Any of date, hour, pax and service_id (the service defaults to the reservation's, else the one whose times include the new hour). " +
    "The rules of an online booking; one atomic move: the old time stays the guest's until the new one is taken. A new time taken " +
    "meanwhile is 409 \"time no longer available\" with `alternatives`. Open until the start minus the cancel notice (403 after). " +
    "Integrators see RESERVATION_UPDATED with previous_attributes.",
  request: { params: ManageParam, body: { content: { "application/json": { schema: ChangeSchema } }, required: true } },
  responses: {
    200: json(envelope(ReservationSchema), "the reservation, moved"),
    ...errorResponses(...NOT_FOUND, "reservation_not_found", "cancel_notice_passed", "party_arrived", "reservation_not_available", "service_not_found", "booking_slot_not_available", "service_is_not_available", "service_not_available", "payload_too_large", "unsupported_media_type"),
    409: { description: "time no longer available", content: { "application/problem+json": { schema: TimeTakenSchema } } },
  },
});

const cancelRoute = createRoute({
  ...base,
  method: "delete",
  path: "/{public_key}/manage/{token}",
  summary: "Cancel the guest's own reservation",
  description:
    "Until the start minus the cancel notice (403 \"cancel notice passed\" after), and not once the staff checked the party in " +
    "(403 \"party has arrived\"). Safe to repeat: an already cancelled reservation is answered as it is.",
  request: { params: ManageParam },
  responses: {
    200: json(envelope(ReservationSchema), "the reservation, CANCELLED"),
    ...errorResponses(...NOT_FOUND, "reservation_not_found", "cancel_notice_passed", "party_arrived", "reservation_not_available"),
  },
});

export async function guestProperty(c: Context<AppEnv>, publicKey: string): Promise<PropertyRow> {
  const property = await bindByPublicKey(c, publicKey);
  if (!property || !guestVisible(property)) throw new ApiError("property_not_found", "no restaurant takes online bookings under this key");
  return property;
}

export const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const publicRouter = createRouter()
  .openapi(profileRoute, async (c) => {
    const property = await guestProperty(c, c.req.valid("param").public_key);
    return c.json({ data: [profile(property, c.req.valid("query").locale)] }, 200);
  })
  .openapi(servicesRoute, async (c) => {
    const property = await guestProperty(c, c.req.valid("param").public_key);
    return c.json({ data: await onlineServices(c.get("db"), property, c.req.valid("query").locale) }, 200);
  })
  .openapi(slotsRoute, async (c) => {
    const property = await guestProperty(c, c.req.valid("param").public_key);
    const q = c.req.valid("query");
    const data = await publicSlots(c.get("db"), property, { date: q.date, pax: q.pax, days: q.days ?? 1, service_id: q.service_id, locale: q.locale });
    return c.json({ data }, 200, { "Cache-Control": "no-store" });
  })
  .openapi(createRouteDef, async (c) => {
    const property = await guestProperty(c, c.req.valid("param").public_key);
    const input = c.req.valid("json");
    const booked = await bookOnline(c.get("db"), property, input, config(c.env).linkSecret);
    // The guest's language follows them to the manage page.
    const locale = input.locale ? `?locale=${input.locale}` : "";
    const manageUrl = `${config(c.env).publicOrigin}/p/${encodeURIComponent(property.publicKey)}/manage/${booked.token}${locale}`;
    const reservation = toPublicReservation(property, booked.row, booked.guest, booked.serviceName);
    return c.json({ data: [{ ...reservation, manage_token: booked.token, manage_url: manageUrl }] }, 201, PRIVATE);
  })
  .openapi(manageRoute, async (c) => {
    const { public_key, token } = c.req.valid("param");
    const property = await guestProperty(c, public_key);
    const found = await findManaged(c.get("db"), property, token);
    return c.json({ data: [toPublicReservation(property, found.row, found.guest, found.serviceName)] }, 200, PRIVATE);
  })
  .openapi(changeRoute, async (c) => {
    const { public_key, token } = c.req.valid("param");
    const property = await guestProperty(c, public_key);
    const found = await changeManaged(c.get("db"), property, token, c.req.valid("json"));
    return c.json({ data: [toPublicReservation(property, found.row, found.guest, found.serviceName)] }, 200, PRIVATE);
  })
  .openapi(cancelRoute, async (c) => {
    const { public_key, token } = c.req.valid("param");
    const property = await guestProperty(c, public_key);
    const found = await cancelManaged(c.get("db"), property, token, config(c.env).linkSecret);
    return c.json({ data: [toPublicReservation(property, found.row, found.guest, found.serviceName)] }, 200, PRIVATE);
  });
