/**
 * What a guest may see and do through the widget (CONTRACT 8): the profile, the services, the
 * times bookable online, a booking on channel PLATFORM_BOOK and the guest's own reservation
 * behind its manage token. The engine and the booking rules decide; this file only shapes
 * what a guest sees, so the listing and the booking never disagree.
 */
import type { PublicBookingInput, PublicProfile, PublicReservation, PublicService, PublicSlotDay } from "../../shared/public";
import { LOCALES, resolveSettings, type LocaleTexts, type ReservationStatus, type Settings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability, type EngineService, listedDays, serviceDayOf } from "../availability/engine";
import type { Db, PropertyRow } from "../env";
import { ApiError, invalidField } from "../errors";
import { now } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { addDays, localMinutes, localToUtc, zonedParts } from "../lib/localtime";
import { newLink } from "../messages/links";
import { act, type BookingContext, createReservation } from "../reservations/booking";
import { FINAL } from "../reservations/machine";
import type { ReservationRow } from "../reservations/reservations.repo";
import { findByManageToken, listOnlineServices, type ManagedReservation, serviceName, type TypedGuest } from "./public.repo";

/** Alternatives offered with a 409 "time no longer available". */
const MAX_ALTERNATIVES = 6;

/**
 * Services a guest can book online. A service with a prepayment window is not one of them:
 * the widget takes no payment, so its bookings would only expire unpaid.
 */
export const isOnline = (s: EngineService) => s.enabled && s.online && !s.prepaymentWindow;

// ---------- profile and services ----------

export type Locale = (typeof LOCALES)[number];

/** The restaurant's own texts in `locale` (CONTRACT 15); each text missing there falls back to the default. */
export function textsFor(s: Settings, locale: Locale | undefined): LocaleTexts {
  return (locale && s.translations[locale]) || {};
}

