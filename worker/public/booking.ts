/**
 * A guest's booking on channel PLATFORM_BOOK, in two steps: plan (read the day once, pick the
 * service, let the engine decide, by the rules of the slot listing) and commit (createReservation
 * on that same day). A time refused is answered as "taken meanwhile", with the nearest free ones.
 */
import type { PublicBookingInput } from "../../shared/public";
import { resolveSettings, type Settings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability, type EngineService, serviceDayOf } from "../availability/engine";
import type { Db, PropertyRow } from "../env";
import { ApiError, invalidField } from "../errors";
import { now } from "../lib/clock";
import { localMinutes } from "../lib/localtime";
import { newLink } from "../messages/links";
import {
  type BookingContext,
  type CreateExtras,
  type CreateInput,
  createReservation,
  engineOf,
  type LoadedDay,
  loadDay,
} from "../reservations/booking";
import type { ReservationRow } from "../reservations/reservations.repo";
import { checkOnlinePax, isOnline } from "./guest";
import type { TypedGuest } from "./public.repo";

/** Alternatives offered with a 409 "time no longer available". */
const MAX_ALTERNATIVES = 6;

export interface BookingResult {
  row: ReservationRow;
  token: string;
  guest: TypedGuest;
  serviceName: string;
}

export type Booking = Omit<PublicBookingInput, "waiting_list"> & { waiting_list: boolean };

/** Refusals of a time that a guest sees as "taken meanwhile": full, closed since the listing, or nothing seats the party. */
export const TAKEN = new Set(["table_not_available", "booking_slot_not_available", "room_capacity_exceeded"]);

/** What the plan decided on its one read of the day. */
interface BookingPlan {
  service: EngineService;
  /** every table that seats the party is held, or the kitchen's pacing is reached: what the waiting list is for */
  full: boolean;
  day: LoadedDay;
  /** the latest start of a waiting range (local minutes); undefined: only the time asked for */
  waitUntilMin: number | undefined;
}

/**
 * Books for a guest: the same rules as the slot listing (the engine, online mode), then
 * createReservation on channel PLATFORM_BOOK. waiting_list true books normally when the time
 * is free and puts the party on the waiting list (WAITING) only when it is full. A banned
 * customer gets exactly the answer of a full time, never "banned" (a listed time refused can
 * still hint at it; recording phantom bookings to hide that would mislead the restaurant).
 */
export async function bookOnline(
  db: Db,
  property: PropertyRow,
  b: Booking,
  linkSecret?: string,
): Promise<BookingResult> {
  const ctx: BookingContext = { db, property, actor: "guest", linkSecret };
  const plan = await planBooking(ctx, b);
  return commitBooking(ctx, b, plan);
}

async function planBooking(ctx: BookingContext, b: Booking): Promise<BookingPlan> {
  const settings = resolveSettings(ctx.property.settings);
  checkOnlinePax(settings, b.pax);
  if (b.waiting_until !== undefined && !b.waiting_list)
    throw invalidField(
      "waiting_until",
      "waiting_until is only for the waiting list: send waiting_list true with it",
    );
  const start = localMinutes(b.date, b.hour);
  const day = await loadDay(ctx, b.date, false);
  const engine = engineOf(day);
  const service = pickService(engine, day.catalog.services.filter(isOnline), b, start);
  const refused = engine.checkTime(service, b.date, start, b.pax, "online");
  if (refused) throw new ApiError(refused, timeRefusalDetail(refused, settings));
  const waitUntilMin = waitingRange(engine, service, b, start);

  const decision = engine.decide({ service, date: b.date, start, pax: b.pax, mode: "online" });
  const full = !decision.ok && (decision.why === "full" || decision.why === "pacing");
  if (!decision.ok && !(b.waiting_list && full)) throw await timeTaken(ctx.db, ctx.property, service, b);
  return { service, full, day, waitUntilMin };
}

/**
 * The latest start of the party's waiting range: a later time on the service's grid of the same
 * service day (past midnight for a late service), bookable online for the party.
 */
function waitingRange(
  engine: Availability,
  service: EngineService,
  b: Booking,
  start: number,
): number | undefined {
  if (b.waiting_until === undefined) return undefined;
  const until = localMinutes(b.date, b.waiting_until) + (b.waiting_until < b.hour ? 1440 : 0);
  const sameDay = serviceDayOf(service, until) === serviceDayOf(service, start);
  if (until <= start || !sameDay || engine.checkTime(service, b.date, until, b.pax, "online")) {
    throw invalidField(
      "waiting_until",
      `waiting_until must be a later time than ${b.hour.slice(0, 5)} of the same service and day, on its grid`,
    );
  }
  return until;
}

