/**
 * Pieces of the booking page that hold no state: the waiting list's disclosure of the day's full
 * times, the words for a failed booking, and the confirmation.
 */
import { msg, str } from "@lit/localize";
import { html, nothing } from "lit";
import { PublicApiError, type PublicBooking } from "../api.js";
import { choiceGroup, type ChoiceOption } from "../parts/choice.js";
import { statusText, summary } from "../parts/summary.js";

/**
 * The full times of the service, for the waiting list: a second radio group behind a native
 * disclosure (closed while the service has free times, unless one of these is chosen).
 */
export function waitingList(o: { times: ChoiceOption[]; zone: string; open: boolean; value: string | undefined; onChange: (v: string) => void; describedBy: string | undefined }) {
  return html`<details class="waiting" part="waiting-list" ?open=${o.open}>
    <summary>${msg("Join the waiting list", { id: "book.waiting" })}</summary>
    ${choiceGroup({
      name: "waiting",
      legend: msg(str`Full times, for the waiting list (${o.zone})`, { id: "book.waiting-times" }),
      hint: msg("On the waiting list your party holds no table: the restaurant decides later.", { id: "book.waiting-hint" }),
      options: o.times,
      value: o.value,
      onChange: o.onChange,
      describedBy: o.describedBy,
      part: "time",
    })}
  </details>`;
}

/** Why a booking failed, in words the guest can act on (a time taken meanwhile aside). */
export function bookingError(error: unknown) {
  if (error instanceof PublicApiError) {
    if (error.status === 429) return msg("Too many attempts. Please wait a minute and try again.", { id: "error.rate" });
    if (error.status === 400) return msg(str`Please check your details: ${error.message}`, { id: "error.input" });
    if (error.code === "guest_booking_limit") {
      return msg("You already have as many upcoming online bookings here as the restaurant accepts from one guest. Please cancel one of them, or call the restaurant.", { id: "error.guest-limit" });
    }
  }
  return msg("The booking could not be made. Please try again.", { id: "error.generic" });
}

/** "Add to calendar": the reservation's .ics, which the browser hands to the guest's calendar. */
export function calendarLink(url: string) {
  return html`<a class="btn secondary" part="calendar-link" href=${url} download="reservation.ics">${msg("Add to calendar", { id: "done.calendar" })}</a>`;
}

/**
 * The confirmation: "booked" only when the table is the guest's (ACCEPTED, CONFIRMED); the
 * waiting list and any other status say what they are. The manage link in every case.
 */
export function confirmation(b: PublicBooking, locale: string, again: () => void, calendarUrl: string) {
  const booked = b.status === "ACCEPTED" || b.status === "CONFIRMED";
  const waiting = b.status === "WAITING";
  return html`
    <section class="stack" part="confirmation" aria-labelledby="h">
      <h2 id="h" tabindex="-1">
        ${booked
          ? msg("Your table is booked", { id: "done.title" })
          : waiting
            ? msg("You are on the waiting list", { id: "done.waiting" })
            : msg("Your request was received", { id: "done.received" })}
      </h2>
      <p class="message${booked ? " success" : ""}">
        ${booked
          ? msg(str`Thank you, ${b.guest.first_name}. We look forward to seeing you.`, { id: "done.thanks" })
          : waiting
            ? msg(str`Thank you, ${b.guest.first_name}. Your party is on the waiting list and holds no table yet.`, { id: "done.thanks-waiting" })
            : msg(str`Thank you, ${b.guest.first_name}. The restaurant has not confirmed your table yet.`, { id: "done.thanks-received" })}
      </p>
      ${summary({ ...b, state: { text: statusText(b.status), value: b.status } }, locale)}
      <p part="email-sent">${msg(str`We sent a confirmation to ${b.guest.email}, with this link.`, { id: "done.email-sent" })}</p>
      <p>${msg("Keep this link to see or cancel your reservation:", { id: "done.keep" })}</p>
      <div class="actions">
        <a class="btn secondary manage" part="manage-link" href=${b.manage_url}>${msg("Manage your reservation", { id: "done.manage" })}</a>
        ${booked ? calendarLink(calendarUrl) : nothing}
        <button type="button" class="btn secondary" part="button" @click=${again}>${msg("Book another table", { id: "done.again" })}</button>
      </div>
    </section>
  `;
}
