/**
 * The booking page's first step, without state: the party size (and the number to call for a
 * larger one), the date grid, the day's status, then the choice of service and time for the chosen day: a note when the preferred
 * service is full and another has room (its waiting list one tap further), the times (fixed
 * width, labelled with the restaurant's city), the waiting list's full times, and the action bar
 * that keeps "Continue" on screen on a phone once a time is chosen.
 */
import { msg, str } from "@lit/localize";
import { html, nothing, type TemplateResult } from "lit";
import type { PublicProfile, PublicSlotDay } from "../api.js";
import { formatDate, formatTime } from "../format.js";
import { type ChoiceOption, choiceGroup } from "../parts/choice.js";
import { callUs } from "../parts/contact.js";

type DayService = PublicSlotDay["services"][number];

export interface ServiceView {
  service: DayService;
  open: DayService[];
  city: string;
  /** the service the guest came for (services page, `service` attribute, an earlier day) */
  preferred: number | undefined;
  pax: number;
  hour: string | undefined;
  waiting: boolean;
  locale: string;
  setService: (id: number) => void;
  pick: (hour: string, waiting: boolean) => void;
  next: () => void;
}

export interface ChooseView {
  profile: PublicProfile;
  pax: number;
  /** more guests than the online maximum: the page leads to the phone instead of the times */
  largeParty: boolean;
  date: string | undefined;
  locale: string;
  /** dates known to have no free time for the party */
  full: ReadonlySet<string>;
  setPax: (pax: number) => void;
  setDate: (date: string) => void;
  /** the day's status (loading, how many times, none) */
  status: unknown;
  next: TemplateResult | typeof nothing;
  service: TemplateResult | typeof nothing;
}

export function chooseStep(c: ChooseView) {
  const max = c.profile.max_online_pax;
  return html`
      <section class="stack" part="book" aria-labelledby="h">
        <h2 id="h" part="heading" tabindex="-1">${msg("Book a table", { id: "book.title" })}</h2>
        ${partySize(c)}
        ${c.largeParty ? nothing : dateField(c)}
        <div role="status" class="status">
          ${c.largeParty ? html`<p class="message" id="pax-over">${msg(str`Parties of more than ${max} cannot book online.`, { id: "book.pax-over" })} ${callUs(c.profile)}</p>` : c.status}
        </div>
        ${c.largeParty ? nothing : html`${c.next} ${c.service}`}
      </section>
    `;
}

function dateField(c: ChooseView) {
  return html`<div class="field">
    <p class="label" id="date-label">${msg("Date", { id: "book.date" })}</p>
    <be-date-grid
      exportparts="calendar, day, selected-day, disabled-day"
      .value=${c.date ?? ""}
      .min=${c.profile.first_date}
      .max=${c.profile.last_date}
      .locale=${c.locale}
      .label=${msg("Date", { id: "book.date" })}
      .full=${c.full}
      @change=${(e: Event) => c.setDate((e.target as HTMLInputElement).value)}
    ></be-date-grid>
    ${c.date ? html`<p class="chosen">${formatDate(c.date, c.locale)}</p>` : nothing}
  </div>`;
}

/**
 * The party size, up to the online maximum and then "more than N", which (like a link asking
 * for more) says so and leads to the phone.
 */
function partySize(c: ChooseView) {
  const max = c.profile.max_online_pax;
  return html`<div class="row">
      <div class="field">
        <label for="pax">${msg("Guests", { id: "book.pax" })}</label>
        <select id="pax" part="input" @change=${(e: Event) => c.setPax(Number((e.target as HTMLSelectElement).value))}>
          ${Array.from({ length: max }, (_, i) => i + 1).map((n) => html`<option value=${n} ?selected=${!c.largeParty && n === c.pax}>${n}</option>`)}
          <option value=${max + 1} ?selected=${c.largeParty}>${msg(str`More than ${max}`, { id: "book.pax-more" })}</option>
        </select>
      </div>
      ${
        c.largeParty
          ? nothing
          : html`<p class="muted small" id="pax-hint">${msg(str`Up to ${max} guests online. For a larger party:`, { id: "book.pax-hint-call" })} ${callUs(c.profile)}</p>`
      }
    </div>`;
}