/** The service named, else (the guest named a time) the first with a free table then, else the first whose times include it. */
function pickService(
  engine: Availability,
  online: EngineService[],
  b: Booking,
  start: number,
): EngineService {
  if (b.service_id !== undefined) {
    const named = online.find((s) => s.id === b.service_id);
    if (!named)
      throw new ApiError("service_not_found", `service ${b.service_id} does not take online bookings`);
    return named;
  }
  const candidates = online.filter((s) => engine.checkTime(s, b.date, start, b.pax, "online") === undefined);
  const service =
    candidates.find(
      (s) => engine.decide({ service: s, date: b.date, start, pax: b.pax, mode: "online" }).ok,
    ) ?? candidates[0];
  if (!service)
    throw new ApiError(
      "booking_slot_not_available",
      `no service takes online bookings on ${b.date} at ${b.hour}`,
    );
  return service;
}

async function commitBooking(ctx: BookingContext, b: Booking, plan: BookingPlan): Promise<BookingResult> {
  const guest: TypedGuest = {
    first_name: b.guest.first_name,
    last_name: b.guest.last_name,
    email: b.guest.email,
    phone: b.guest.phone ?? null,
  };
  // With the LINK_SECRET, later emails (reminder, change, offer) can carry this manage link again.
  const link = await newLink(ctx.linkSecret, "manage");
  const extras: CreateExtras = {
    manageTokenHash: link.hash,
    manageNonce: link.nonce,
    history: { customer: [null, guest] },
    waitUntilMin: plan.waitUntilMin,
  };
  const create = (waiting: boolean, day?: LoadedDay) =>
    createReservation(ctx, reservationInput(b, plan.service.id, waiting), "PLATFORM_BOOK", extras, { day });
  try {
    let row: ReservationRow;
    try {
      row = await create(b.waiting_list && plan.full, plan.day);
    } catch (err) {
      // Free when we looked, taken before the write: the party asked to wait rather than be refused.
      if (!(b.waiting_list && !plan.full && err instanceof ApiError && err.code === "table_not_available"))
        throw err;
      row = await create(true);
    }
    return { row, token: link.token, guest, serviceName: plan.service.name };
  } catch (err) {
    if (err instanceof ApiError && (err.code === "customer_is_banned" || TAKEN.has(err.code)))
      throw await timeTaken(ctx.db, ctx.property, plan.service, b);
    throw err;
  }
}

function reservationInput(b: Booking, serviceId: number, waiting: boolean): CreateInput {
  return {
    start_date: b.date,
    start_hour: b.hour,
    pax: b.pax,
    service_id: serviceId,
    waiting_list: waiting,
    customer: { ...b.guest, locale: b.locale },
    // The guest's words are a special request; notes are the staff's.
    special_request: b.special_request ?? b.notes,
    occasion: b.occasion,
    allergies: b.allergies,
    // the guest's language for this reservation's emails
    locale: b.locale,
  };
}

export function timeRefusalDetail(refusal: string, s: Settings): string {
  switch (refusal) {
    case "service_is_not_available":
      return "the service does not run on this day";
    case "service_not_available":
      return "the service does not take this party size online";
    default:
      return `this time cannot be booked online: off the service's times, in the past, less than ${s.min_notice} minutes ahead or more than ${s.max_days_ahead} days ahead`;
  }
}

/** 409 with the free times of that service day and service nearest to the one asked for (fresh data). */
export async function timeTaken(
  db: Db,
  property: PropertyRow,
  service: EngineService,
  b: Pick<Booking, "date" | "hour" | "pax">,
): Promise<ApiError> {
  const asked = localMinutes(b.date, b.hour);
  const day = serviceDayOf(service, asked);
  const { catalog, holds, arrivals } = await loadAvailability(db, property, day, day);
  const engine = new Availability(catalog, holds, now(), arrivals);
  const live = catalog.services.find((s) => s.id === service.id && isOnline(s));
  const times = live
    ? (engine.daySlots(day, b.pax, [live], true).available_services[0]?.available_slots ?? [])
    : [];
  // a time before the service's start is past midnight, on the next calendar day
  const minuteOf = (h: string) => localMinutes(day, h) + (h < service.startHour ? 1440 : 0);
  const distance = (h: string) => Math.abs(minuteOf(h) - asked);
  const alternatives = times
    .filter((h) => h !== b.hour)
    .sort((x, y) => distance(x) - distance(y) || x.localeCompare(y))
    .slice(0, MAX_ALTERNATIVES);
  return new ApiError(
    "time_no_longer_available",
    `${b.date} at ${b.hour.slice(0, 5)} cannot be booked any more for ${b.pax}; see alternatives`,
    {
      extensions: { alternatives },
    },
  );
}
