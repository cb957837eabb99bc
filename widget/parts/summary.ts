/** A reservation as a definition list: the step before booking, the confirmation, the manage page. */
import { msg } from "@lit/localize";
import { html, nothing, type TemplateResult } from "lit";
import type { PublicReservation } from "../api.js";
import { formatDate, formatTime } from "../format.js";

export interface SummaryOf {
  date: string;
  hour?: string | undefined;
  /** a waiting party's latest start: the time shows as the range hour–waiting_until */
  waiting_until?: string | null | undefined;
  pax: number;
  service?: { name: string } | null | undefined;
  restaurant?: PublicReservation["restaurant"];
  guest?: PublicReservation["guest"];
  /** the guest's own words: special_request, or notes (its earlier name) */
  special_request?: string | null;
  notes?: string | null;
  occasion?: string | null;
  allergies?: string | null;
  /** the status, already in words, and its raw value for styling */
  state?: { text: string; value: string };
}

/** A reservation's status in the guest's words. */
export function statusText(status: string) {
  const confirmed = msg("Confirmed", { id: "status.accepted" });
  const map: Record<string, string> = {
    ACCEPTED: confirmed,
    CONFIRMED: confirmed,
    WAITING: msg("On the waiting list", { id: "status.waiting" }),
    PREPAY: msg("Awaiting payment", { id: "status.prepay" }),
    CANCELLED: msg("Cancelled", { id: "status.cancelled" }),
    REJECTED: msg("Declined", { id: "status.refused" }),
    EXPIRED: msg("Expired", { id: "status.expired" }),
  };
  return map[status] ?? status;
}

/**
 * An email address that wraps where a reader expects it to, after the "@" and before each dot
 * (never mid-word unless one piece alone is wider than the line).
 */
export function email(address: string) {
  const pieces = address.split(/(?=\.)|(?<=@)/);
  return html`<span class="email">${pieces.map((p, i) => (i ? html`<wbr />${p}` : p))}</span>`;
}

export function summary(r: SummaryOf, locale: string) {
  const row = (term: string, value: unknown, cls?: string): TemplateResult =>
    html`<dt>${term}</dt><dd class=${cls ?? nothing}>${value}</dd>`;
  const request = r.special_request ?? r.notes;
  return html`<dl class="summary" part="summary">
    ${r.state ? row(msg("Status", { id: "manage.status" }), r.state.text, `status-${r.state.value}`) : nothing}
    ${r.restaurant ? row(msg("Restaurant", { id: "done.restaurant" }), r.restaurant.name) : nothing}
    ${row(msg("Date", { id: "book.date" }), formatDate(r.date, locale))}
    ${row(msg("Time", { id: "book.time-short" }), r.hour ? formatTime(r.hour, locale) + (r.waiting_until ? `–${formatTime(r.waiting_until, locale)}` : "") : "–")}
    ${row(msg("Guests", { id: "book.pax" }), r.pax)}
    ${r.service ? row(msg("Service", { id: "book.service" }), r.service.name) : nothing}
    ${r.guest ? row(msg("Name", { id: "manage.name" }), `${r.guest.first_name} ${r.guest.last_name}`) : nothing}
    ${r.guest ? row(msg("Email", { id: "details.email" }), email(r.guest.email)) : nothing}
    ${r.occasion ? row(msg("Occasion", { id: "summary.occasion" }), occasionLabel(r.occasion)) : nothing}
    ${r.allergies ? row(msg("Allergies", { id: "summary.allergies" }), r.allergies) : nothing}
    ${request ? row(msg("Special request", { id: "summary.request" }), request) : nothing}
  </dl>`;
}

/** An occasion in the guest's words. */
export function occasionLabel(occasion: string): string {
  const labels: Record<string, string> = {
    birthday: msg("Birthday", { id: "occasion.birthday" }),
    anniversary: msg("Anniversary", { id: "occasion.anniversary" }),
    business: msg("Business meal", { id: "occasion.business" }),
    date: msg("Date night", { id: "occasion.date" }),
    other: msg("Another occasion", { id: "occasion.other" }),
  };
  return labels[occasion] ?? occasion;
}
