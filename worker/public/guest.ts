/**
 * What a guest may see and do through the widget: the services, the times bookable online and
 * the guest's own reservation behind its manage token. The engine and the booking rules decide;
 * this file only shapes what a guest sees, so the listing and the booking (booking.ts) never
 * disagree.
 */
import type { PublicService, PublicSlotDay } from "../../shared/public";
import {
  type LOCALES,
  type LocaleTexts,
  type ReservationStatus,
  resolveSettings,
  type Settings,
} from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability, type EngineService, listedDays } from "../availability/engine";
import type { Db, PropertyRow } from "../env";
import { ApiError, invalidField } from "../errors";
import { now } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { localToUtc, zonedParts } from "../lib/localtime";
import { act } from "../reservations/booking";
import { FINAL } from "../reservations/machine";
import type { ReservationRow } from "../reservations/reservations.repo";
import { findByManageToken, listOnlineServices, type ManagedReservation, serviceName } from "./public.repo";

/**
 * Services a guest can book online. One with a prepayment window and no payment policy is not: its
 * payment is taken elsewhere (an integrator accepts it), so an online booking would only expire
 * unpaid. One with a policy is: the guest pays in the widget.
 */
export const isOnline = (s: EngineService) => s.enabled && s.online && (!s.prepaymentWindow || !!s.payment);

/**
 * Services the search engine offers: online ones that ask for no payment (the search engine's own
 * payments need a processor set up with it).
 */
export const isSearchable = (s: EngineService) => isOnline(s) && !s.payment;

// ---------- services ----------

export type Locale = (typeof LOCALES)[number];

/** The restaurant's own texts in `locale`; each text missing there falls back to the default. */
export function textsFor(s: Settings, locale: Locale | undefined): LocaleTexts {
  return (locale && s.translations[locale]) || {};
}

/** A service's name and description in the guest's language, else as the restaurant wrote them. */
export function serviceTexts(texts: LocaleTexts, id: number, name: string, description: string | null) {
  const t = texts.services?.[String(id)];
  return { name: t?.name || name, description: t?.description || description };
}

/**
 * Services open to online booking and still valid. pax_max is what a guest may book online:
 * the service's limit, capped by the property's max_online_pax.
 */
export async function onlineServices(
  db: Db,
  property: PropertyRow,
  locale?: Locale,
): Promise<PublicService[]> {
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
      payment: x.payment ?? null,
    }));
}

/** A party larger than the property takes online is a 400 with a message the guest can act on. */
export function checkOnlinePax(settings: Settings, pax: number) {
  if (pax > settings.max_online_pax) {
    throw invalidField(
      "pax",
      `online bookings take parties of up to ${settings.max_online_pax}; please call the restaurant for a larger party`,
    );
  }
}

// ---------- slots ----------

/** The first day a guest can book online: today in the restaurant's zone, moved on by min_notice. */
export function firstOnlineDate(settings: Pick<Settings, "timezone" | "min_notice">): string {
  return zonedParts(settings.timezone, now() + settings.min_notice * 60000).date;
}

/** What a guest's listing asks for. */
interface SlotsAsked {
  /** undefined: from the first day bookable online (firstOnlineDate) */
  date?: string | undefined;
  pax: number;
  days: number;
  service_id?: number | undefined;
  locale?: Locale | undefined;
}

/**
 * Every time the party can book online, per day and service, closures honoured: the engine's
 * listing with out_of_order (closures) on, from one load of the whole range. What the waiting
 * list can take: times that pass every rule of time (grid, notice, window, party size) and have
 * an open table that seats the party, but every such table is held or the kitchen's pacing is
 * reached. A service past midnight lists its late times under the day it started.
 */
export async function publicSlots(db: Db, property: PropertyRow, q: SlotsAsked): Promise<PublicSlotDay[]> {
  const settings = resolveSettings(property.settings);
  checkOnlinePax(settings, q.pax);
  const texts = textsFor(settings, q.locale);
  const from = q.date ?? firstOnlineDate(settings);
  const days = listedDays(from, q.days);
  const { catalog, holds, arrivals } = await loadAvailability(db, property, from, days.at(-1)!, {
    lean: true,
  });
  let services = catalog.services.filter(isOnline);
  if (q.service_id !== undefined) services = services.filter((s) => s.id === q.service_id);
  if (q.service_id !== undefined && !services.length)
    throw new ApiError("service_not_found", `service ${q.service_id} does not take online bookings`);
  const engine = new Availability(catalog, holds, now(), arrivals);
  return days.map((date) => ({
    date,
    services: engine.daySlots(date, q.pax, services, true).available_services.map((entry) => {
      const full = entry.slots.filter((t) => t.reason === "full" || t.reason === "pacing").map((t) => t.hour);
      const { startHour, payment } = services.find((s) => s.id === entry.id)!;
      return {
        service_id: entry.id,
        name: serviceTexts(texts, entry.id, entry.title, null).name,
        start_hour: startHour,
        times: entry.available_slots,
        waiting_list: full.length > 0,
        full_times: full,
        payment: payment ?? null,
      };
    }),
  }));
}

// ---------- the guest's own reservation ----------

/** The ISO instant until which the guest may cancel; null once passed, checked in, or final. */
export function cancellableUntil(row: ReservationRow, s: Settings, at = now()): string | null {
  if (FINAL.has(row.status as ReservationStatus) || row.checkinDate !== null) return null;
  // The notice is real time before the start (as min_notice is), so a DST change in between counts.
  const until = localToUtc(s.timezone, row.startMin) - s.cancel_notice * 60_000;
  return at < until ? new Date(until).toISOString() : null;
}

export async function findManaged(db: Db, property: PropertyRow, token: string): Promise<ManagedReservation> {
  const found = await findByManageToken(db, property.id, await sha256Hex(token));
  if (!found)
    throw new ApiError(
      "reservation_not_found",
      "no reservation has this link; check the address in your confirmation",
    );
  return found;
}

/**
 * Cancels the guest's reservation while the cancel notice allows (403 after, and 403 "party has
 * arrived" once the staff checked the party in). Repeating it on
 * a reservation already cancelled (or otherwise final) answers the reservation as it is.
 */
export async function cancelManaged(
  db: Db,
  property: PropertyRow,
  token: string,
  linkSecret?: string,
): Promise<ManagedReservation> {
  const found = await findManaged(db, property, token);
  if (FINAL.has(found.row.status as ReservationStatus)) return found;
  // Checked in by the staff: the party is at the table, whatever the notice says.
  if (found.row.checkinDate !== null)
    throw new ApiError(
      "party_arrived",
      "the restaurant has checked your party in; a reservation in progress cannot be cancelled online",
    );
  const s = resolveSettings(property.settings);
  if (cancellableUntil(found.row, s) === null) {
    const notice = s.cancel_notice ? `${s.cancel_notice} minutes before the start` : "the start";
    throw new ApiError(
      "cancel_notice_passed",
      `online cancellation closes ${notice}; please call the restaurant`,
    );
  }
  const row = await act({ db, property, actor: "guest", linkSecret }, found.row.id, { type: "cancel" });
  return { ...found, row, serviceName: found.serviceName ?? (await serviceName(db, row.serviceId)) };
}
