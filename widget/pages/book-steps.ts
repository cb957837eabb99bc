/**
 * Pieces of the booking page's later steps that hold no state: the words for a failed booking,
 * and the confirmation (in the chunk of book-later.ts).
 */
import { msg, str } from "@lit/localize";
import { html, nothing } from "lit";
import { PublicApiError, type PublicBooking, type PublicProfile } from "../api.js";
import { formatTime } from "../format.js";
import { callUs, contact } from "../parts/contact.js";
import { placeOf } from "../parts/place.js";
import { policyAfter } from "../parts/policy.js";
import { email, statusText, summary } from "../parts/summary.js";

/** Why a booking failed, in words the guest can act on (a time taken meanwhile aside); the number to call where it says to call. */
export function bookingError(error: unknown, profile: PublicProfile) {
  if (error instanceof PublicApiError) {
    if (error.status === 429)
      return msg("Too many attempts. Please wait a minute and try again.", { id: "error.rate" });
    // The server's words are English: the fields it named say what they need (guest-fields.ts).
    if (error.status === 400) return msg("Please check the details marked below.", { id: "error.check" });
    if (error.code === "guest_booking_limit") {
      return html`${msg(
        "You already have as many upcoming online bookings here as the restaurant accepts from one guest: cancel one of them to book another.",
        { id: "error.guest-limit-cancel" },
      )} ${callUs(profile)}`;
    }
  }
  return msg("The booking could not be made. Please try again.", { id: "error.generic" });
}

/** "Add to calendar": the reservation's .ics, which the browser hands to the guest's calendar. */
export function calendarLink(url: string) {
  return html`<a class="btn secondary" part="calendar-link" href=${url} download="reservation.ics">${msg("Add to calendar", { id: "done.calendar" })}</a>`;
}

/**
 * Where the manage link leads: on the hosted pages the hosted manage page; embedded with
 * `booking-manage`, this same element (through the host's address, `#booking-manage=<token>`);
 * embedded without, the hosted manage page in a new tab, in the host's accent.
 */
export interface ManageLink {
  hosted: boolean;
  here: boolean;
  /** the host's accent as #rrggbb, when it could be read */
  accent: string | undefined;
}

function manageHref(b: PublicBooking, o: ManageLink): string {
  if (o.here) return `#booking-manage=${b.manage_token}`;
  if (o.hosted || !o.accent) return b.manage_url;
  const url = new URL(b.manage_url);
  url.searchParams.set("accent", o.accent);
  return url.href;
}

/**
 * The confirmation: "booked" only when the table is the guest's (ACCEPTED, CONFIRMED); the
 * waiting list and any other status say what they are. The manage link in every case, the
 * cancellation policy and where to find the restaurant.
 */
export function confirmation(
  b: PublicBooking,
  locale: string,
  again: () => void,
  profile: PublicProfile,
  link: ManageLink,
  calendarUrl: string,
) {
  const newTab = !link.here && !link.hosted;
  const booked = b.status === "ACCEPTED" || b.status === "CONFIRMED";
  const waiting = b.status === "WAITING";
  return html`
    <section class="stack" part="confirmation" aria-labelledby="h">
      <h2 id="h" part="heading" tabindex="-1">
        ${
          booked
            ? msg("Your table is booked", { id: "done.title" })
            : waiting
              ? msg("You are on the waiting list", { id: "done.waiting" })
              : msg("Your request was received", { id: "done.received" })
        }
      </h2>
      <p class="message${booked ? " success" : ""}">
        ${
          booked
            ? msg(str`Thank you, ${b.guest.first_name}. We look forward to seeing you.`, {
                id: "done.thanks",
              })
            : waiting
              ? b.waiting_until
                ? msg(
                    str`Thank you, ${b.guest.first_name}. Your party is on the waiting list and holds no table yet. If one frees up at any time from ${formatTime(b.hour, locale)} to ${formatTime(b.waiting_until, locale)}, we email you an offer for the earliest time that fits, valid for ${profile.offer_minutes} minutes: claim it and the table is yours if it is still free.`,
                    { id: "done.waiting-offer-range" },
                  )
                : msg(
                    str`Thank you, ${b.guest.first_name}. Your party is on the waiting list and holds no table yet. If one frees up at this time, we email you an offer, valid for ${profile.offer_minutes} minutes: claim it and the table is yours if it is still free.`,
                    { id: "done.waiting-offer" },
                  )
              : msg(str`Thank you, ${b.guest.first_name}. The restaurant has not confirmed your table yet.`, {
                  id: "done.thanks-received",
                })
        }
      </p>
      ${summary({ ...b, state: { text: statusText(b.status), value: b.status } }, locale)}
      <p class="muted">${policyAfter({ until: b.cancellable_until, timezone: profile.timezone, city: placeOf(profile), locale })}</p>
      <p part="email-sent">${msg(html`We sent a confirmation to ${email(b.guest.email)}, with this link.`, { id: "done.email-sent" })}</p>
      <p>${msg("Keep this link to see or cancel your reservation:", { id: "done.keep" })}</p>
      <div class="actions">
        <a class="btn secondary manage" part="manage-link" href=${manageHref(b, link)} target=${newTab ? "_blank" : nothing} rel=${newTab ? "noopener" : nothing}>
          ${msg("Manage your reservation", { id: "done.manage" })}${newTab ? html`<span class="sr-only"> (${msg("opens in a new tab", { id: "done.new-tab" })})</span>` : nothing}
        </a>
        ${booked ? calendarLink(calendarUrl) : nothing}
        <button type="button" class="btn secondary" part="button" @click=${again}>${msg("Book another table", { id: "done.again" })}</button>
      </div>
      ${contact(profile, locale)}
    </section>
  `;
}
