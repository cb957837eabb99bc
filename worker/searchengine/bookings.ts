/**
 * The booking server's methods over the reservation rules: the engine answers
 * availability, createReservation books on channel SEARCHENGINE in online mode (notice, window,
 * closures, online tables, and whatever else online bookings obey), the state machine cancels.
 * Business refusals are a BookingFailure (HTTP 200); the routes map only malformed input, auth
 * and unknown bookings to HTTP errors.
 */
import { type ReservationStatus, resolveSettings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability } from "../availability/engine";
import type { Db, PropertyRow } from "../env";
import { ApiError, invalidField } from "../errors";
import { now } from "../lib/clock";
import { addDays, localToUtc, zonedParts } from "../lib/localtime";
import { isSearchable } from "../public/guest";
import { act, type BookingContext, createReservation, updateReservation } from "../reservations/booking";
import { FINAL } from "../reservations/machine";
import type { ReservationRow } from "../reservations/reservations.repo";
import {
  type Booking,
  type BookingFailure,
  bookingStatus,
  type FailureCause,
  int64,
  slotLocal,
  toBooking,
  type UserInformation,
} from "./google";
import * as repo from "./searchengine.repo";

/** A merchant's property, bound to its shard. */
export interface Merchant {
  db: Db;
  property: PropertyRow;
  /** keys the waiting-list offer a cancellation may make (worker/messages/links.ts) */
  linkSecret?: string | undefined;
}

export type Outcome = { booking: Booking } | { booking_failure: BookingFailure };

const failure = (cause: FailureCause, description: string): Outcome => ({
  booking_failure: { cause, description },
});

/** Refusals of the rules that mean, to the search engine, "this slot is not available". */
const SLOT_REFUSALS = new Set([
  "booking_slot_not_available",
  "service_is_not_available",
  "service_not_available",
  "room_capacity_exceeded",
  "table_not_available",
  "service_not_found",
  // A banned guest is told what any guest of a full time is told, never why.
  "customer_is_banned",
]);

const ctxOf = (m: Merchant): BookingContext => ({
  db: m.db,
  property: m.property,
  actor: "searchengine",
  linkSecret: m.linkSecret,
});
const zoneOf = (p: PropertyRow) => resolveSettings(p.settings).timezone;

// ---------- slots ----------

export interface SlotInput {
  service_id: string;
  start_sec: number | string;
  resources?: { party_size?: number | string | undefined } | undefined;
  resource_ids?: { party_size?: number | string | undefined } | undefined;
}

interface Slot {
  serviceId: number;
  date: string;
  hour: string;
  start: number;
  pax: number;
}

/** A slot in our terms, or undefined when it cannot name a bookable time (unknown id, not a canonical start, no party). */
function parseSlot(timeZone: string, s: SlotInput): Slot | undefined {
  const startSec = int64(s.start_sec);
  const party = int64(s.resources?.party_size ?? s.resource_ids?.party_size);
  if (!/^[1-9]\d{0,14}$/.test(s.service_id) || startSec === undefined || party === undefined || party < 1)
    return undefined;
  const local = slotLocal(timeZone, startSec);
  return (
    local && {
      serviceId: Number(s.service_id),
      date: local.date,
      hour: local.hour,
      start: local.minutes,
      pax: party,
    }
  );
}

/**
 * BatchAvailabilityLookup: one answer per slot, in order, from one load of the days asked for
 * (within the booking window) and the same engine decision a booking makes.
 */
export async function lookupSlots<T extends SlotInput>(
  m: Merchant | undefined,
  slots: T[],
): Promise<{ slot_time: T; available: boolean }[]> {
  if (!m) return slots.map((slot_time) => ({ slot_time, available: false }));
  const settings = resolveSettings(m.property.settings);
  const today = zonedParts(settings.timezone, now()).date;
  const last = addDays(today, settings.max_days_ahead);
  const parsed = slots
    .map((s) => parseSlot(settings.timezone, s))
    .map((p) => (p && p.date >= today && p.date <= last ? p : undefined));
  const dates = parsed.flatMap((p) => (p ? [p.date] : [])).sort();
  if (!dates.length) return slots.map((slot_time) => ({ slot_time, available: false }));
  const { catalog, holds } = await loadAvailability(m.db, m.property, dates[0]!, dates.at(-1)!);
  const engine = new Availability(catalog, holds, now());
  const services = new Map(catalog.services.filter(isSearchable).map((s) => [s.id, s]));
  return slots.map((slot_time, i) => {
    const p = parsed[i];
    const service = p && services.get(p.serviceId);
    const available =
      !!service && engine.decide({ service, date: p.date, start: p.start, pax: p.pax, mode: "online" }).ok;
    return { slot_time, available };
  });
}

