/**
 * The public widget API: what `<booking-engine>` and the hosted pages exchange with
 * the Worker under `/api/v2/public/<public_key>/`. No token; CORS open; limited per IP.
 *
 * The Worker validates with these schemas; the widget imports only the types (`import type`), so
 * zod never reaches the bundle.
 *
 *   GET    /api/v2/public/{public_key}[?locale]         -> { data: [PublicProfile] }
 *   GET    /api/v2/public/{public_key}/services[?locale] -> { data: PublicService[] }
 *   GET    /api/v2/public/{public_key}/slots?date&pax[&days][&service_id][&locale]
 *                                                       -> { data: PublicSlotDay[] }
 *   POST   /api/v2/public/{public_key}/reservations     PublicBookingInput -> 201 { data: [PublicBooking] }
 *   GET    /api/v2/public/{public_key}/manage/{token}   -> { data: [PublicReservation] }
 *   PATCH  /api/v2/public/{public_key}/manage/{token}   PublicChangeInput -> { data: [PublicReservation] } (moved)
 *   DELETE /api/v2/public/{public_key}/manage/{token}   -> { data: [PublicReservation] } (status CANCELLED)
 *   GET    /api/v2/public/{public_key}/pay/{token}      -> { data: [PublicPay] } (404 once nothing is owed)
 *
 * `locale` picks the restaurant's own texts (welcome message, service names and descriptions) in
 * that language where `settings.translations` has them, the defaults elsewhere.
 *
 * Errors are the API's problem+json. A time taken meanwhile is 409 "time no longer available" with
 * `alternatives`: the nearest free times of that day (at most 6, nearest first).
 */
import { z } from "zod";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "./payment.js";
import { dateString, hourString, LOCALES, lineField, OCCASIONS, textField } from "./schemas.js";

export const PublicProfile = z.object({
  public_key: z.string(),
  name: z.string(),
  welcome_message: z.string().nullable(),
  logo_url: z.string().nullable(),
  photos: z.array(z.string()),
  accent_color: z.string().nullable(),
  timezone: z.string(),
  locale: z.enum(LOCALES),
  /** largest party bookable online */
  max_online_pax: z.number().int(),
  /** first and last bookable dates, in the restaurant's zone */
  first_date: z.string(),
  last_date: z.string(),
  /** minutes before the start until which a guest may cancel */
  cancel_notice: z.number().int(),
  /** minutes a waiting-list offer holds: a freed table is emailed to the waiting party, theirs if claimed in that time */
  offer_minutes: z.number().int(),
  /** where the restaurant is; null when it gave no street or city */
  address: z
    .object({
      street: z.string().nullable(),
      city: z.string().nullable(),
      zip: z.string().nullable(),
      country: z.string().nullable(),
    })
    .nullable(),
  /** for a map link; null when unknown */
  position: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
});
export type PublicProfile = z.infer<typeof PublicProfile>;

/** What booking a service pays (its policy): the widget shows the amount and the refund rule before the guest confirms. */
export const PublicPaymentPolicy = z.object({
  mode: z.enum(PAYMENT_MODES),
  /** minor units, per guest or per booking; 0 for a guarantee */
  amount: z.number().int(),
  per: z.enum(["guest", "booking"]),
  currency: z.string(),
  /** only parties of this size or more pay */
  from_pax: z.number().int(),
  /** minutes before the start until which a guest's cancellation is refunded in full */
  refund_until: z.number().int(),
  /** guarantee: minor units per guest charged for a no-show */
  no_show_fee: z.number().int().nullable(),
});
export type PublicPaymentPolicy = z.infer<typeof PublicPaymentPolicy>;

/** A booking's money, as its guest sees it. */
export const PublicPayment = z.object({
  mode: z.enum(PAYMENT_MODES),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount_refunded: z.number().int(),
  /** ISO instant: a cancellation before it is refunded in full, later the money is kept */
  refund_until: z.string(),
  no_show_fee: z.number().int().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** ISO instant until which the booking waits for its payment (PREPAY); null once settled */
  due_at: z.string().nullable(),
  /** what a cancellation by the guest now gives back (minor units): all that is left before the deadline, 0 after */
  refund_if_cancelled: z.number().int(),
  /** a refund owed since the booking was cancelled, not yet made at Stripe (minor units; retried until it is); 0: none */
  refund_pending: z.number().int(),
});
export type PublicPayment = z.infer<typeof PublicPayment>;

