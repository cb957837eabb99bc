/**
 * The guest changes date, time or party size from the manage page. The form starts from the
 * reservation as it is (its date, party, service and time chosen) and sends only what the guest
 * changed. The times are the day's free ones for the party, as chips grouped by service like the
 * booking page's. The reservation stays as it is until the server has moved it: a time taken
 * meanwhile offers the nearest free ones.
 */
import { localized, msg, str } from "@lit/localize";
import { Task, TaskStatus } from "@lit/task";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type {
  PublicApi,
  PublicApiError,
  PublicChangeInput,
  PublicProfile,
  PublicReservation,
  PublicSlotDay,
} from "../api.js";
import { fire } from "../events.js";
import { addDays, formatTime } from "../format.js";
import { choiceGroup, choiceStyles, timesSkeleton } from "../parts/choice.js";
import { placeOf } from "../parts/place.js";
import { base } from "../parts/styles.js";

/** A 409 "time no longer available", read by its fields: the chunk needs only the error's type. */
const taken = (e: unknown) =>
  (e as PublicApiError | undefined)?.status === 409 &&
  (e as PublicApiError).code === "time_no_longer_available";

/** One service's times of the day: `service_id|hour`, and which are past midnight (booked on the next date). */
interface ServiceTimes {
  id: number;
  name: string;
  times: string[];
  late: Set<string>;
}

export interface ChangedDetail {
  reservation: PublicReservation;
}

/** What the guest may change, as the form holds it: the time is `service_id|hour`. */
interface Draft {
  date: string;
  pax: number;
  choice: string;
}

/**
 * Only what differs from the reservation as it is: a party size changed alone keeps the date,
 * the time and the service.
 */
export function changeInput(
  r: PublicReservation,
  d: { date: string; hour: string; pax: number; serviceId: number },
): PublicChangeInput {
  const input: PublicChangeInput = {};
  if (d.date !== r.date) input.date = d.date;
  if (d.hour.slice(0, 5) !== r.hour.slice(0, 5)) input.hour = d.hour.slice(0, 5);
  if (d.pax !== r.pax) input.pax = d.pax;
  if (d.serviceId !== r.service?.id) input.service_id = d.serviceId;
  return input;
}

/**
 * The day's services and their free times for the party; on the reservation's own day its own
 * time is listed in its service (the party holds it, so it is not free to others).
 */
function dayTimes(
  day: PublicSlotDay | undefined,
  own: { hour: string; serviceId: number | undefined } | undefined,
): ServiceTimes[] {
  const list = (day?.services ?? []).map((s) => ({
    id: s.service_id,
    name: s.name,
    times: [...s.times],
    late: new Set(s.times.filter((h) => h < s.start_hour)),
  }));
  const mine = own && list.find((s) => s.id === own.serviceId);
  if (mine && !mine.times.includes(own.hour)) {
    mine.times.push(own.hour);
    // In the service's order: a time before its first start is past midnight, so last.
    const start = day?.services.find((s) => s.service_id === mine.id)?.start_hour ?? "00:00:00";
    const key = (h: string) => (h < start ? "1" : "0") + h;
    mine.times.sort((a, b) => key(a).localeCompare(key(b)));
    if (own.hour < start) mine.late.add(own.hour);
  }
  return list.filter((s) => s.times.length);
}

/**
 * @fires be-changed - (internal) the reservation was moved; detail `{ reservation }`
 * @fires be-change-cancel - (internal) the guest keeps the reservation as it is
 */
@localized()
export class ManageChange extends LitElement {
  static override styles = [
    base,
    choiceStyles,
    css`
      .fields {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
        gap: 0.75rem 1rem;
      }
      form > * + * {
        margin-top: var(--_gap);
      }
      .times {
        margin: 0;
        padding: 0;
        border: 0;
        display: grid;
        gap: var(--_gap);
      }
      .times > legend {
        font-weight: 600;
        margin-bottom: 0.4rem;
      }
    `,
  ];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property({ attribute: false }) declare reservation: PublicReservation | undefined;
  @property() declare token: string;
  @property() declare locale: string;

