/**
 * The booking page's later steps, a chunk of their own (loaded while the guest looks at the
 * times, so the first load carries only what the first step needs): the guest's details with the
 * cancellation policy and the server's field errors, a time taken meanwhile, and the confirmation.
 */
import { msg, str } from "@lit/localize";
import { html, nothing } from "lit";
import {
  PublicApiError,
  type PublicBookingInput,
  type PublicPaymentPolicy,
  type PublicProfile,
  type PublicSlotDay,
} from "../api.js";
import { formatTime } from "../format.js";
import { choiceGroup } from "../parts/choice.js";
import { type FieldErrors, type GuestForm, guestFields } from "../parts/guest-fields.js";
import { paymentBefore } from "../parts/money.js";
import { placeOf } from "../parts/place.js";
import { policyBefore } from "../parts/policy.js";
import { type SummaryOf, summary } from "../parts/summary.js";
import { bookingError } from "./book-steps.js";

export { fieldErrors, readGuest } from "../parts/guest-fields.js";
export { confirmation } from "./book-steps.js";

export interface DetailsView {
  guest: GuestForm;
  errors: FieldErrors;
  failure: unknown;
  pending: boolean;
  alternatives: string[] | undefined;
  hour: string | undefined;
  waiting: boolean;
  /** waiting: the latest start the party takes; undefined: the chosen time alone */
  until: string | undefined;
  /** waiting: the service's times after the chosen one, for `until` */
  laterTimes: string[];
  setUntil: (hour: string | undefined) => void;
  summary: SummaryOf;
  /** the chosen service's payment policy: what booking pays, said before the guest confirms */
  payment: PublicPaymentPolicy | null | undefined;
  profile: PublicProfile;
  locale: string;
  submit: (e: SubmitEvent) => void;
  remember: (e: Event) => void;
  back: () => void;
  choose: (hour: string) => void;
}

export function detailsStep(v: DetailsView) {
  const taken = v.failure instanceof PublicApiError && v.failure.timeTaken;
  return html`
    <section class="stack" part="details" aria-labelledby="h">
      <h2 id="h" part="heading" tabindex="-1">${msg("Your details", { id: "details.title" })}</h2>
      ${summary(v.summary, v.locale)}
      ${
        v.waiting
          ? html`<p class="message">${msg("This time is full: you are joining the waiting list, and your party holds no table.", { id: "details.waiting" })}</p>`
          : nothing
      }
      ${v.waiting && v.hour && v.laterTimes.length && !taken ? untilField(v, v.hour) : nothing}
      ${
        v.hour
          ? html`<p class="muted" id="policy">
            ${policyBefore({ date: v.summary.date, hour: v.hour, cancelNotice: v.profile.cancel_notice, city: placeOf(v.profile), locale: v.locale })}
          </p>`
          : nothing
      }
      ${v.hour ? paymentNotice(v, v.hour) : nothing}
      <form part="form" novalidate @submit=${v.submit} @input=${v.remember} @change=${v.remember}>
        ${guestFields(v.guest, v.errors)}
        <div role="alert" class="alert">
          ${taken ? takenMessage(v.alternatives) : v.failure ? html`<p class="message error" part="error">${bookingError(v.failure, v.profile)}</p>` : nothing}
        </div>
        ${taken && v.alternatives?.length ? freeTimes(v, v.alternatives) : nothing}
        <div class="actions">
          <button type="button" class="btn secondary" part="button" @click=${v.back}>${msg("Back", { id: "details.back" })}</button>
          ${taken && !v.alternatives?.length ? nothing : submitButton(v, taken)}
        </div>
      </form>
    </section>
  `;
}

/** What booking pays and the refund rule, when the party pays (paid on the next step). */
function paymentNotice(v: DetailsView, hour: string) {
  const text = paymentBefore({
    policy: v.payment,
    pax: v.summary.pax,
    date: v.summary.date,
    hour,
    city: placeOf(v.profile),
    locale: v.locale,
  });
  return text ? html`<p class="message" id="payment" part="payment-notice">${text}</p>` : nothing;
}