/** What the day offers the party, for the status region. */
export function dayStatus(free: number, open: number) {
  return free
    ? html`<p class="sr-only">${msg(str`Free times on this day: ${free}`, { id: "book.count" })}</p>`
    : open
      ? html`<p class="message">${msg("No free tables on this day for this party. You can join the waiting list, or choose another date.", { id: "book.only-full" })}</p>`
      : html`<p class="message">${msg("No free tables on this day for this party. Please choose another date.", { id: "book.none" })}</p>`;
}

/** The day's services, the note when the preferred one is full, its times, the waiting list and the action bar. */
export function serviceStep(v: ServiceView) {
  const { service, open } = v;
  const preferred = open.find((s) => s.service_id === v.preferred);
  const yielded = preferred && preferred !== service && !preferred.times.length ? preferred : undefined;
  return html`${yielded ? preferredFull(v, yielded) : nothing}
    ${
      open.length > 1
        ? choiceGroup({
            name: "service",
            legend: msg("Service", { id: "book.service" }),
            options: open.map((s) => ({ value: String(s.service_id), label: s.name })),
            value: String(service.service_id),
            onChange: (x) => v.setService(Number(x)),
            part: "service",
          })
        : html`<p><span class="label">${msg("Service", { id: "book.service" })}:</span> ${service.name}</p>`
    }
    ${service.times.length ? freeTimes(v) : nothing}
    ${service.full_times.length ? fullTimes(v) : nothing}
    ${v.hour ? actionBar(v, v.hour) : nothing}`;
}

/**
 * Shown once a time is chosen (before, it would only hide the times): the time and the step
 * forward, which for a full time is joining the waiting list.
 */
function actionBar(v: ServiceView, hour: string) {
  return html`<div class="actions bar" part="action-bar">
    <span class="picked">${formatTime(hour, v.locale)}</span>
    <button type="button" class="btn" part="button" @click=${v.next}>
      ${v.waiting ? msg("Join the waiting list", { id: "book.waiting" }) : msg("Continue", { id: "book.continue" })}
    </button>
  </div>`;
}

/** The service the guest came for is full while the one shown has room; its waiting list is one tap away. */
function preferredFull(v: ServiceView, yielded: DayService) {
  return html`<div class="message" id="service-full">
    <p>${msg(str`${yielded.name} is full for ${v.pax} on this day. ${v.service.name} still has free tables.`, { id: "book.service-full" })}</p>
    ${
      yielded.full_times.length
        ? html`<button type="button" class="btn secondary" part="button" @click=${() => v.setService(yielded.service_id)}>
          ${msg(str`Join the waiting list for ${yielded.name}`, { id: "book.waiting-for" })}
        </button>`
        : nothing
    }
  </div>`;
}

function freeTimes(v: ServiceView) {
  return choiceGroup({
    name: "time",
    legend: msg(str`Time in ${v.city}`, { id: "book.time-in" }),
    options: v.service.times.map((h) => ({ value: h, label: formatTime(h, v.locale) })),
    value: v.waiting ? undefined : v.hour,
    onChange: (x) => v.pick(x, false),
    part: "time",
    fixed: true,
  });
}

/** The waiting list opens by itself when the service has no free time, or one of its times is chosen. */
function fullTimes(v: ServiceView) {
  const { service } = v;
  return waitingList({
    times: service.full_times.map((h) => ({ value: h, label: formatTime(h, v.locale) })),
    city: v.city,
    open: !service.times.length || v.waiting,
    value: v.waiting ? v.hour : undefined,
    onChange: (x) => v.pick(x, true),
  });
}

/**
 * The full times of the service, for the waiting list: a second radio group behind a native
 * disclosure (closed while the service has free times, unless one of these is chosen).
 */
export function waitingList(o: {
  times: ChoiceOption[];
  city: string;
  open: boolean;
  value: string | undefined;
  onChange: (v: string) => void;
}) {
  return html`<details class="waiting" part="waiting-list" ?open=${o.open}>
    <summary>${msg("Join the waiting list", { id: "book.waiting" })}</summary>
    ${choiceGroup({
      name: "waiting",
      legend: msg(str`Full times in ${o.city}, for the waiting list`, { id: "book.waiting-times-in" }),
      hint: msg(
        "On the waiting list your party holds no table. If one frees up at the time you chose, we email you an offer to claim.",
        { id: "book.waiting-offer" },
      ),
      options: o.times,
      value: o.value,
      onChange: o.onChange,
      part: "time",
      fixed: true,
    })}
  </details>`;
}