  /** the form as the guest left it; it starts as the reservation is */
  @state() declare private draft: Draft | undefined;
  @state() declare private failure: unknown;
  @state() declare private alternatives: string[];
  @state() declare private missingTime: boolean;
  /** the service of the time last asked for: its alternatives are of that service */
  private askedService = "";

  constructor() {
    super();
    this.token = "";
    this.locale = "en";
    this.alternatives = [];
    this.missingTime = false;
  }

  override willUpdate(changed: Map<string, unknown>) {
    const r = this.reservation;
    if (changed.has("reservation") && r && !this.draft)
      this.draft = { date: r.date, pax: r.pax, choice: r.service ? `${r.service.id}|${r.hour}` : "" };
  }

  /** The day's free times for the party, by service (the reservation's own time among them on its day). */
  private times = new Task(this, {
    args: () => [this.api, this.draft?.date, this.draft?.pax] as const,
    task: async ([api, date, pax], { signal }) => {
      const r = this.reservation;
      if (!api || !date || !pax || !r) return [];
      const [day] = await api.slots({ date, pax }, signal);
      return dayTimes(day, date === r.date ? { hour: r.hour, serviceId: r.service?.id } : undefined);
    },
  });

  private save = new Task(this, {
    autoRun: false,
    task: async ([input]: readonly [PublicChangeInput], { signal }) =>
      this.api!.change(this.token, input, signal),
    onComplete: (reservation) => fire<ChangedDetail>(this, "be-changed", { reservation }, false),
    onError: (error) => {
      this.failure = error;
      this.alternatives = taken(error) ? (error as PublicApiError).alternatives : [];
      if (this.alternatives.length) this.draft = { ...this.draft!, choice: "" };
      void this.times.run();
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>("#change-failure")?.focus(),
      );
    },
  });

  /** Sends what the guest changed; nothing changed keeps the reservation as it is. */
  private submit(e: SubmitEvent) {
    e.preventDefault();
    const d = this.draft;
    const r = this.reservation;
    if (!d || !r || this.save.status === TaskStatus.PENDING) return;
    const [service = "", hour] = d.choice.split("|");
    if (!hour) {
      this.missingTime = true;
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLInputElement>('input[type="radio"]')?.focus(),
      );
      return;
    }
    const late = this.times.value?.some((s) => String(s.id) === service && s.late.has(hour));
    // A time past midnight is booked on the next calendar date, as on the booking page.
    const date = late ? addDays(d.date, 1) : d.date;
    const input = changeInput(r, { date, hour, pax: d.pax, serviceId: Number(service) });
    if (!Object.keys(input).length) return fire(this, "be-change-cancel", {}, false);
    this.failure = undefined;
    this.askedService = service;
    void this.save.run([input]);
  }

  override render() {
    const p = this.profile;
    const d = this.draft;
    if (!p || !d) return nothing;
    const pending = this.save.status === TaskStatus.PENDING;
    return html`<form class="message stack" part="change" aria-labelledby="change-h" @submit=${this.submit}>
      <h3 id="change-h" tabindex="-1">${msg("Change your reservation", { id: "change.title" })}</h3>
      <div class="fields">${this.dateAndPax(p, d)}</div>
      <div role="alert">${this.failure ? this.failureMessage(this.alternatives.length > 0) : nothing}</div>
      ${this.alternatives.length ? this.alternativesGroup(d) : nothing}
      ${this.times.render({
        pending: () => html`<div role="status">${timesSkeleton()}</div>`,
        error: () =>
          html`<p class="message error">${msg("The times could not be loaded. Please try again.", { id: "book.slots-error" })}</p>`,
        complete: (list) => this.timeGroups(p, d, list),
      })}
      ${this.missingTime ? html`<p id="time-error" class="message error" role="alert">${msg("Please choose a time.", { id: "book.time-missing" })}</p>` : nothing}
      <div class="actions">
        <button type="submit" class="btn" part="button" aria-disabled=${pending ? "true" : "false"}>
          ${pending ? msg("Saving…", { id: "change.pending" }) : msg("Save the change", { id: "change.save" })}
        </button>
        <button type="button" class="btn secondary" part="button" @click=${() => fire(this, "be-change-cancel", {}, false)}>${msg("Keep it as it is", { id: "change.keep" })}</button>
      </div>
    </form>`;
  }

  private dateAndPax(p: PublicProfile, d: Draft) {
    return html`<div class="field">
        <label for="change-date">${msg("Date", { id: "book.date" })}</label>
        <input id="change-date" type="date" part="input" required min=${p.first_date} max=${p.last_date} .value=${d.date} @change=${(e: Event) => this.set({ date: (e.target as HTMLInputElement).value })} />
      </div>
      <div class="field">
        <label for="change-pax">${msg("Guests", { id: "book.pax" })}</label>
        <select id="change-pax" part="input" @change=${(e: Event) => this.set({ pax: Number((e.target as HTMLSelectElement).value) })}>
          ${Array.from({ length: Math.max(p.max_online_pax, d.pax) }, (_, i) => i + 1).map((n) => html`<option value=${n} ?selected=${n === d.pax}>${n}</option>`)}
        </select>
      </div>`;
  }

  /** The day's times as on the booking page: one group of chips per service, the chosen one checked. */
  private timeGroups(p: PublicProfile, d: Draft, list: readonly ServiceTimes[]) {
    if (!list.length)
      return html`<p class="muted" id="change-none">${msg("No free tables on this day for this party. Please choose another date.", { id: "book.none" })}</p>`;
    return html`<fieldset class="times" id="change-times">
      <legend>${msg(str`Time in ${placeOf(p)}`, { id: "book.time-in" })}</legend>
      ${list.map((s) =>
        choiceGroup({
          name: "change-time",
          legend: s.name,
          options: s.times.map((h) => ({ value: `${s.id}|${h}`, label: formatTime(h, this.locale) })),
          value: d.choice,
          onChange: (choice) => this.set({ choice }),
          describedBy: this.missingTime ? "time-error" : undefined,
          part: "time",
          fixed: true,
        }),
      )}
    </fieldset>`;
  }

  /** After a time was taken meanwhile: the nearest free times of that service, first. */
  private alternativesGroup(d: Draft) {
    return choiceGroup({
      name: "change-alternative",
      legend: msg("Free times", { id: "details.free-times" }),
      options: this.alternatives.map((h) => ({
        value: `${this.askedService}|${h}`,
        label: formatTime(h, this.locale),
      })),
      value: d.choice,
      onChange: (choice) => this.set({ choice }),
      part: "time",
      fixed: true,
    });
  }

  private failureMessage(hasAlternatives: boolean) {
    return html`<p id="change-failure" tabindex="-1" class="message error" part="error">
      ${
        taken(this.failure)
          ? hasAlternatives
            ? msg("Sorry, that time was just taken. The nearest free times are first in the list.", {
                id: "change.taken",
              })
            : msg("No other time is free on that day. Please choose another date.", {
                id: "details.no-alternatives",
              })
          : (this.failure as PublicApiError).status === 429
            ? msg("Too many attempts. Please wait a minute and try again.", { id: "error.rate" })
            : msg("The reservation could not be changed. Your reservation is unchanged.", {
                id: "change.error",
              })
      }
    </p>`;
  }

  /**
   * What the guest touched, and only that: a new date or party size keeps the chosen time
   * (the server says when it is not free for them).
   */
  private set(o: Partial<Draft>) {
    this.draft = { ...this.draft!, ...o };
    if (o.choice === undefined) this.alternatives = [];
    this.missingTime = false;
    this.failure = undefined;
  }
}
