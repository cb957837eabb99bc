/**
 * What staff must know of a party where they look (the day list, the timeline): the allergies
 * (the reservation's and the guest's own), the occasion, the guest's tags, the notes, and whether
 * they came before.
 */
import { msg, str } from "@lit/localize";
import { html, nothing } from "lit";
import type { ReservationListItem } from "../api.js";
import { occasionText } from "./words.js";

/** A party as a list or a single record gives it (they differ in how they name the day only). */
type Reservation = Omit<ReservationListItem, "start_date">;

/**
 * Whether the guest came before this visit: their visits without this one, and never the
 * restaurant's own record for anonymous walk-ins (booked under the house phone).
 */
export function returning(r: Reservation, housePhone?: string | null): boolean {
  const c = r.customer;
  if (!c || (housePhone && c.phone === housePhone)) return false;
  const thisOne = r.checkin_date && r.status !== "CANCELLED" && r.status !== "REJECTED" ? 1 : 0;
  return c.visits - thisOne > 0;
}

/** The allergies to read out: the reservation's, and the guest's own when they say something else. */
export function allergyTexts(r: Reservation): string[] {
  const own = r.allergies?.trim();
  const guest = r.customer?.allergies?.trim();
  return [
    ...(own ? [msg(str`Allergies: ${own}`, { id: "console.details.allergies" })] : []),
    ...(guest && guest !== own
      ? [msg(str`Guest's allergies: ${guest}`, { id: "console.details.guestallergies" })]
      : []),
  ];
}

/** The notes to read: the staff's on the reservation, the guest's request, the staff's on the guest. */
export function noteTexts(r: Reservation): string[] {
  return [
    ...(r.notes ? [msg(str`Notes: ${r.notes}`, { id: "console.details.notes" })] : []),
    ...(r.special_request
      ? [msg(str`Request: ${r.special_request}`, { id: "console.details.request" })]
      : []),
    ...(r.customer?.notes
      ? [msg(str`Guest notes: ${r.customer.notes}`, { id: "console.details.guestnotes" })]
      : []),
  ];
}

/** One line a party's details, in the order a host reads them: allergies first. */
export function details(r: Reservation, housePhone?: string | null) {
  const allergies = allergyTexts(r);
  const notes = noteTexts(r);
  const tags = r.customer?.tags ?? [];
  const back = returning(r, housePhone);
  if (!allergies.length && !notes.length && !tags.length && !r.occasion && !back) return nothing;
  return html`<ul class="details" part="details">
    ${allergies.map((a) => html`<li class="allergy">${a}</li>`)}
    ${r.occasion || tags.length || back ? html`<li>${r.occasion ? html`<span class="badge">${occasionText(r.occasion)}</span>` : nothing}${tags.map((t) => html`<span class="badge tag">${t}</span>`)}${back ? html`<span class="badge">${msg("Returning", { id: "console.badge.returning" })}</span>` : nothing}</li>` : nothing}
    ${notes.map((n) => html`<li class="note">${n}</li>`)}
  </ul>`;
}
