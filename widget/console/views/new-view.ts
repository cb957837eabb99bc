/**
 * A new booking taken by the staff (`/console/new`): by phone, by email, or a walk-in seated at
 * once (`/console/new?walk_in=1`: the party size is focused, Enter seats them). The guest is
 * looked up as the name is typed; the engine's table is suggested; pacing may be overridden.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing, type PropertyValues } from "lit";
import { state } from "lit/decorators.js";
import { now } from "../../clock.js";
import { ApiError, type Customer, type Schema, type Service } from "../api.js";
import { combinations } from "../parts/combine.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { navigate } from "../parts/navigate.js";
import { customersLike, propertyOf, roomsAt, servicesOf } from "../parts/reads.js";
import { occasionText } from "../parts/words.js";
import { nowIn } from "../router.js";

type ReservationCreate = Schema<"ReservationCreate">;
type Occasion = NonNullable<ReservationCreate["occasion"]>;

const OCCASIONS: Occasion[] = ["birthday", "anniversary", "business", "date", "other"];

import { ConsoleView } from "./view.js";

type Kind = "phone" | "email" | "walk-in";

/** The service running at `hour` on `date` (ISO weekday), else the first one that day, else the first. */
export function serviceAt(services: Service[], date: string, hour: string): Service | undefined {
  const weekday = ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
  const that = services.filter((s) => s.enabled && s.weekdays.includes(weekday));
  const inHours = (s: Service) =>
    s.start_hour <= s.end_hour
      ? s.start_hour <= hour && hour <= s.end_hour
      : hour >= s.start_hour || hour <= s.end_hour;
  return that.find(inHours) ?? that[0] ?? services[0];
}

/** A refusal because the service's pacing is reached (the staff may book past it). */
export const pacingRefused = (err: unknown) =>
  err instanceof ApiError && err.code === "booking_slot_not_available" && /pacing/i.test(err.detail ?? "");

/**
 * @csspart form - the booking form
 * @csspart suggestions - the guests found as the name is typed
 */
@localized()
export class NewView extends ConsoleView {
  @state() private kind: Kind = "phone";
  @state() private date = "";
  @state() private hour = "";
  @state() private pax = 2;
  @state() private serviceId = 0;
  @state() private lookup = "";
  @state() private customer: Customer | undefined;
  @state() private error: unknown;
  @state() private busy = false;
  private typing: ReturnType<typeof setTimeout> | undefined;

  private get walkIn() {
    return this.kind === "walk-in";
  }

  private base = new Task(this, {
    task: async (_args, { signal }) => {
      const [services, property] = await Promise.all([
        servicesOf(this.api, signal),
        propertyOf(this.api, signal).catch(() => undefined),
      ]);
      return { services: services.filter((s) => s.enabled), phone: property?.phone ?? undefined };
    },
    args: () => [this.api] as const,
  });

  private rooms = new Task(this, {
    task: async ([date, hour, pax, service_id], { signal }) =>
      date && hour && pax > 0 && service_id
        ? roomsAt(this.api, { date, hour: hour.length === 5 ? `${hour}:00` : hour, pax, service_id }, signal)
        : [],
    args: () => [this.date, this.hour, this.pax, this.serviceId] as const,
  });