export const PublicService = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  pax_min: z.number().int(),
  pax_max: z.number().int().nullable(),
  /** ISO weekdays, 1 = Monday */
  weekdays: z.array(z.number().int()),
  start_hour: z.string(),
  end_hour: z.string(),
  payment: PublicPaymentPolicy.nullable(),
});
export type PublicService = z.infer<typeof PublicService>;

export const PublicSlotsQuery = z.object({
  /** default: the first day bookable online (the profile's first_date) */
  date: dateString.optional(),
  pax: z.coerce.number().int().min(1).max(1000),
  /** how many days from `date` (default 1, at most 14) */
  days: z.coerce.number().int().min(1).max(14).default(1),
  service_id: z.coerce.number().int().min(1).optional(),
});

/** One day: every time bookable online for the party, per service, closures honoured. */
export const PublicSlotDay = z.object({
  date: z.string(),
  services: z.array(
    z.object({
      service_id: z.number().int(),
      name: z.string(),
      /**
       * the service's first start: a time earlier than it is past midnight, listed under the day
       * the service started and booked on the next calendar date
       */
      start_hour: z.string(),
      /** HH:MM:SS, wall-clock in the restaurant's zone, in the order of the service; only times that can be booked */
      times: z.array(z.string()),
      /** a waiting-list request is accepted for this service and day: `full_times` is not empty */
      waiting_list: z.boolean(),
      /**
       * HH:MM:SS, ascending: times that pass every rule for the party but whose fitting tables are
       * all taken; a booking with `waiting_list: true` at one of them puts the party on the waiting list
       */
      full_times: z.array(z.string()),
      /** what booking this service pays; null: nothing */
      payment: PublicPaymentPolicy.nullable(),
    }),
  ),
});
export type PublicSlotDay = z.infer<typeof PublicSlotDay>;

export const PublicGuest = z.object({
  first_name: lineField(100).min(1),
  last_name: lineField(100).min(1),
  email: z.string().trim().email().max(254),
  phone: lineField(40).min(5).optional(),
});

export const PublicBookingInput = z.object({
  service_id: z.number().int().min(1).optional(),
  date: dateString,
  // Times are on the service's grid: whole minutes.
  hour: hourString.refine((h) => h.endsWith(":00"), "expected a time HH:MM (seconds must be 00)"),
  pax: z.number().int().min(1).max(1000),
  guest: PublicGuest,
  /** the guest's request for the restaurant */
  special_request: textField(1000).optional(),
  /** the earlier name of special_request, still accepted */
  notes: textField(1000).optional(),
  occasion: z.enum(OCCASIONS).optional(),
  allergies: textField(500).optional(),
  /** true: put the party on the waiting list (status WAITING) when the time is full */
  waiting_list: z.boolean().default(false),
  /**
   * with `waiting_list: true` only: the latest start the party takes, a later time of the same
   * service and day; a table freed at any time from `hour` to it is offered (earliest first).
   * Without it, only `hour`.
   */
  waiting_until: hourString
    .refine((h) => h.endsWith(":00"), "expected a time HH:MM (seconds must be 00)")
    .optional(),
  locale: z.enum(LOCALES).optional(),
});
export type PublicBookingInput = z.input<typeof PublicBookingInput>;

/**
 * The guest moves the reservation: any of date, hour, party size and service; the
 * same rules as booking; one atomic move (the old time is kept until the new one is taken).
 */
export const PublicChangeInput = z
  .object({
    date: dateString.optional(),
    hour: hourString
      .refine((h) => h.endsWith(":00"), "expected a time HH:MM (seconds must be 00)")
      .optional(),
    pax: z.number().int().min(1).max(1000).optional(),
    service_id: z.number().int().min(1).optional(),
  })
  .refine(
    (c) => c.date !== undefined || c.hour !== undefined || c.pax !== undefined || c.service_id !== undefined,
    "give date, hour, pax or service_id",
  );
