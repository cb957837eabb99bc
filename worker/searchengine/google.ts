/**
 * The search engine's booking server (Reserve with Google, Maps Booking API v3) in
 * our terms, and back. Pure: no Hono, no drizzle. Times: `start_sec` is the UTC epoch second of
 * the restaurant's wall-clock start in its zone; a wall-clock time a DST night repeats has one
 * canonical instant (localToUtc's), so it is offered, and booked, once; one it skips has none.
 */
import type { ReservationStatus } from "../../shared/schemas";
import { fromLocalMinutes, localMinutes, localToUtc, zonedParts } from "../lib/localtime";

/** BookingStatus of the v3 API. */
export const BOOKING_STATUSES = [
  "BOOKING_STATUS_UNSPECIFIED",
  "CONFIRMED",
  "PENDING_MERCHANT_CONFIRMATION",
  "PENDING_CLIENT_CONFIRMATION",
  "CANCELED",
  "NO_SHOW",
  "NO_SHOW_PENALIZED",
  "FAILED",
  "DECLINED_BY_MERCHANT",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** The BookingFailure causes this server answers (HTTP 200). */
export const FAILURE_CAUSES = [
  "CAUSE_UNSPECIFIED",
  "SLOT_UNAVAILABLE",
  "SLOT_ALREADY_BOOKED_BY_USER",
  "OUTSIDE_CANCELLATION_WINDOW",
  "BOOKING_ALREADY_CANCELLED",
  "BOOKING_NOT_CANCELLABLE",
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

export interface BookingFailure {
  cause: FailureCause;
  description: string;
}

/**
 * Our statuses as the search engine's. PREPAY (a guest who still has to pay) and OUTOFORDER (a staff block)
 * are never search-engine bookings; they map to what they would mean to the user.
 */
export function bookingStatus(status: ReservationStatus, expiredUnpaid = false): BookingStatus {
  switch (status) {
    case "ACCEPTED":
    case "CONFIRMED":
      return "CONFIRMED";
    case "WAITING":
      return "PENDING_MERCHANT_CONFIRMATION";
    case "PREPAY":
      return "PENDING_CLIENT_CONFIRMATION";
    case "CANCELLED":
    case "OUTOFORDER":
      return "CANCELED";
    case "REJECTED":
      return "DECLINED_BY_MERCHANT";
    case "EXPIRED":
      return expiredUnpaid ? "FAILED" : "NO_SHOW";
  }
}

/** The UTC epoch second of local minutes in `timeZone`. */
export function startSecOf(timeZone: string, local: number): number {
  return localToUtc(timeZone, local) / 1000;
}

/**
 * The restaurant's wall-clock start of a `start_sec`, or undefined when the instant is not a
 * whole minute or is not the canonical instant of its wall-clock time (the other pass of a
 * repeated DST hour).
 */
export function slotLocal(
  timeZone: string,
  startSec: number,
): { date: string; hour: string; minutes: number } | undefined {
  if (!Number.isSafeInteger(startSec) || startSec % 60 !== 0) return undefined;
  const here = zonedParts(timeZone, startSec * 1000);
  if (startSecOf(timeZone, here.minutes) !== startSec) return undefined;
  return here;
}

/** int64 fields arrive as numbers or decimal strings (proto3 JSON). */
export function int64(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

// ---------- bookings ----------

/** A search-engine booking as stored: the reservation's fields the search engine sees. */
export interface BookingFacts {
  id: number;
  merchantId: string;
  serviceId: number | null;
  startMin: number;
  endMin: number;
  pax: number;
  status: ReservationStatus;
  expiredUnpaid: boolean;
  timeZone: string;
}

/** The user as the search engine gave it (user_information). */
export interface UserInformation {
  user_id: string;
  given_name?: string | undefined;
  family_name?: string | undefined;
  telephone?: string | undefined;
  email?: string | undefined;
}

/** A v3 Booking: the reservation's id, its slot, the user, the mapped status; nothing is prepaid. */
export function toBooking(b: BookingFacts, user: UserInformation) {
  return {
    booking_id: String(b.id),
    slot: {
      merchant_id: b.merchantId,
      service_id: b.serviceId === null ? "" : String(b.serviceId),
      start_sec: startSecOf(b.timeZone, b.startMin),
      duration_sec: (b.endMin - b.startMin) * 60,
      resources: { party_size: b.pax },
      confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS" as const,
    },
    user_information: user,
    status: bookingStatus(b.status, b.expiredUnpaid),
    payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" as const },
  };
}
export type Booking = ReturnType<typeof toBooking>;

// ---------- booking notifications ----------

/** What the outbox trigger copies for a notification (migrations/shard/0003). */
export interface NotificationSnapshot {
  id: number;
  propertyId: number;
  merchantId: string;
  timezone: string | null;
  serviceId: number | null;
  startMin: number;
  endMin: number;
  pax: number;
  status: ReservationStatus;
  /** the history action: "expired_unpaid" makes an EXPIRED booking FAILED */
  action: string;
  /** the history entry's {field: [before, after]} (reservations/history.ts) */
  changes: Record<string, [unknown, unknown]>;
}

export type MaskField = "status" | "startTime" | "duration" | "partySize";

/** Local minutes of the history's "YYYY-MM-DDTHH:MM:SS". */
const minutesOf = (local: string) => {
  const [date, hour] = local.split("T") as [string, string];
  return localMinutes(date, hour);
};

/**
 * The fields of the booking the change touched, as the notification API names them: a move of
 * the start is startTime (the end moving with it is no change of duration), a new length is
 * duration, a new party size partySize, a status that means something else to the search
 * engine is status.
 */
export function notificationMask(s: NotificationSnapshot): MaskField[] {
  const c = s.changes;
  const mask: MaskField[] = [];
  if (
    c.status &&
    bookingStatus(c.status[0] as ReservationStatus) !== bookingStatus(s.status, s.action === "expired_unpaid")
  )
    mask.push("status");
  const now = fromLocalMinutes(s.startMin);
  const oldStart = minutesOf(
    `${(c.start_date?.[0] as string) ?? now.date}T${(c.start_hour?.[0] as string) ?? now.hour}`,
  );
  if (oldStart !== s.startMin) mask.push("startTime");
  // end_date is the wall clock at the real end: the old stay is the real time between the two
  const tz = s.timezone ?? "UTC";
  const oldStay = c.end_date
    ? (localToUtc(tz, minutesOf(c.end_date[0] as string)) - localToUtc(tz, oldStart)) / 60000
    : s.endMin - s.startMin;
  if (oldStay !== s.endMin - s.startMin) mask.push("duration");
  if (c.pax && c.pax[0] !== s.pax) mask.push("partySize");
  return mask;
}

/** The body of PATCH .../notification/partners/{partner}/bookings/{id}?updateMask=...: what changed, named. */
export function notificationBody(
  partnerId: string,
  s: NotificationSnapshot,
  mask: MaskField[],
  timeZone: string,
) {
  const body: Record<string, unknown> = {
    name: `partners/${partnerId}/bookings/${s.id}`,
    merchantId: s.merchantId,
    serviceId: s.serviceId === null ? "" : String(s.serviceId),
  };
  if (mask.includes("startTime"))
    body.startTime = new Date(localToUtc(timeZone, s.startMin)).toISOString().replace(".000Z", "Z");
  if (mask.includes("duration")) body.duration = `${(s.endMin - s.startMin) * 60}s`;
  if (mask.includes("partySize")) body.partySize = s.pax;
  if (mask.includes("status")) body.status = bookingStatus(s.status, s.action === "expired_unpaid");
  return body;
}
