/** The reservation contracts: bodies, list filters and the response shapes the API documents. */
import { z } from "@hono/zod-openapi";
import { owesPayment, PAYMENT_MODES, PAYMENT_STATUSES, refundDeadline } from "../../shared/payment";
import {
  CHANNELS,
  LOCALES,
  lineField,
  OCCASIONS,
  type Occasion,
  RESERVATION_STATUSES,
  type ReservationStatus,
  textField,
} from "../../shared/schemas";
import { ActorSchema } from "../audit/audit.schemas";
import { stayEndDate, toLocalDateTime } from "../lib/localtime";
import { emailField } from "../lib/openapi";
import { paginationQuery } from "../lib/pagination";
import { dateField, hourField, queryBoolean, queryId, queryList } from "../lib/query";
import { localToUtc } from "../lib/zone";
import { HOLDING, parseStatusTarget } from "./machine";
import type { Related, ReservationRow } from "./reservations.repo";

const id = z.number().int().positive();
const tableIds = z
  .array(id)
  .min(1)
  .max(20)
  .refine((ids) => new Set(ids).size === ids.length, "table_ids must not repeat");
const pax = z.number().int().min(1).max(1000);
export const phoneField = z
  .string()
  .trim()
  .regex(
    /^\+?[0-9 ().\-/]{3,32}$/,
    "expected a phone number: digits, spaces, ( ) . - / and an optional leading +",
  );

const occasion = z
  .enum(OCCASIONS)
  .openapi({ description: "what the reservation celebrates", example: "birthday" });

/** A start on a whole minute (the engine works in minutes). */
const startHour = hourField.refine(
  (h) => h.endsWith(":00"),
  "start_hour must be on a whole minute (seconds 00)",
);

export const CustomerInput = z
  .object({
    id: id.optional().openapi({
      description:
        "an existing customer of the property, whose details given here replace theirs; otherwise matched by email, or by phone " +
        "when no email is given. A match is never rewritten: it only gets the details it lacks, and one whose typed name differs " +
        "stays as it is while the reservation keeps the guest as typed (`guest`)",
    }),
    first_name: lineField(100).min(1).optional(),
    last_name: lineField(100).min(1).optional(),
    email: emailField.optional(),
    phone: phoneField.optional(),
  })
  .openapi("CustomerInput");

export const ReservationCreate = z
  .object({
    start_date: dateField.openapi({ type: "string", example: "2026-12-05" }),
    start_hour: startHour.openapi({ type: "string", example: "20:00:00" }),
    pax: pax.openapi({ example: 2 }),
    channel: z.enum(CHANNELS).optional().openapi({
      description: "default PLATFORM_ADMIN (staff); SEARCHENGINE needs the search-engine feature",
    }),
    customer: CustomerInput.optional().openapi({
      description: "required (a name, and an email or a phone) unless status is OUTOFORDER",
    }),
    service_id: id,
    room_id: id.optional(),
    table_ids: tableIds.optional().openapi({
      description: "tables of one room, their seats adding up; absent: the engine picks the best table",
    }),
    waiting_list: z.boolean().optional().openapi({ description: "true: WAITING, holds no table" }),
    notes: textField(2000).optional().openapi({ description: "staff only: never shown to the guest" }),
    special_request: textField(2000).optional().openapi({ description: "the guest's own words" }),
    occasion: occasion.optional(),
    allergies: textField(1000).optional(),
    status: z.string().optional().openapi({
      description: "OUTOFORDER creates a staff block that closes tables; other values are ignored",
    }),
    duration: z
      .number()
      .int()
      .min(5)
      .max(1440)
      .optional()
      .openapi({ description: "staff only: minutes the tables are held, instead of the stay rules" }),
    override_pacing: z.boolean().optional().openapi({
      description:
        "staff only: book even when the service's pacing (covers or parties per interval) is reached",
    }),
    notify: z.boolean().optional().openapi({
      description:
        "false: the guest is not emailed about this reservation (default true, unless the property's email_staff_bookings is off)",
    }),
    locale: z
      .enum(LOCALES)
      .optional()
      .openapi({ description: "the guest's language for emails (default: the property's locale)" }),
  })
  .openapi("ReservationCreate", {
    example: {
      start_date: "2026-12-05",
      start_hour: "20:00:00",
      pax: 2,
      channel: "PLATFORM_ADMIN",
      customer: {
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@example.com",
        phone: "+39 055 123456",
      },
      service_id: 1,
      waiting_list: false,
    },
  });