// ---------- bookings as the search engine sees them ----------

/** The v3 Bookings of rows of one property's shard, with the users as given and the unpaid expiries. */
export async function present(
  db: Db,
  rows: (ReservationRow & { merchantId: string; settings: unknown })[],
): Promise<Booking[]> {
  const ids = rows.map((r) => r.id);
  const [users, unpaid] = await Promise.all([
    repo.typedUsers(db, ids),
    repo.expiredUnpaid(
      db,
      rows.filter((r) => r.status === "EXPIRED").map((r) => r.id),
    ),
  ]);
  return rows.map((r) => {
    const typed = users.get(r.id) ?? {};
    const user: UserInformation = { user_id: r.searchengineUserId ?? "" };
    if (typed.first_name) user.given_name = typed.first_name;
    if (typed.last_name) user.family_name = typed.last_name;
    if (typed.phone) user.telephone = typed.phone;
    if (typed.email) user.email = typed.email;
    const timeZone = resolveSettings(r.settings).timezone;
    return toBooking(
      { ...r, status: r.status as ReservationStatus, expiredUnpaid: unpaid.has(r.id), timeZone },
      user,
    );
  });
}

const presentOne = async (m: Merchant, row: ReservationRow) =>
  (await present(m.db, [{ ...row, merchantId: m.property.publicKey, settings: m.property.settings }]))[0]!;

// ---------- CreateBooking ----------

export interface CreateBookingInput {
  slot: SlotInput;
  user_information: UserInformation;
  idempotency_token: string;
  additional_request?: string | undefined;
}

/**
 * CreateBooking: the booking of this idempotency token if there is one (exactly, even when two
 * requests with it race: the second meets the first's row), else a new SEARCHENGINE booking.
 */
export async function createBooking(m: Merchant | undefined, r: CreateBookingInput): Promise<Outcome> {
  if (!m) return failure("SLOT_UNAVAILABLE", "this merchant takes no bookings through the search engine");
  const known = await repo.bookingByToken(m.db, m.property.id, r.idempotency_token);
  if (known) return { booking: await presentOne(m, known) };
  const slot = parseSlot(zoneOf(m.property), r.slot);
  if (!slot) return failure("SLOT_UNAVAILABLE", "the slot names no bookable time of this merchant");
  const user = r.user_information;
  // The restaurant must be able to name and reach its guest.
  if (!user.given_name && !user.family_name)
    throw invalidField("user_information.given_name", "give the user's given_name or family_name");
  if (!user.email && !user.telephone)
    throw invalidField("user_information.telephone", "give the user's telephone or email");
  if (await repo.userBooked(m.db, m.property.id, user.user_id, slot.serviceId, slot.start)) {
    return failure("SLOT_ALREADY_BOOKED_BY_USER", "this user already holds a booking for this slot");
  }
  // What the lookup would answer, first: it also keeps out the services that take prepayment,
  // which a search-engine booking cannot pay (the write below decides again, atomically).
  if (!(await lookupSlots(m, [r.slot]))[0]!.available)
    return failure("SLOT_UNAVAILABLE", "this slot cannot be booked now");
  const guest = {
    first_name: user.given_name,
    last_name: user.family_name,
    email: user.email,
    phone: user.telephone,
  };
  const typed = Object.fromEntries(Object.entries(guest).map(([k, v]) => [k, v ?? null]));
  try {
    const row = await createReservation(
      ctxOf(m),
      {
        start_date: slot.date,
        start_hour: slot.hour,
        pax: slot.pax,
        service_id: slot.serviceId,
        customer: guest,
        special_request: r.additional_request,
      },
      "SEARCHENGINE",
      {
        searchengine: { userId: user.user_id, token: r.idempotency_token },
        history: { customer: [null, typed] },
      },
    );
    return { booking: await presentOne(m, row) };
  } catch (err) {
    const raced = await repo.bookingByToken(m.db, m.property.id, r.idempotency_token);
    if (raced) return { booking: await presentOne(m, raced) };
    if (err instanceof ApiError && SLOT_REFUSALS.has(err.code))
      return failure("SLOT_UNAVAILABLE", err.detail ?? err.title);
    // The documented causes: a guest at the restaurant's limit is refused as a banned one is
    if (err instanceof ApiError && err.code === "guest_booking_limit")
      return failure("SLOT_UNAVAILABLE", err.detail ?? err.title);
    throw err;
  }
}

