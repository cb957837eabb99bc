/** A reservation row as the message planner sees it (worker/messages/plan.ts). */
import { type Channel, LOCALES, type ReservationStatus, resolveSettings } from "../../shared/schemas";
import type { PropertyRow } from "../env";
import type { ReservationRow } from "../reservations/reservations.repo";
import { emailsGuest, type ReservationFacts } from "./plan";
import type { Guest, Locale } from "./types";

/** The customer's details as the reservation last wrote them (its snapshot, else the guest as typed), or none. */
export function guestOf(row: Pick<ReservationRow, "customerSnapshot" | "guest">): Guest | null {
  const raw = (row.customerSnapshot ?? row.guest) as unknown;
  if (!raw) return null;
  const c = (typeof raw === "string" ? JSON.parse(raw) : raw) as Partial<Guest>;
  return {
    first_name: c.first_name ?? null,
    last_name: c.last_name ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
  };
}

export const asLocale = (value: string | null | undefined): Locale | null =>
  (LOCALES as readonly string[]).includes(value ?? "") ? (value as Locale) : null;

export function factsOf(row: ReservationRow): ReservationFacts {
  return {
    status: row.status as ReservationStatus,
    channel: row.channel as Channel,
    startDate: row.startDate,
    startHour: row.startHour,
    startMin: row.startMin,
    endMin: row.endMin,
    pax: row.pax,
    serviceId: row.serviceId,
    notes: row.notes,
    guest: guestOf(row),
    notifyGuest: row.notifyGuest,
    locale: asLocale(row.guestLocale),
    waitUntilMin: row.waitUntilMin,
    payment: row.payment,
    paymentDueAt: row.paymentDueAt,
  };
}

/** Whether this reservation's guest is emailed at all (the manage link is made only then). */
export function reachable(row: ReservationRow, property: PropertyRow): boolean {
  return emailsGuest(factsOf(row), resolveSettings(property.settings));
}