export const ReservationUpdate = z
  .object({
    start_day: dateField.optional().openapi({ type: "string" }),
    start_date: dateField.optional().openapi({ type: "string", description: "accepted as start_day" }),
    start_hour: startHour.optional().openapi({ type: "string" }),
    pax: pax.optional(),
    service_id: id.optional(),
    room_id: id.optional(),
    table_ids: tableIds.optional(),
    customer: CustomerInput.optional(),
    notes: textField(2000).nullable().optional(),
    special_request: textField(2000).nullable().optional(),
    occasion: occasion.nullable().optional(),
    allergies: textField(1000).nullable().optional(),
    duration: z.number().int().min(5).max(1440).optional(),
    override_pacing: z
      .boolean()
      .optional()
      .openapi({ description: "a move (time, party, service) past the service's pacing" }),
    notify: z.boolean().optional().openapi({
      description: "false: the guest gets no more emails about this reservation; true: they do again",
    }),
    locale: z.enum(LOCALES).optional().openapi({ description: "the guest's language for emails" }),
  })
  .openapi("ReservationUpdate", {
    description:
      "Partial: only the fields given change. Read-only fields (id, status, channel, end_date) are ignored.",
    example: {
      start_day: "2026-12-06",
      start_hour: "20:30:00",
      pax: 4,
      service_id: 1,
      room_id: 1,
      table_ids: [2],
    },
  });

// Any case, and "declined" for REJECTED, as the status PATCH takes them.
const statusValue = z.string().transform((v, ctx) => {
  const status = parseStatusTarget(v);
  if (!status)
    ctx.addIssue({ code: "custom", message: `expected one of ${RESERVATION_STATUSES.join(", ")}` });
  return status!;
});
const statusList = queryList(statusValue, RESERVATION_STATUSES.length);
const idList = queryList(queryId, 30);

export const ListQuery = z
  .object({
    ...paginationQuery,
    start_date: dateField.optional().openapi({
      param: { name: "start_date", in: "query" },
      type: "string",
      description: "first day (default: today; with customer_id: no first day)",
    }),
    end_date: dateField.optional().openapi({
      param: { name: "end_date", in: "query" },
      type: "string",
      description: "last day, inclusive",
    }),
    start_hour: hourField.optional().openapi({
      param: { name: "start_hour", in: "query" },
      type: "string",
      description: "only reservations starting at or after this hour, on every day of the range",
    }),
    "status[]": statusList.optional().openapi({
      param: { name: "status[]", in: "query" },
      type: "array",
      items: { type: "string", enum: [...RESERVATION_STATUSES] },
    }),
    status: statusList.optional().openapi({
      param: { name: "status", in: "query" },
      type: "array",
      items: { type: "string" },
      description: "same as status[]",
    }),
    customer_id: queryId.optional().openapi({
      param: { name: "customer_id", in: "query" },
      type: "integer",
      description:
        "only this customer's reservations; without start_date and end_date, on any day (past ones too)",
    }),
    text_search: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .openapi({
        param: { name: "text_search", in: "query" },
        description:
          'up to 100 characters that the customer\'s name (first, last, or "first last"), email or phone contains; letters in any case (beyond ASCII: as typed, lower case, capitals or Title Case); `%` and `_` are plain characters',
      }),
    "service_ids[]": idList.optional().openapi({
      param: { name: "service_ids[]", in: "query" },
      type: "array",
      items: { type: "integer" },
      description: "up to 30",
    }),
    "room_ids[]": idList.optional().openapi({
      param: { name: "room_ids[]", in: "query" },
      type: "array",
      items: { type: "integer" },
      description: "up to 30",
    }),
    incoming: queryBoolean.optional().openapi({
      param: { name: "incoming", in: "query" },
      description: "true: only holding reservations not checked in, starting now or later (false: no filter)",
    }),
    arrived: queryBoolean.optional().openapi({
      param: { name: "arrived", in: "query" },
      description: "true: only checked in and not checked out (false: no filter)",
    }),
    departed: queryBoolean.optional().openapi({
      param: { name: "departed", in: "query" },
      description: "true: only checked out (false: no filter)",
    }),
  })
  .refine((q) => !q.start_date || !q.end_date || q.end_date >= q.start_date, {
    message: "end_date must not be before start_date",
    path: ["end_date"],
  });

const ReservationTable = z
  .object({
    id: z.number().int(),
    name: z.string(),
    bookable: z.boolean(),
    online: z.boolean(),
    free: z.boolean().openapi({ description: "false while this reservation holds the table" }),
    group: z.boolean(),
    room_id: z.number().int(),
  })
  .openapi("ReservationTable");

