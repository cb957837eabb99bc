/** The public API's answers: the restaurant's profile, a reservation as its guest sees it, an offer. */
import { guestCancelRefund, owesPayment, refundDeadline } from "../../shared/payment";
import type { PublicPayment, PublicProfile, PublicReservation } from "../../shared/public";
import { resolveSettings } from "../../shared/schemas";
import type { PropertyRow } from "../env";
import { now } from "../lib/clock";
import { addDays, fromLocalMinutes, localToUtc, zonedParts } from "../lib/localtime";
import { guestOf } from "../messages/facts";
import type { ReservationRow } from "../reservations/reservations.repo";
import { type FoundOffer, shownState } from "../waitlist/offers";
import type { BookingResult } from "./booking";
import { cancellableUntil, firstOnlineDate, type Locale, textsFor } from "./guest";
import type { ManagedReservation, TypedGuest } from "./public.repo";

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const coordinate = (v: unknown, max: number) =>
  typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= max ? v : null;

/** The property's position object, split for guests into an address and a point for the map link. */
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

export function toProfile(property: PropertyRow, locale?: Locale): PublicProfile {
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
    first_date: firstOnlineDate(s),
    last_date: addDays(today, s.max_days_ahead),
    cancel_notice: s.cancel_notice,
    offer_minutes: s.offer_minutes,
    ...contact(property),
  };
}

/** A reservation as its guest sees it: the guest's own typed details, never the customer record. */
export function toPublicReservation(
  property: PropertyRow,
  row: ReservationRow,
  guest: TypedGuest | undefined,
  service: string | null,
): PublicReservation {
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
    waiting_until:
      row.status === "WAITING" && row.waitUntilMin !== null ? fromLocalMinutes(row.waitUntilMin).hour : null,
    payment: publicPayment(row, s.timezone),
  };
}

/** The booking's money as its guest sees it: what it pays, its state, the refund deadline. */
export function publicPayment(row: ReservationRow, tz: string): PublicPayment | null {
  const p = row.payment;
  if (!p) return null;
  const start = localToUtc(tz, row.startMin);
  return {
    mode: p.mode,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    amount_refunded: p.amount_refunded,
    refund_until: new Date(refundDeadline(start, p.refund_until)).toISOString(),
    no_show_fee: p.no_show_fee,
    card: p.card,
    due_at: owesPayment(row.status, p) ? row.paymentDueAt : null,
    refund_if_cancelled: guestCancelRefund(p, start, now()),
    refund_pending: p.refund_pending ?? 0,
  };
}

/**
 * The booking's answer: the reservation, and its manage token and link, shown this once. The
 * link carries the guest's language to the manage page.
 */
export function toPublicBooking(
  property: PropertyRow,
  booked: BookingResult,
  o: { origin: string; locale: Locale | undefined },
) {
  const locale = o.locale ? `?locale=${o.locale}` : "";
  const manageUrl = `${o.origin}/p/${encodeURIComponent(property.publicKey)}/manage/${booked.token}${locale}`;
  return {
    ...toPublicReservation(property, booked.row, booked.guest, booked.serviceName),
    manage_token: booked.token,
    manage_url: manageUrl,
  };
}

/** The guest's own reservation, found by its manage token. */
export function toManagedReservation(property: PropertyRow, found: ManagedReservation): PublicReservation {
  return toPublicReservation(property, found.row, found.guest, found.serviceName);
}

/** A waiting-list offer and the reservation it is for, the guest as the reservation holds them. */
export function toPublicOffer(property: PropertyRow, hit: FoundOffer, service: string | null) {
  const g = guestOf(hit.reservation);
  const guest = {
    first_name: g?.first_name ?? "",
    last_name: g?.last_name ?? "",
    email: g?.email ?? "",
    phone: g?.phone ?? null,
  };
  // an offer made before ranges offered the reservation's own time
  const hour =
    hit.offer.startMin !== null ? fromLocalMinutes(hit.offer.startMin).hour : hit.reservation.startHour;
  return {
    state: shownState(hit.offer),
    expires_at: hit.offer.expiresAt,
    hour,
    reservation: toPublicReservation(property, hit.reservation, guest, service),
  };
}