  private found = new Task(this, {
    task: async ([text], { signal }) => (text.length >= 2 ? customersLike(this.api, text, signal) : []),
    args: () => [this.lookup] as const,
  });

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has("route"))
      this.kind =
        this.route?.view === "new" && this.route.walkIn
          ? "walk-in"
          : this.kind === "walk-in"
            ? "phone"
            : this.kind;
    if ((changed.has("route") || changed.has("today")) && this.walkIn) this.resetWalkIn();
    if (!this.date) this.date = this.today;
    if (!this.hour) this.hour = nowIn(this.session.property.timezone, now()).slice(0, 5);
    const services = this.base.value?.services;
    if (services?.length && !services.some((s) => s.id === this.serviceId))
      this.serviceId = serviceAt(services, this.date, `${this.hour}:00`)?.id ?? 0;
  }

  private resetWalkIn() {
    this.date = this.today;
    this.hour = nowIn(this.session.property.timezone, now()).slice(0, 5);
    this.serviceId = 0;
  }

  /** A walk-in starts on the party size (Enter then seats them); other bookings on the heading. */
  override focusHeading(): void {
    super.focusHeading();
    if (this.walkIn) void this.focusParty();
  }

  private async focusParty() {
    await this.base.taskComplete.catch(() => undefined);
    await this.updateComplete;
    const pax = this.renderRoot.querySelector<HTMLInputElement>('input[name="pax"]');
    pax?.focus();
    pax?.select();
  }

  override render() {
    return html`
      <h1 tabindex="-1">${this.walkIn ? msg("Walk-in", { id: "console.nav.walkin" }) : msg("New booking", { id: "console.nav.new" })}</h1>
      ${this.base.render({
        pending: () => html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: ({ services, phone }) => this.form(services, phone),
        error: (err) => actionError(err),
      })}
    `;
  }

  private form(services: Service[], housePhone: string | undefined) {
    const err = this.error;
    return html`<form part="form" @submit=${(e: SubmitEvent) => this.submit(e, housePhone)} novalidate>
      <fieldset>
        <legend>${msg("How the booking came", { id: "console.new.kind" })}</legend>
        <div class="actions">
          ${(["phone", "email", "walk-in"] as Kind[]).map(
            (
              k,
            ) => html`<label><input type="radio" name="kind" style="width:auto;display:inline;min-height:0" .checked=${this.kind === k} @change=${() => this.pick(k)} />
              ${k === "phone" ? msg("Phone", { id: "console.new.phone" }) : k === "email" ? msg("Email", { id: "console.new.email" }) : msg("Walk-in", { id: "console.nav.walkin" })}</label>`,
          )}
        </div>
      </fieldset>
      <div class="grid">
        <label>${msg("Party", { id: "console.col.party" })}<input name="pax" type="number" min="1" max="1000" required .value=${String(this.pax)} @focus=${(e: FocusEvent) => (e.target as HTMLInputElement).select()} @input=${(e: InputEvent) => (this.pax = Number((e.target as HTMLInputElement).value))} aria-invalid=${invalid(err, "pax")} aria-describedby="e-pax" /></label>
        ${fieldError(err, "pax", "e-pax")}
        ${this.walkIn ? nothing : this.when(services)}
      </div>
      ${this.guest(housePhone)} ${this.tables()}
      <div class="grid">
        <label>${msg("Allergies", { id: "console.badge.allergies" })}<input name="allergies" autocomplete="off" aria-invalid=${invalid(err, "allergies")} aria-describedby="e-allergies" /></label>
        ${fieldError(err, "allergies", "e-allergies")}
        <label>${msg("Occasion", { id: "console.occasion.other" })}
          <select name="occasion">
            <option value="">${msg("None", { id: "console.occasion.none" })}</option>
            ${OCCASIONS.map((o) => html`<option value=${o}>${occasionText(o)}</option>`)}
          </select>
        </label>
      </div>
      <label>${msg("Notes (staff only)", { id: "console.field.notes" })}<textarea name="notes" aria-invalid=${invalid(err, "notes")} aria-describedby="e-notes"></textarea></label>
      ${fieldError(err, "notes", "e-notes")}
      ${pacingRefused(err) ? html`<label><input type="checkbox" name="override_pacing" style="width:auto;display:inline;min-height:0" /> ${msg("Book past the pacing limit", { id: "console.new.override" })}</label>` : nothing}
      ${err instanceof ApiError && err.errors.length ? nothing : actionError(err)}
      <div class="actions">
        <button class="btn" type="submit" ?disabled=${this.busy}>${this.walkIn ? msg("Seat now", { id: "console.new.seat" }) : msg("Book", { id: "console.new.book" })}</button>
      </div>
    </form>`;
  }

  private pick(kind: Kind) {
    navigate(this, kind === "walk-in" ? { view: "new", walkIn: true } : { view: "new" }, true);
    this.kind = kind;
  }

  /** A time typed outside the chosen service's hours chooses the service of that day whose hours hold it. */
  private setHour(services: Service[], hour: string) {
    this.hour = hour;
    const at = serviceAt(services, this.date, `${hour}:00`);
    if (at && at.id !== this.serviceId) this.serviceId = at.id;
  }

  private when(services: Service[]) {
    const err = this.error;
    return html`
      <label>${msg("Date", { id: "console.field.date" })}<input name="start_date" type="date" required .value=${this.date} @change=${(e: Event) => (this.date = (e.target as HTMLInputElement).value)} aria-invalid=${invalid(err, "start_date")} aria-describedby="e-date" /></label>
      ${fieldError(err, "start_date", "e-date")}
      <label>${msg("Time", { id: "console.col.time" })}<input name="start_hour" type="time" required .value=${this.hour} @change=${(e: Event) => this.setHour(services, (e.target as HTMLInputElement).value)} aria-invalid=${invalid(err, "start_hour")} aria-describedby="e-hour" /></label>
      ${fieldError(err, "start_hour", "e-hour")}
      <label>${msg("Service", { id: "console.field.service" })}
        <select name="service_id" @change=${(e: Event) => (this.serviceId = Number((e.target as HTMLSelectElement).value))} aria-invalid=${invalid(err, "service_id")} aria-describedby="e-service">
          ${services.map((s) => html`<option value=${s.id} ?selected=${s.id === this.serviceId}>${s.name}</option>`)}
        </select>
      </label>
      ${fieldError(err, "service_id", "e-service")}
    `;
  }

  private guest(housePhone: string | undefined) {
    const err = this.error;
    const c = this.customer;
    const optional = this.walkIn && housePhone;
    return html`<fieldset>
      <legend>${msg("Guest", { id: "console.res.guest" })}${optional ? html` <span class="muted">(${msg("optional for a walk-in", { id: "console.new.optional" })})</span>` : nothing}</legend>
      ${c ? html`<p class="message" role="status">${msg(str`Booking for ${[c.first_name, c.last_name].filter(Boolean).join(" ")}`, { id: "console.new.for" })} <button class="btn secondary small" type="button" @click=${() => (this.customer = undefined)}>${msg("Someone else", { id: "console.new.other" })}</button></p>` : nothing}
      <div class="grid" ?hidden=${!!c}>
        <label>${msg("First name", { id: "console.field.first" })}<input name="first_name" autocomplete="off" @input=${this.onName} aria-invalid=${invalid(err, "customer.first_name")} aria-describedby="e-first" aria-controls="suggestions" /></label>
        ${fieldError(err, "customer.first_name", "e-first")}
        <label>${msg("Last name", { id: "console.field.last" })}<input name="last_name" autocomplete="off" @input=${this.onName} aria-controls="suggestions" /></label>
        <label>${msg("Phone", { id: "console.new.phone" })}<input name="phone" type="tel" autocomplete="off" @input=${this.onName} aria-invalid=${invalid(err, "customer.phone")} aria-describedby="e-phone" /></label>
        ${fieldError(err, "customer.phone", "e-phone")}
        <label>${msg("Email", { id: "console.new.email" })}<input name="email" type="email" autocomplete="off" @input=${this.onName} aria-invalid=${invalid(err, "customer.email")} aria-describedby="e-email" /></label>
        ${fieldError(err, "customer.email", "e-email")}
      </div>
      ${c ? nothing : this.suggestions()}
    </fieldset>`;
  }

  private onName = (e: InputEvent) => {
    const value = (e.target as HTMLInputElement).value.trim();
    clearTimeout(this.typing);
    this.typing = setTimeout(() => (this.lookup = value), 250);
  };

  private suggestions() {
    const list = this.found.value ?? [];
    return html`<div id="suggestions" part="suggestions" aria-live="polite">
      ${
        list.length
          ? html`<p class="muted">${msg("Known guests:", { id: "console.new.known" })}</p>
            <ul>${list.map((c) => html`<li><button class="btn secondary small" type="button" @click=${() => (this.customer = c)}>${[c.first_name, c.last_name].filter(Boolean).join(" ")} · ${c.phone ?? c.email ?? ""}${c.banned ? ` · ${msg("banned", { id: "console.guest.banned.short" })}` : ""}</button></li>`)}</ul>`
          : nothing
      }
    </div>`;
  }

  private tables() {
    const rooms = this.rooms.value ?? [];
    const fits = rooms.flatMap((room) =>
      room.tables
        .filter((t) => t.free && !t.closed && t.bookable && !t.group && t.guests_max >= this.pax)
        .map((t) => ({ ...t, room: room.name })),
    );
    const together = combinations(rooms, this.pax);
    const best = rooms.flatMap((room) =>
      room.tables.filter((t) => t.best_choice).map((t) => ({ ...t, room: room.name })),
    )[0];
    return html`<label>${msg("Table", { id: "console.new.table" })}
      <select name="table_id" aria-describedby="e-tables">
        <option value="">${best ? msg(str`The engine's choice: ${best.name} (${best.room})`, { id: "console.new.best" }) : msg("The engine's choice", { id: "console.new.auto" })}</option>
        ${
          together.length
            ? html`<optgroup label=${msg("Tables together", { id: "console.new.together" })}>
              ${together.map((c) => html`<option value=${c.ids.join(",")}>${c.names.join(" + ")} · ${c.room} (${c.seats})</option>`)}
            </optgroup>`
            : nothing
        }
        ${fits.length ? html`<optgroup label=${msg("One table", { id: "console.new.onetable" })}>${fits.map((t) => html`<option value=${t.id}>${t.name} · ${t.room} (${t.guests_min}–${t.guests_max})</option>`)}</optgroup>` : nothing}
      </select>
    </label>
    ${fieldError(this.error, "table_ids", "e-tables")}`;
  }

  private input(form: HTMLFormElement, housePhone: string | undefined): ReservationCreate {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim() || undefined;
    const tableIds = String(data.get("table_id") ?? "")
      .split(",")
      .map(Number)
      .filter((id) => id > 0);
    const typed = {
      first_name: text("first_name"),
      last_name: text("last_name"),
      phone: text("phone"),
      email: text("email"),
    };
    const anonymous = this.walkIn && !typed.first_name && !typed.last_name && !typed.phone && !typed.email;
    const customer = this.customer
      ? { id: this.customer.id }
      : anonymous
        ? { first_name: msg("Walk-in", { id: "console.nav.walkin" }), phone: housePhone }
        : typed;
    const walkIn = this.walkIn;
    return {
      channel: "PLATFORM_ADMIN",
      start_date: walkIn ? this.today : this.date,
      start_hour: `${walkIn ? nowIn(this.session.property.timezone, now()).slice(0, 5) : this.hour}:00`,
      pax: this.pax,
      service_id: this.serviceId,
      customer,
      ...(tableIds.length ? { table_ids: tableIds } : {}),
      ...(text("notes") ? { notes: text("notes") } : {}),
      ...(text("allergies") ? { allergies: text("allergies") } : {}),
      ...(text("occasion") ? { occasion: text("occasion") as Occasion } : {}),
      ...(data.get("override_pacing") ? { override_pacing: true } : {}),
    };
  }

  private async submit(e: SubmitEvent, housePhone: string | undefined) {
    e.preventDefault();
    if (this.busy) return;
    this.busy = true;
    this.error = undefined;
    try {
      const api = this.api;
      const body = this.input(e.target as HTMLFormElement, housePhone);
      const created = await api.one(api.POST("/reservations", { body }));
      const path = { reservation_id: created.id };
      if (this.walkIn)
        await api.done(api.PATCH("/reservations/{reservation_id}/checkin", { params: { path } }));
      navigate(this, { view: "reservation", id: created.id });
    } catch (err) {
      this.error = err;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]')?.focus();
    } finally {
      this.busy = false;
    }
  }
}