/** The money of a booking whose service asks for it; no card number or Stripe secret is ever stored or shown. */
export const ReservationPayment = z
  .object({
    mode: z.enum(PAYMENT_MODES),
    amount: z.number().int().openapi({ description: "minor units taken when booking (0 for a guarantee)" }),
    currency: z.string().openapi({ example: "EUR" }),
    status: z.enum(PAYMENT_STATUSES),
    amount_refunded: z.number().int(),
    paid_at: z.string().nullable().openapi({ description: "when paid, or the card saved (UTC)" }),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    refund_until: z.string().openapi({
      description:
        "a guest's cancellation before this instant (UTC) is refunded in full; later the money is kept",
    }),
    no_show_fee: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "guarantee: what a no-show costs the party" }),
    no_show_charged: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "guarantee: the no-show fee once charged" }),
    failure: z
      .string()
      .nullable()
      .openapi({ description: "why the last attempt failed (a declined card); null after a success" }),
    refund_pending: z.number().int().openapi({
      description:
        "a refund owed since the booking was cancelled, not yet made at Stripe (minor units; retried until it is); 0: none",
    }),
    pay_url: z.string().nullable().openapi({
      description:
        "while the payment is owed (PREPAY, or ACCEPTED from the waiting list): the guest's hosted payment page (send it to the guest)",
    }),
  })
  .openapi("ReservationPayment");
export type ReservationPaymentDto = z.infer<typeof ReservationPayment>;

const reservationFields = {
  id: z.number().int(),
  pax: z.number().int(),
  status: z.enum(RESERVATION_STATUSES),
  customer: z
    .object({
      id: z.number().int(),
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      visits: z.number().int().openapi({
        description:
          "the customer's visits: reservations checked in (not cancelled or refused after), so a list can mark returning guests",
      }),
      allergies: z
        .string()
        .nullable()
        .openapi({ description: "the guest's standing allergies (the reservation's own are `allergies`)" }),
      tags: z.array(z.string()).openapi({ description: "the staff's tags of the guest (VIP...)" }),
      notes: z.string().nullable().openapi({ description: "staff only: the staff's notes on the guest" }),
    })
    .nullable()
    .openapi({ description: "the customer record the reservation belongs to, as it stands" }),
  guest: z
    .object({
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
    })
    .nullable()
    .openapi({
      description:
        "the guest as given for this reservation: differs from `customer` when someone booked with a known email or phone under another name",
    }),
  service: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  channel: z.enum(CHANNELS),
  room: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  start_hour: z.string().openapi({ example: "20:00:00" }),
  end_date: z.string().openapi({ description: "local wall clock, no zone", example: "2026-12-05T21:30:00" }),
  last_status_change: z.string().openapi({ description: "local wall clock", example: "2026-11-22T10:15:00" }),
  checkin_date: z.string().optional().openapi({
    description: "local wall clock with milliseconds; present after check-in",
    example: "2026-12-05T20:02:11.123",
  }),
  checkout_date: z.string().optional().openapi({ description: "present after check-out" }),
  expiration_date: z
    .string()
    .optional()
    .openapi({ description: "present after check-in: when the stay ends" }),
  payment_due_date: z
    .string()
    .optional()
    .openapi({ description: "PREPAY, or a payment owed: when the payment window closes" }),
  payment_due_at: z.string().optional().openapi({
    description: "PREPAY, or a payment owed: when the payment window closes (UTC instant)",
    example: "2026-12-01T18:15:00.000Z",
  }),
  payment: ReservationPayment.nullable().openapi({
    description: "read-only: what the booking pays through Stripe; null when its service asks nothing",
  }),
  notes: z.string().optional().openapi({ description: "staff only" }),
  special_request: z.string().optional().openapi({ description: "the guest's own words" }),
  occasion: z.enum(OCCASIONS).optional(),
  allergies: z.string().optional(),
  override_pacing: z
    .boolean()
    .optional()
    .openapi({ description: "present (true) when staff booked or moved it past the service's pacing" }),
  status_reason: z
    .enum(["no_show", "unpaid"])
    .optional()
    .openapi({ description: "EXPIRED: why (a party that never came, or a payment window that closed)" }),
  tables: z.array(ReservationTable),
  waiting_list: z.boolean(),
};

/** List and create responses carry start_date. */
export const ReservationListItem = z
  .object({ ...reservationFields, start_date: z.string().openapi({ example: "2026-12-05" }) })
  .openapi("ReservationListItem");
/** Single-record responses carry start_day. */
export const Reservation = z
  .object({ ...reservationFields, start_day: z.string().openapi({ example: "2026-12-05" }) })
  .openapi("Reservation");

