/** The shapes of the public widget API, its waiting-list offers and calendar entries included. */
import { z } from "@hono/zod-openapi";
import {
  PublicBooking,
  PublicBookingInput,
  PublicChangeInput,
  PublicOffer,
  PublicProfile,
  PublicReservation,
  PublicService,
  PublicSlotDay,
} from "../../shared/public";
import { dateString, LOCALES } from "../../shared/schemas";
import { pathSegment } from "../lib/openapi";
import { queryId, queryPax } from "../lib/query";

// shared/ schemas were built before the OpenAPI extension loaded: objects made here from their
// shapes validate the same and can carry names and examples.
export const ProfileSchema = z.object(PublicProfile.shape).openapi("PublicProfile", {
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
export const ServiceSchema = z.object(PublicService.shape).openapi("PublicService", {
  example: {
    id: 3,
    name: "Cena",
    description: "Dinner from the wood-fired oven",
    image_url: null,
    pax_min: 1,
    pax_max: 8,
    weekdays: [2, 3, 4, 5, 6, 7],
    start_hour: "19:00:00",
    end_hour: "22:30:00",
  },
});
export const SlotDaySchema = z.object(PublicSlotDay.shape).openapi("PublicSlotDay", {
  example: {
    date: "2026-12-05",
    services: [
      {
        service_id: 3,
        name: "Cena",
        start_hour: "19:00:00",
        times: ["19:00:00", "19:15:00", "21:30:00", "00:30:00"],
        waiting_list: true,
        full_times: ["20:00:00", "20:15:00"],
      },
    ],
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
  waiting_until: null,
};
export const ReservationSchema = z
  .object(PublicReservation.shape)
  .openapi("PublicReservation", { example: reservationExample });
export const BookingSchema = z.object(PublicBooking.shape).openapi("PublicBooking", {
  example: {
    ...reservationExample,
    manage_token: "Vx3…43 characters…Qk",
    manage_url: "https://book.example/p/pk_3f2a9c0d1e/manage/Vx3…Qk",
  },
});
export const BookingInputSchema = z.object(PublicBookingInput.shape).openapi("PublicBookingInput", {
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
export const TimeTakenSchema = z
  .object({
    type: z.string(),
    title: z.string().openapi({ example: "time no longer available" }),
    status: z.number().int().openapi({ example: 409 }),
    code: z.string().openapi({ example: "time_no_longer_available" }),
    detail: z.string(),
    request_id: z.string().nullable(),
    alternatives: z.array(z.string()).openapi({
      description: "free times of that day and service, nearest first, at most 6",
      example: ["19:45:00", "19:15:00"],
    }),
  })
  .openapi("TimeTakenProblem");

export const publicKeyParam = pathSegment(100).openapi({
  param: { name: "public_key", in: "path" },
  description: "the property's public key (booking links)",
  example: "pk_3f2a9c0d1e",
});
export const KeyParam = z.object({ public_key: publicKeyParam });
export const ManageParam = z.object({
  public_key: publicKeyParam,
  token: pathSegment(200).openapi({
    param: { name: "token", in: "path" },
    description: "the manage token of the confirmation",
    example: "Vx3…Qk",
  }),
});

const localeQuery = z
  .enum(LOCALES)
  .optional()
  .openapi({
    param: { name: "locale", in: "query" },
    description:
      "the restaurant's own texts in this language (settings.translations), the defaults where it has none",
    example: "it",
  });
export const LocaleQuery = z.object({ locale: localeQuery });

// PublicSlotsQuery's rules, in plain digits as the integrator API's query fields ("1e1" is not 10).
export const SlotsQuery = z.object({
  date: z
    .string()
    .pipe(dateString)
    .openapi({
      param: { name: "date", in: "query" },
      description: "first day, in the restaurant's zone",
      example: "2026-12-05",
    }),
  pax: queryPax.openapi({
    param: { name: "pax", in: "query" },
    type: "integer",
    description: "party size",
    example: 2,
  }),
  days: z
    .string()
    .regex(/^\d{1,2}$/, { message: "expected a number of days 1..14", abort: true })
    .transform(Number)
    .pipe(z.number().int().min(1).max(14))
    .optional()
    .openapi({
      param: { name: "days", in: "query" },
      type: "integer",
      description: "how many days from date (default 1, at most 14)",
      example: 7,
    }),
  service_id: queryId.optional().openapi({
    param: { name: "service_id", in: "query" },
    type: "integer",
    description: "only this service",
  }),
  locale: localeQuery,
});

export const ChangeSchema = z
  .object(PublicChangeInput.shape)
  .refine(
    (c) => c.date !== undefined || c.hour !== undefined || c.pax !== undefined || c.service_id !== undefined,
    "give date, hour, pax or service_id",
  )
  .openapi("PublicChangeInput", { example: { date: "2026-12-06", hour: "20:00", pax: 3 } });

export const OfferSchema = z
  .object({ ...PublicOffer.shape, reservation: ReservationSchema })
  .openapi("PublicOffer");
export const OfferParam = z.object({
  public_key: publicKeyParam,
  token: pathSegment(200).openapi({
    param: { name: "token", in: "path" },
    description: "the token of the offer's email",
    example: "Qm9…",
  }),
});