export type PublicChangeInput = z.input<typeof PublicChangeInput>;

/** A guest's own reservation, as the guest typed it: never another guest's data. */
export const PublicReservation = z.object({
  status: z.string(),
  date: z.string(),
  hour: z.string(),
  pax: z.number().int(),
  service: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  guest: z.object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
  }),
  /** the guest's special request (its earlier name; never the restaurant's own notes) */
  notes: z.string().nullable(),
  special_request: z.string().nullable(),
  occasion: z.enum(OCCASIONS).nullable(),
  allergies: z.string().nullable(),
  restaurant: z.object({ name: z.string(), timezone: z.string() }),
  /** ISO instant until which the guest may cancel; null once it passed, the party arrived or the status is final */
  cancellable_until: z.string().nullable(),
  /** the staff checked the party in: it is at the restaurant (and cannot cancel online) */
  arrived: z.boolean(),
  /** WAITING: the latest start the party takes (any time from `hour` to it); null: only `hour` */
  waiting_until: z.string().nullable(),
  /** what the booking pays; null when its service asks nothing */
  payment: PublicPayment.nullable(),
});
export type PublicReservation = z.infer<typeof PublicReservation>;

export const PublicBooking = PublicReservation.extend({
  /** the secret of `manage/{token}`, at least 128 bits, shown once */
  manage_token: z.string(),
  /** the hosted manage page: <origin>/p/<public_key>/manage/<token>, with ?locale= when the booking named one */
  manage_url: z.string(),
});
export type PublicBooking = z.infer<typeof PublicBooking>;

/**
 * A waiting-list offer, behind the link of its email:
 *   GET  /api/v2/public/{public_key}/offers/{token}          -> { data: [PublicOffer] }
 *   POST /api/v2/public/{public_key}/offers/{token}/claim    -> { data: [PublicOffer] } (reservation ACCEPTED)
 *   POST /api/v2/public/{public_key}/offers/{token}/decline  -> { data: [PublicOffer] } (passes to the next party)
 */
export const PublicOffer = z.object({
  state: z.enum(["open", "claimed", "declined", "expired"]),
  /** ISO instant until which the table waits for this guest */
  expires_at: z.string(),
  /** HH:MM:SS, the time offered (within the party's range; claiming books it); on the reservation's date */
  hour: z.string(),
  reservation: PublicReservation,
});
export type PublicOffer = z.infer<typeof PublicOffer>;

/** Extra member of the 409 problem when a time was taken meanwhile. */
export interface TimeTakenProblem {
  status: 409;
  title: string;
  code: "time_no_longer_available";
  alternatives: string[];
}

/**
 * What the payment step needs (the token is the manage link's): the intent's client secret for
 * Stripe.js, the platform's publishable key and the restaurant's account. Amounts come from the
 * service's policy, on the server.
 */
export const PublicPay = z.object({
  reservation_id: z.number().int(),
  mode: z.enum(PAYMENT_MODES),
  amount: z.number().int(),
  currency: z.string(),
  /** ISO instant: a cancellation before it is refunded in full */
  refund_until: z.string(),
  no_show_fee: z.number().int().nullable(),
  /** "payment": confirm with stripe.confirmPayment; "setup": save the card with stripe.confirmSetup */
  intent: z.enum(["payment", "setup"]),
  client_secret: z.string(),
  publishable_key: z.string(),
  stripe_account: z.string(),
  /** where to load Stripe.js from */
  stripe_js_url: z.string(),
  /** the booking's payment status: requires_payment, failed (a card declined: try another) */
  status: z.enum(PAYMENT_STATUSES),
  /** the last attempt's failure, in Stripe's words */
  failure: z.string().nullable(),
  /** ISO instant until which the table waits for the payment */
  due_at: z.string().nullable(),
});
export type PublicPay = z.infer<typeof PublicPay>;