export const HistoryItem = z
  .object({
    id: z
      .number()
      .int()
      .openapi({ description: "the entry's number within its reservation: 1, 2, ... in order" }),
    at: z.string().openapi({ description: "local wall clock with milliseconds" }),
    actor: z.string().openapi({
      description:
        "who made the change, as a key: staff:<id> (a member of staff in the console), client:<id> (an app), guest, searchengine or system; console:<property_id> on entries made before the console had staff",
      example: "staff:12",
    }),
    by: ActorSchema.openapi({ description: "who made the change, with their name" }),
    action: z.string().openapi({ example: "checkin" }),
    from_status: z.string().nullable(),
    to_status: z.string().nullable(),
    changes: z
      .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
      .openapi({ description: "field: [before, after]" }),
  })
  .openapi("ReservationHistoryItem");

/** PREPAY (its window counts, paying through Stripe or not), or a payment still owed. */
const owing = (r: ReservationRow) => r.status === "PREPAY" || owesPayment(r.status, r.payment);

/** A reservation's money as the API shows it, the refund deadline as an instant. */
function paymentDto(r: ReservationRow, tz: string): ReservationPaymentDto | null {
  const p = r.payment;
  if (!p) return null;
  const start = localToUtc(tz, r.startMin);
  return {
    mode: p.mode,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    amount_refunded: p.amount_refunded,
    paid_at: p.paid_at,
    card: p.card,
    refund_until: new Date(refundDeadline(start, p.refund_until)).toISOString(),
    no_show_fee: p.no_show_fee,
    no_show_charged: p.no_show_charged,
    failure: p.failure,
    refund_pending: p.refund_pending ?? 0,
    pay_url: null,
  };
}

/** The reservation's customer record as the API shows it, with their visits. */
function customerDto(r: ReservationRow, rel: Related) {
  const customer = r.customerId !== null ? rel.customers.get(r.customerId) : undefined;
  if (!customer) return null;
  const { id, firstName, lastName, email, phone, allergies, tags, notes } = customer;
  const visits = rel.visits.get(id) ?? 0;
  return {
    ...{ id, first_name: firstName, last_name: lastName, email, phone, visits },
    ...{ allergies: allergies ?? null, tags: tags ?? [], notes: notes ?? null },
  };
}

/** The reservation's tables as the API shows them (`free`: the reservation no longer holds them). */
function tablesDto(r: ReservationRow, rel: Related, free: boolean) {
  return r.tableIds.flatMap((tid) => {
    const t = rel.tables.get(tid);
    if (!t) return [];
    const { id, name, bookable, online } = t;
    return [{ id, name, bookable, online, free, group: t.isGroup, room_id: t.roomId }];
  });
}

/** A reservation as the API shows it; `dateKey` is start_date (lists, create) or start_day (single records). */
export function toReservationDto<K extends "start_date" | "start_day">(
  r: ReservationRow,
  rel: Related,
  tz: string,
  dateKey: K,
) {
  const service = r.serviceId !== null ? rel.services.get(r.serviceId) : undefined;
  const room = r.roomId !== null ? rel.rooms.get(r.roomId) : undefined;
  const holding = HOLDING.has(r.status as ReservationStatus);
  const dto = {
    id: r.id,
    pax: r.pax,
    status: r.status as ReservationStatus,
    customer: customerDto(r, rel),
    guest: r.guest ?? null,
    service: service ? { id: service.id, name: service.name } : null,
    channel: r.channel as (typeof CHANNELS)[number],
    room: room ? { id: room.id, name: room.name } : null,
    [dateKey]: r.startDate,
    start_hour: r.startHour,
    end_date: stayEndDate(tz, r.startMin, r.endMin),
    last_status_change: toLocalDateTime(tz, r.lastStatusChange),
    ...(r.checkinDate && { checkin_date: toLocalDateTime(tz, r.checkinDate, true) }),
    ...(r.checkoutDate && { checkout_date: toLocalDateTime(tz, r.checkoutDate, true) }),
    ...(r.expirationDate && { expiration_date: toLocalDateTime(tz, r.expirationDate) }),
    ...(r.paymentDueAt && owing(r) && { payment_due_date: toLocalDateTime(tz, r.paymentDueAt) }),
    ...(r.paymentDueAt && owing(r) && { payment_due_at: r.paymentDueAt }),
    payment: paymentDto(r, tz),
    ...(r.notes !== null && { notes: r.notes }),
    ...(r.specialRequest !== null && { special_request: r.specialRequest }),
    ...(r.occasion !== null && { occasion: r.occasion as Occasion }),
    ...(r.allergies !== null && { allergies: r.allergies }),
    ...(r.overridePacing && { override_pacing: true }),
    ...(r.statusReason !== null && { status_reason: r.statusReason as "no_show" | "unpaid" }),
    tables: tablesDto(r, rel, !holding),
    waiting_list: r.waitingList,
  };
  return dto as typeof dto & Record<K, string>;
}