/**
 * The waiting party's range: the chosen time alone, or any time from it until a later one of the
 * service (a freed table is offered at the earliest time of the range that fits).
 */
function untilField(v: DetailsView, hour: string) {
  return html`<div class="field">
    <label for="until">${msg("Any time until", { id: "details.until" })}</label>
    <select id="until" part="input" aria-describedby="until-hint" @change=${(e: Event) => v.setUntil((e.target as HTMLSelectElement).value || undefined)}>
      <option value="" ?selected=${!v.until}>${msg(str`${formatTime(hour, v.locale)} only`, { id: "details.until-only" })}</option>
      ${v.laterTimes.map((h) => html`<option value=${h} ?selected=${v.until === h}>${formatTime(h, v.locale)}</option>`)}
    </select>
    <p class="muted small" id="until-hint">
      ${msg(str`If a table frees up at any time of your range, we email you an offer for the earliest time that fits, valid for ${v.profile.offer_minutes} minutes.`, { id: "details.until-hint" })}
    </p>
  </div>`;
}

/** The service's times after `hour`, in the service's order (its times past midnight last). */
export function laterTimes(
  service: PublicSlotDay["services"][number] | undefined,
  hour: string | undefined,
): string[] {
  if (!service || !hour) return [];
  const key = (h: string) => (h < service.start_hour ? `1${h}` : `0${h}`);
  return [...new Set([...service.times, ...service.full_times])]
    .filter((h) => key(h) > key(hour))
    .sort((a, b) => key(a).localeCompare(key(b)));
}

/** The chosen time went to another party meanwhile: the day's free times follow, or there are none. */
function takenMessage(alternatives: string[] | undefined) {
  return html`<div id="failure" tabindex="-1" class="message error" part="error">
    <p><strong>${msg("Sorry, that time was just taken.", { id: "details.taken" })}</strong></p>
    <p>
      ${
        alternatives?.length
          ? msg("These times are still free on the same day:", { id: "details.alternatives" })
          : msg("No other time is free on that day. Please choose another date.", {
              id: "details.no-alternatives",
            })
      }
    </p>
  </div>`;
}

function freeTimes(v: DetailsView, alternatives: string[]) {
  return choiceGroup({
    name: "alternative",
    legend: msg("Free times", { id: "details.free-times" }),
    options: alternatives.map((h) => ({ value: h, label: formatTime(h, v.locale) })),
    value: v.hour,
    onChange: v.choose,
    part: "time",
  });
}

/** Its label says what it will do: book, book another time, or join the waiting list. */
function submitButton(v: DetailsView, taken: boolean) {
  return html`<button type="submit" class="btn" part="button" aria-disabled=${v.pending ? "true" : "false"}>
    ${
      v.pending
        ? msg("Booking…", { id: "details.pending" })
        : taken
          ? v.hour
            ? msg(str`Book at ${formatTime(v.hour, v.locale)}`, { id: "details.book-at" })
            : msg("Choose a free time", { id: "details.choose-free" })
          : v.waiting
            ? msg("Join the waiting list", { id: "book.waiting" })
            : msg("Confirm booking", { id: "details.submit" })
    }
  </button>`;
}

/** What the details form books. */
export function bookingInput(o: {
  guest: GuestForm;
  date: string;
  hour: string;
  pax: number;
  service: PublicSlotDay["services"][number] | undefined;
  waiting: boolean;
  /** waiting: the latest start of the range */
  until?: string | undefined;
  locale: string;
}): PublicBookingInput {
  const { occasion, allergies, special_request, ...guest } = o.guest;
  // An alternative time may belong to another service of the day: the Worker then finds it.
  const { service } = o;
  const serviceId =
    service && (o.waiting ? service.full_times : service.times).includes(o.hour)
      ? service.service_id
      : undefined;
  return {
    date: o.date,
    hour: o.hour,
    pax: o.pax,
    service_id: serviceId,
    guest: { ...guest, phone: guest.phone || undefined },
    special_request,
    occasion,
    allergies,
    waiting_list: o.waiting,
    waiting_until: o.waiting && o.until ? o.until : undefined,
    locale: (o.locale as PublicBookingInput["locale"]) ?? undefined,
  };
}