// ---------- UpdateBooking ----------

export interface UpdateBookingInput {
  booking_id: string;
  slot?:
    | {
        start_sec?: number | string | undefined;
        duration_sec?: number | string | undefined;
        resources?: { party_size?: number | string | undefined } | undefined;
      }
    | undefined;
  party_size?: number | string | undefined;
  status?: string | undefined;
}

/** Cancels while the restaurant's cancel notice allows, as a guest's own cancellation does. */
async function cancel(m: Merchant, row: ReservationRow): Promise<Outcome> {
  if (row.status === "CANCELLED")
    return failure("BOOKING_ALREADY_CANCELLED", "the booking is already cancelled");
  if (FINAL.has(row.status as ReservationStatus) || row.checkinDate !== null) {
    return failure(
      "BOOKING_NOT_CANCELLABLE",
      `a ${row.checkinDate ? "checked-in" : bookingStatus(row.status as ReservationStatus)} booking cannot be cancelled`,
    );
  }
  const s = resolveSettings(m.property.settings);
  if (now() >= localToUtc(s.timezone, row.startMin) - s.cancel_notice * 60_000) {
    return failure(
      "OUTSIDE_CANCELLATION_WINDOW",
      `the restaurant takes cancellations until ${s.cancel_notice} minutes before the start`,
    );
  }
  return { booking: await presentOne(m, await act(ctxOf(m), row.id, { type: "cancel" })) };
}

/** What an UpdateBooking asks to move: start, length, party; undefined where it keeps the booking's. */
function wantedMove(m: Merchant, row: ReservationRow, b: UpdateBookingInput) {
  const startSec = int64(b.slot?.start_sec);
  const local = startSec === undefined ? undefined : slotLocal(zoneOf(m.property), startSec);
  const durationSec = int64(b.slot?.duration_sec);
  const pax = int64(b.party_size ?? b.slot?.resources?.party_size);
  const stay = row.endMin - row.startMin;
  return {
    badStart: startSec !== undefined && !local,
    badDuration:
      durationSec !== undefined && (durationSec % 60 !== 0 || durationSec < 300 || durationSec > 86_400),
    input: {
      start_day: local && local.date !== row.startDate ? local.date : undefined,
      start_hour: local && local.hour !== row.startHour ? local.hour : undefined,
      pax: pax !== undefined && pax !== row.pax ? pax : undefined,
      duration: durationSec !== undefined && durationSec / 60 !== stay ? durationSec / 60 : undefined,
    },
  };
}

/** UpdateBooking: CANCELED cancels; a new start, length or party size moves the booking by the online rules. */
export async function updateBooking(
  m: Merchant,
  row: ReservationRow,
  b: UpdateBookingInput,
): Promise<Outcome> {
  if (b.status === "CANCELED") return cancel(m, row);
  const move = wantedMove(m, row, b);
  if (move.badStart)
    return failure("SLOT_UNAVAILABLE", "the new start is not a bookable time of this merchant");
  if (move.badDuration) return failure("SLOT_UNAVAILABLE", "a stay is whole minutes, 5 minutes to a day");
  if (Object.values(move.input).every((v) => v === undefined)) return { booking: await presentOne(m, row) };
  if (row.status === "CANCELLED")
    return failure("BOOKING_ALREADY_CANCELLED", "a cancelled booking cannot be changed");
  // A restaurant that left the search engine still lets its users cancel, not move.
  if (!m.property.searchengineEnabled)
    return failure("SLOT_UNAVAILABLE", "this merchant takes no bookings through the search engine now");
  try {
    return { booking: await presentOne(m, await updateReservation(ctxOf(m), row.id, move.input, "online")) };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (SLOT_REFUSALS.has(err.code)) return failure("SLOT_UNAVAILABLE", err.detail ?? err.title);
    if (err.code === "reservation_not_available")
      return failure("CAUSE_UNSPECIFIED", `the booking cannot be changed: ${err.detail ?? err.title}`);
    throw err;
  }
}