/** A service's name and description in the guest's language, else as the restaurant wrote them. */
export function serviceTexts(texts: LocaleTexts, id: number, name: string, description: string | null) {
  const t = texts.services?.[String(id)];
  return { name: t?.name || name, description: t?.description || description };
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const coordinate = (v: unknown, max: number) => (typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= max ? v : null);

/** SPEC's position object, split for guests into an address and a point for the map link. */
function contact(property: PropertyRow): Pick<PublicProfile, "address" | "position" | "phone" | "website"> {
  const p = (property.position ?? {}) as Record<string, unknown>;
  const address = { street: text(p.address), city: text(p.city), zip: text(p.zip), country: text(p.country) };
  const latitude = coordinate(p.latitude, 90);
  const longitude = coordinate(p.longitude, 180);
  return {
    address: address.street || address.city ? address : null,
    position: latitude !== null && longitude !== null ? { latitude, longitude } : null,
    phone: text(property.phone),
    website: text(property.website),
  };
}

export function profile(property: PropertyRow, locale?: Locale): PublicProfile {
  const s = resolveSettings(property.settings);
  const today = zonedParts(s.timezone, now()).date;
  return {
    public_key: property.publicKey,
    name: property.name,
    welcome_message: textsFor(s, locale).welcome_message || s.welcome_message,
    logo_url: s.logo_url,
    photos: s.photos,
    accent_color: s.accent_color,
    timezone: s.timezone,
    locale: s.locale,
    max_online_pax: s.max_online_pax,
    first_date: zonedParts(s.timezone, now() + s.min_notice * 60000).date,
    last_date: addDays(today, s.max_days_ahead),
    cancel_notice: s.cancel_notice,
    ...contact(property),
  };
}

/**
 * Services open to online booking and still valid. pax_max is what a guest may book online:
 * the service's limit, capped by the property's max_online_pax.
 */
export async function onlineServices(db: Db, property: PropertyRow, locale?: Locale): Promise<PublicService[]> {
  const s = resolveSettings(property.settings);
  const texts = textsFor(s, locale);
  const today = zonedParts(s.timezone, now()).date;
  const rows = await listOnlineServices(db, property.id);
  return rows
    .filter((x) => !x.validTo || x.validTo >= today)
    .map((x) => ({
      id: x.id,
      ...serviceTexts(texts, x.id, x.name, x.description),
      image_url: x.imageUrl,
      pax_min: x.paxMin,
      pax_max: Math.min(x.paxMax ?? s.max_online_pax, s.max_online_pax),
      weekdays: x.weekdays,
      start_hour: x.startHour,
      end_hour: x.endHour,
    }));
}

/** A party larger than the property takes online is a 400 with a message the guest can act on. */
export function checkOnlinePax(settings: Settings, pax: number) {
  if (pax > settings.max_online_pax) {
    throw invalidField("pax", `online bookings take parties of up to ${settings.max_online_pax}; please call the restaurant for a larger party`);
  }
}

// ---------- slots ----------

/**
 * Every time the party can book online, per day and service, closures honoured: the engine's
 * listing with out_of_order (closures) on, from one load of the whole range. What the waiting
 * list can take: times that pass every rule of time (grid, notice, window, party size) and have
 * an open table that seats the party, but every such table is held or the kitchen's pacing is
 * reached. A service past midnight lists its late times under the day it started.
 */
export async function publicSlots(db: Db, property: PropertyRow, q: { date: string; pax: number; days: number; service_id?: number | undefined; locale?: Locale | undefined }): Promise<PublicSlotDay[]> {
  const settings = resolveSettings(property.settings);
  checkOnlinePax(settings, q.pax);
  const texts = textsFor(settings, q.locale);
  const days = listedDays(q.date, q.days);
  const { catalog, holds, arrivals } = await loadAvailability(db, property, q.date, days.at(-1)!, { lean: true });
  let services = catalog.services.filter(isOnline);
  if (q.service_id !== undefined) services = services.filter((s) => s.id === q.service_id);
  if (q.service_id !== undefined && !services.length) throw new ApiError("service_not_found", `service ${q.service_id} does not take online bookings`);
  const engine = new Availability(catalog, holds, now(), arrivals);
  return days.map((date) => ({
    date,
    services: engine.daySlots(date, q.pax, services, true).available_services.map((entry) => {
      const full = entry.slots.filter((t) => t.reason === "full" || t.reason === "pacing").map((t) => t.hour);
      const { startHour } = services.find((s) => s.id === entry.id)!;
      return { service_id: entry.id, name: serviceTexts(texts, entry.id, entry.title, null).name, start_hour: startHour, times: entry.available_slots, waiting_list: full.length > 0, full_times: full };
    }),
  }));
}

// ---------- booking ----------

export interface BookingResult {
  row: ReservationRow;
  token: string;
  guest: TypedGuest;
  serviceName: string;
}

export type Booking = Omit<PublicBookingInput, "waiting_list"> & { waiting_list: boolean };

/** Refusals of a time that a guest sees as "taken meanwhile": full, closed since the listing, or nothing seats the party. */
export const TAKEN = new Set(["table_not_available", "booking_slot_not_available", "room_capacity_exceeded"]);

/**
 * Books for a guest: the same rules as the slot listing (the engine, online mode), then
 * createReservation on channel PLATFORM_BOOK. waiting_list true books normally when the time
 * is free and puts the party on the waiting list (WAITING) only when it is full. A banned
 * customer gets exactly the answer of a full time, never "banned" (a listed time refused can
 * still hint at it; recording phantom bookings to hide that would mislead the restaurant).
 */
export async function bookOnline(db: Db, property: PropertyRow, b: Booking, linkSecret?: string): Promise<BookingResult> {
  const settings = resolveSettings(property.settings);
  checkOnlinePax(settings, b.pax);
  const start = localMinutes(b.date, b.hour);
  const { catalog, holds, arrivals } = await loadAvailability(db, property, b.date, b.date);
  const engine = new Availability(catalog, holds, now(), arrivals);
  const online = catalog.services.filter(isOnline);
  const timeOk = (s: EngineService) => engine.checkTime(s, b.date, start, b.pax, "online") === undefined;
  const tableFree = (s: EngineService) => engine.decide({ service: s, date: b.date, start, pax: b.pax, mode: "online" }).ok;

  let service: EngineService | undefined;
  if (b.service_id !== undefined) {
    service = online.find((s) => s.id === b.service_id);
    if (!service) throw new ApiError("service_not_found", `service ${b.service_id} does not take online bookings`);
  } else {
    // The guest named a time, not a service: the first service with a free table then, else the first whose times include it.
    const candidates = online.filter(timeOk);
    service = candidates.find(tableFree) ?? candidates[0];
    if (!service) throw new ApiError("booking_slot_not_available", `no service takes online bookings on ${b.date} at ${b.hour}`);
  }
  const refused = engine.checkTime(service, b.date, start, b.pax, "online");
  if (refused) throw new ApiError(refused, timeRefusalDetail(refused, settings));

  const decision = engine.decide({ service, date: b.date, start, pax: b.pax, mode: "online" });
  // Held tables or the kitchen's pacing: what the waiting list is for.
  const full = !decision.ok && (decision.why === "full" || decision.why === "pacing");
  if (!decision.ok && !(b.waiting_list && full)) throw await timeTaken(db, property, service, b);

  const guest: TypedGuest = { first_name: b.guest.first_name, last_name: b.guest.last_name, email: b.guest.email, phone: b.guest.phone ?? null };
  // With the LINK_SECRET, later emails (reminder, change, offer) can carry this manage link again.
  const link = await newLink(linkSecret, "manage");
  const token = link.token;
  const ctx: BookingContext = { db, property, actor: "guest", linkSecret };
  const extras = { manageTokenHash: link.hash, manageNonce: link.nonce, history: { customer: [null, guest] as [unknown, unknown] } };
  const create = (waiting: boolean) =>
    createReservation(
      ctx,
      {
        start_date: b.date,
        start_hour: b.hour,
        pax: b.pax,
        service_id: service.id,
        waiting_list: waiting,
        customer: { ...b.guest, locale: b.locale },
        // The guest's words are a special request; notes are the staff's (CONTRACT 14).
        special_request: b.special_request ?? b.notes,
        occasion: b.occasion,
        allergies: b.allergies,
        // the guest's language for this reservation's emails (CONTRACT 13)
        locale: b.locale,
      },
      "PLATFORM_BOOK",
      extras,
    );
  try {
    let row: ReservationRow;
    try {
      row = await create(b.waiting_list && full);
    } catch (err) {
      // Free when we looked, taken before the write: the party asked to wait rather than be refused.
      if (!(b.waiting_list && !full && err instanceof ApiError && err.code === "table_not_available")) throw err;
      row = await create(true);
    }
    return { row, token, guest, serviceName: service.name };
  } catch (err) {
    if (err instanceof ApiError && (err.code === "customer_is_banned" || TAKEN.has(err.code))) throw await timeTaken(db, property, service, b);
    throw err;
  }
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
export async function timeTaken(db: Db, property: PropertyRow, service: EngineService, b: Pick<Booking, "date" | "hour" | "pax">): Promise<ApiError> {
  const asked = localMinutes(b.date, b.hour);
  const day = serviceDayOf(service, asked);
  const { catalog, holds, arrivals } = await loadAvailability(db, property, day, day);
  const engine = new Availability(catalog, holds, now(), arrivals);
  const live = catalog.services.find((s) => s.id === service.id && isOnline(s));
  const times = live ? (engine.daySlots(day, b.pax, [live], true).available_services[0]?.available_slots ?? []) : [];
  // a time before the service's start is past midnight, on the next calendar day
  const minuteOf = (h: string) => localMinutes(day, h) + (h < service.startHour ? 1440 : 0);
  const distance = (h: string) => Math.abs(minuteOf(h) - asked);
  const alternatives = times
    .filter((h) => h !== b.hour)
    .sort((x, y) => distance(x) - distance(y) || x.localeCompare(y))
    .slice(0, MAX_ALTERNATIVES);
  return new ApiError("time_no_longer_available", `${b.date} at ${b.hour.slice(0, 5)} cannot be booked any more for ${b.pax}; see alternatives`, {
    extensions: { alternatives },
  });
}

// ---------- the guest's own reservation ----------

/** The ISO instant until which the guest may cancel; null once passed, checked in, or final. */
export function cancellableUntil(row: ReservationRow, s: Settings, at = now()): string | null {
  if (FINAL.has(row.status as ReservationStatus) || row.checkinDate !== null) return null;
  // The notice is real time before the start (as min_notice is), so a DST change in between counts.
  const until = localToUtc(s.timezone, row.startMin) - s.cancel_notice * 60_000;
  return at < until ? new Date(until).toISOString() : null;
}

/** A reservation as its guest sees it: the guest's own typed details, never the customer record. */
export function toPublicReservation(property: PropertyRow, row: ReservationRow, guest: TypedGuest | undefined, service: string | null): PublicReservation {
  const s = resolveSettings(property.settings);
  return {
    status: row.status,
    date: row.startDate,
    hour: row.startHour,
    pax: row.pax,
    service: row.serviceId !== null ? { id: row.serviceId, name: service ?? "" } : null,
    guest: guest ?? { first_name: "", last_name: "", email: "", phone: null },
    // never the staff's notes: the guest's own request, under both names
    notes: row.specialRequest,
    special_request: row.specialRequest,
    occasion: (row.occasion as PublicReservation["occasion"]) ?? null,
    allergies: row.allergies,
    restaurant: { name: property.name, timezone: s.timezone },
    cancellable_until: cancellableUntil(row, s),
    arrived: row.checkinDate !== null,
  };
}

export async function findManaged(db: Db, property: PropertyRow, token: string): Promise<ManagedReservation> {
  const found = await findByManageToken(db, property.id, await sha256Hex(token));
  if (!found) throw new ApiError("reservation_not_found", "no reservation has this link; check the address in your confirmation");
  return found;
}

/**
 * Cancels the guest's reservation while the cancel notice allows (403 after, and 403 "party has
 * arrived" once the staff checked the party in). Repeating it on
 * a reservation already cancelled (or otherwise final) answers the reservation as it is.
 */
export async function cancelManaged(db: Db, property: PropertyRow, token: string, linkSecret?: string): Promise<ManagedReservation> {
  const found = await findManaged(db, property, token);
  if (FINAL.has(found.row.status as ReservationStatus)) return found;
  // Checked in by the staff: the party is at the table, whatever the notice says.
  if (found.row.checkinDate !== null) throw new ApiError("party_arrived", "the restaurant has checked your party in; a reservation in progress cannot be cancelled online");
  const s = resolveSettings(property.settings);
  if (cancellableUntil(found.row, s) === null) {
    const notice = s.cancel_notice ? `${s.cancel_notice} minutes before the start` : "the start";
    throw new ApiError("cancel_notice_passed", `online cancellation closes ${notice}; please call the restaurant`);
  }
  const row = await act({ db, property, actor: "guest", linkSecret }, found.row.id, { type: "cancel" });
  return { ...found, row, serviceName: found.serviceName ?? (await serviceName(db, row.serviceId)) };
}
