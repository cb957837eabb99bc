/**
 * The guest changes date, time or party size from the manage page. Native
 * controls only (a keyboard and a screen reader know them); the times are the day's free ones
 * for the party. The reservation stays as it is until the server has moved it: a time taken
 * meanwhile offers the nearest free ones.
 */
import { localized, msg, str } from "@lit/localize";
import { Task, TaskStatus } from "@lit/task";
import { LitElement, css, html, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type { PublicApi, PublicApiError, PublicProfile, PublicReservation } from "../api.js";
import { fire } from "../events.js";
import { formatTime } from "../format.js";
import { placeOf } from "../parts/place.js";
import { base } from "../parts/styles.js";

/** A 409 "time no longer available", read by its fields: the chunk needs only the error's type. */
const taken = (e: unknown) => (e as PublicApiError | undefined)?.status === 409 && (e as PublicApiError).code === "time_no_longer_available";

/** A time to choose: `service_id|hour` and how it reads. */
interface TimeOption {
  value: string;
  label: string;
}

export interface ChangedDetail {
  reservation: PublicReservation;
}

/**
 * @fires be-changed - (internal) the reservation was moved; detail `{ reservation }`
 * @fires be-change-cancel - (internal) the guest keeps the reservation as it is
 */
@localized()
export class ManageChange extends LitElement {
  static override styles = [
    base,
    css`
      .fields {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
        gap: 0.75rem 1rem;
      }
      form > * + * {
        margin-top: var(--_gap);
      }
    `,
  ];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property({ attribute: false }) declare reservation: PublicReservation | undefined;
  @property() declare token: string;
  @property() declare locale: string;

  @state() private declare date: string;
  @state() private declare pax: number;
  @state() private declare choice: string;
  @state() private declare failure: unknown;
  @state() private declare alternatives: string[];
  /** the service of the time last asked for: its alternatives are of that service */
  private askedService = "";

  constructor() {
    super();
    this.token = "";
    this.locale = "en";
    this.date = "";
    this.pax = 2;
    this.choice = "";
    this.alternatives = [];
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("reservation") && this.reservation && !this.date) {
      this.date = this.reservation.date;
      this.pax = this.reservation.pax;
    }
  }

  /** The day's free times for the party, every service: `service_id|hour`. */
  private times = new Task(this, {
    args: () => [this.api, this.date, this.pax] as const,
    task: async ([api, date, pax], { signal }) => {
      if (!api || !date) return [];
      const [day] = await api.slots({ date, pax }, signal);
      return (day?.services ?? []).flatMap((s) => s.times.map((h) => ({ value: `${s.service_id}|${h}`, label: `${formatTime(h, this.locale)} · ${s.name}`, late: h < s.start_hour })));
    },
  });

  private save = new Task(this, {
    autoRun: false,
    task: async ([value]: readonly [string], { signal }) => {
      const [service, hour] = value.split("|");
      const late = this.times.value?.find((t) => t.value === value)?.late;
      // A time past midnight is booked on the next calendar date, as on the booking page.
      const date = late ? new Date(Date.parse(`${this.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : this.date;
      return this.api!.change(this.token, { date, hour: hour!.slice(0, 5), pax: this.pax, service_id: Number(service) }, signal);
    },
    onComplete: (reservation) => fire<ChangedDetail>(this, "be-changed", { reservation }, false),
    onError: (error) => {
      this.failure = error;
      this.alternatives = taken(error) ? (error as PublicApiError).alternatives : [];
      void this.times.run();
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>("#change-failure")?.focus());
    },
  });

  private submit(e: SubmitEvent) {
    e.preventDefault();
    const value = this.choice || this.times.value?.[0]?.value;
    if (!value || this.save.status === TaskStatus.PENDING) return;
    this.failure = undefined;
    this.askedService = value.split("|")[0]!;
    void this.save.run([value]);
  }

  override render() {
    const p = this.profile;
    if (!p || !this.reservation) return nothing;
    const pending = this.save.status === TaskStatus.PENDING;
    const alternatives = this.alternatives.map((h) => ({ value: `${this.askedService}|${h}`, label: formatTime(h, this.locale) }));
    return html`<form class="message stack" part="change" aria-labelledby="change-h" @submit=${this.submit}>
      <h3 id="change-h" tabindex="-1">${msg("Change your reservation", { id: "change.title" })}</h3>
      <div class="fields">
        ${this.dateAndPax(p)}
        <div class="field">
          <label for="change-time">${msg(str`Time in ${placeOf(p)}`, { id: "book.time-in" })}</label>
          ${this.times.render({
            pending: () => html`<p class="muted" role="status">${msg("Looking for free tables…", { id: "book.loading" })}</p>`,
            error: () => html`<p class="message error">${msg("The times could not be loaded. Please try again.", { id: "book.slots-error" })}</p>`,
            complete: (list) => this.timeSelect(alternatives, list),
          })}
        </div>
      </div>
      <div role="alert">
        ${this.failure ? this.failureMessage(alternatives.length > 0) : nothing}
      </div>
      <div class="actions">
        <button type="submit" class="btn" part="button" aria-disabled=${pending || !this.times.value?.length ? "true" : "false"}>
          ${pending ? msg("Saving…", { id: "change.pending" }) : msg("Save the change", { id: "change.save" })}
        </button>
        <button type="button" class="btn secondary" part="button" @click=${() => fire(this, "be-change-cancel", {}, false)}>${msg("Keep it as it is", { id: "change.keep" })}</button>
      </div>
    </form>`;
  }

  private dateAndPax(p: PublicProfile) {
    return html`<div class="field">
        <label for="change-date">${msg("Date", { id: "book.date" })}</label>
        <input id="change-date" type="date" part="input" required min=${p.first_date} max=${p.last_date} .value=${this.date} @change=${(e: Event) => this.set({ date: (e.target as HTMLInputElement).value })} />
      </div>
      <div class="field">
        <label for="change-pax">${msg("Guests", { id: "book.pax" })}</label>
        <select id="change-pax" part="input" @change=${(e: Event) => this.set({ pax: Number((e.target as HTMLSelectElement).value) })}>
          ${Array.from({ length: p.max_online_pax }, (_, i) => i + 1).map((n) => html`<option value=${n} ?selected=${n === this.pax}>${n}</option>`)}
        </select>
      </div>`;
  }

  /** The day's free times, the alternatives to a time just taken first. */
  private timeSelect(alternatives: readonly TimeOption[], list: readonly TimeOption[]) {
    if (!list.length)
      return html`<p class="muted" id="change-time" tabindex="-1">${msg("No free tables on this day for this party. Please choose another date.", { id: "book.none" })}</p>`;
    return html`<select id="change-time" part="input" @change=${(e: Event) => (this.choice = (e.target as HTMLSelectElement).value)}>
      ${[...alternatives, ...list.filter((t) => !alternatives.some((a) => a.value === t.value))].map(
        (t) => html`<option value=${t.value} ?selected=${t.value === this.choice}>${t.label}</option>`,
      )}
    </select>`;
  }

  private failureMessage(hasAlternatives: boolean) {
    return html`<p id="change-failure" tabindex="-1" class="message error" part="error">
      ${taken(this.failure)
        ? hasAlternatives
          ? msg("Sorry, that time was just taken. The nearest free times are first in the list.", { id: "change.taken" })
          : msg("No other time is free on that day. Please choose another date.", { id: "details.no-alternatives" })
        : (this.failure as PublicApiError).status === 429
          ? msg("Too many attempts. Please wait a minute and try again.", { id: "error.rate" })
          : msg("The reservation could not be changed. Your reservation is unchanged.", { id: "change.error" })}
    </p>`;
  }

  private set(o: { date?: string; pax?: number }) {
    if (o.date) this.date = o.date;
    if (o.pax) this.pax = o.pax;
    this.choice = "";
    this.alternatives = [];
    this.failure = undefined;
  }
}
