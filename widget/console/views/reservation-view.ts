/**
 * One reservation (`/console/reservations/<id>`): seat, check out, undo, no-show, cancel, accept
 * or decline a waiting party; its payment (refunds, a no-show fee); edit its day, time, party, tables
 * and notes; its history and messages.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing, type PropertyValues } from "lit";
import { state } from "lit/decorators.js";
import { formatDate, formatTime } from "../../format.js";
import { ApiError, type ConsoleApi, type Reservation, type Schema, type Table } from "../api.js";
import { actionError, fieldError, invalid, problemText } from "../parts/errors.js";
import { link } from "../parts/navigate.js";
import {
  actionText,
  actorName,
  channelText,
  guestName,
  occasionText,
  statusText,
  statusWord,
} from "../parts/words.js";
import "./reservation-payment.js";
import { ConsoleView } from "./view.js";

type ReservationChange = Schema<"ReservationUpdate">;

type Action =
  | "checkin"
  | "checkout"
  | "undo-checkin"
  | "undo-checkout"
  | "accept"
  | "decline"
  | "no-show"
  | "undo-no-show"
  | "cancel";

/** The actions a reservation allows now (the server's state machine decides in the end). */
export function actionsOf(r: Reservation): Action[] {
  if (r.status === "WAITING") return ["accept", "decline", "checkin", "cancel"];
  if (r.checkout_date) return ["undo-checkout"];
  if (r.checkin_date)
    return r.status === "CANCELLED" || r.status === "EXPIRED" || r.status === "REJECTED"
      ? []
      : ["checkout", "undo-checkin"];
  if (r.status === "ACCEPTED" || r.status === "CONFIRMED" || r.status === "PREPAY")
    return ["checkin", "no-show", "cancel"];
  if (r.status === "OUTOFORDER") return ["cancel"];
  if (r.status === "EXPIRED" && r.status_reason === "no_show") return ["undo-no-show"];
  return [];
}

interface Loaded {
  reservation: Reservation;
  history: Pick<
    Schema<"ReservationHistoryItem">,
    "at" | "action" | "actor" | "by" | "from_status" | "to_status"
  >[];
  messages: Schema<"ReservationMessage">[];
  tables: Table[];
}

/** A change saved: the reservation as it now stands. */
const changed = (api: ConsoleApi, id: number, body: ReservationChange) =>
  api.one(api.PUT("/reservations/{reservation_id}", { params: { path: { reservation_id: id } }, body }));

/** What each action asks the API. */
function request(api: ConsoleApi, id: number, a: Action): Promise<unknown> {
  const path = { reservation_id: id };
  const step = (to: "checkin" | "checkout", undo: boolean) =>
    api.done(
      api.PATCH(`/reservations/{reservation_id}/${to}`, {
        params: { path, query: undo ? { undo: "true" } : {} },
      }),
    );
  const status = (to: string) =>
    api.done(api.PATCH("/reservations/{reservation_id}", { params: { path, query: { status: to } } }));
  const moves: Record<Action, () => Promise<unknown>> = {
    checkin: () => step("checkin", false),
    checkout: () => step("checkout", false),
    "undo-checkin": () => step("checkin", true),
    "undo-checkout": () => step("checkout", true),
    accept: () => status("accepted"),
    decline: () => status("declined"),
    "no-show": () => status("expired"),
    "undo-no-show": () => status("accepted"),
    cancel: () => api.done(api.DELETE("/reservations/{reservation_id}", { params: { path } })),
  };
  return moves[a]();
}

/**
 * @csspart actions - the reservation's action buttons
 * @csspart edit - the form that changes day, time, party, tables and notes
 */
@localized()
export class ReservationView extends ConsoleView {
  @state() private actionError: unknown;
  @state() private editError: unknown;
  @state() private done = "";
  @state() private confirming: Action | undefined;
  /** a change the party's tables cannot take: asked before the engine moves it */
  @state() private moving: { change: ReservationChange; why: unknown } | undefined;

  private get recordId(): number {
    return this.route?.view === "reservation" ? this.route.id : 0;
  }

  private data = new Task(this, {
    task: async ([id], { signal }): Promise<Loaded> => {
      const api = this.api;
      const path = { reservation_id: id };
      const [reservation, history, messages, tables] = await Promise.all([
        api.one(api.GET("/reservations/{reservation_id}", { params: { path }, signal })),
        api
          .list(api.GET("/reservations/{reservation_id}/history", { params: { path }, signal }))
          .catch(() => []),
        api
          .list(api.GET("/reservations/{reservation_id}/messages", { params: { path }, signal }))
          .catch(() => []),
        api.list(api.GET("/tables", { params: { query: { limit: 100 } }, signal })).catch(() => []),
      ]);
      return { reservation, history, messages, tables };
    },
    args: () => [this.recordId, this.version] as const,
  });

  /** A change reported, or the connection back: errors of the moment before are gone with it. */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has("version") && changed.get("version") !== undefined) {
      this.actionError = undefined;
      this.editError = undefined;
    }
  }

  override render() {
    const r = this.data.value?.reservation;
    // One heading throughout: the focus a navigation put on it stays there once the data comes.
    return html`<h1 tabindex="-1">${r ? html`${guestName(r)} · ${formatTime(r.start_hour, this.locale)}` : msg("Reservation", { id: "console.res.title" })}</h1>
      ${this.data.render({
        pending: () =>
          this.data.value
            ? this.show(this.data.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (d) => this.show(d),
        error: (err) => actionError(err),
      })}`;
  }

  private show(d: Loaded) {
    const r = d.reservation;
    const date = r.start_day;
    return html`
      <p>${link({ view: "day", date }, formatDate(date, this.locale))}</p>
      ${this.summary(r)} ${this.actions(r)}
      <bc-reservation-payment .api=${this.api} .reservation=${r} .staffRole=${this.session.role} @payment-changed=${() => this.data.run()}></bc-reservation-payment>
      ${this.edit(r, d.tables)}
      <section aria-labelledby="history-title">
        <h2 id="history-title">${msg("History", { id: "console.res.history" })}</h2>
        <ol>${d.history.map((h) => html`<li><time datetime=${h.at}>${formatDate(h.at.slice(0, 10), this.locale)} ${formatTime(h.at.slice(11, 16), this.locale)}</time> · ${actionText(h.action)}${h.to_status && h.to_status !== h.from_status ? ` → ${statusWord(h.to_status)}` : ""} <span class="muted">(${h.by ? actorName(h.by) : h.actor})</span></li>`)}</ol>
      </section>
      <section aria-labelledby="messages-title">
        <h2 id="messages-title">${msg("Messages", { id: "console.res.messages" })}</h2>
        ${
          d.messages.length
            ? html`<ul>${d.messages.map((m) => html`<li>${m.template} → ${m.to} · ${m.state}</li>`)}</ul>`
            : html`<p class="muted">${msg("No messages.", { id: "console.res.nomessages" })}</p>`
        }
      </section>
    `;
  }

  private summary(r: Reservation) {
    const c = r.customer;
    return html`<dl class="summary">
      <dt>${msg("Status", { id: "console.col.status" })}</dt><dd>${statusText(r)}</dd>
      <dt>${msg("Party", { id: "console.col.party" })}</dt><dd>${r.pax}</dd>
      <dt>${msg("Tables", { id: "console.col.tables" })}</dt><dd>${r.tables.map((t) => t.name).join(", ") || "—"}</dd>
      <dt>${msg("Service", { id: "console.field.service" })}</dt><dd>${r.service?.name ?? "—"}</dd>
      <dt>${msg("Channel", { id: "console.col.channel" })}</dt><dd>${channelText(r.channel)}</dd>
      <dt>${msg("Guest", { id: "console.res.guest" })}</dt>
      <dd>${c ? link({ view: "guest", id: c.id }, guestName(r)) : guestName(r)} ${[r.guest?.phone ?? c?.phone, r.guest?.email ?? c?.email].filter(Boolean).join(" · ")}</dd>
      ${r.occasion ? html`<dt>${msg("Occasion", { id: "console.occasion.other" })}</dt><dd>${occasionText(r.occasion)}</dd>` : nothing}
      ${r.allergies ? html`<dt>${msg("Allergies", { id: "console.badge.allergies" })}</dt><dd>${r.allergies}</dd>` : nothing}
      ${r.special_request ? html`<dt>${msg("Request", { id: "console.res.request" })}</dt><dd>${r.special_request}</dd>` : nothing}
    </dl>`;
  }

  private label(a: Action): string {
    const labels: Record<Action, string> = {
      checkin: msg("Seat", { id: "console.action.seat" }),
      checkout: msg("Check out", { id: "console.action.checkout" }),
      "undo-checkin": msg("Undo seating", { id: "console.action.undo-checkin" }),
      "undo-checkout": msg("Undo check-out", { id: "console.action.undo-checkout" }),
      accept: msg("Accept", { id: "console.action.accept" }),
      decline: msg("Decline", { id: "console.action.decline" }),
      "no-show": msg("No-show", { id: "console.status.noshow" }),
      "undo-no-show": msg("Undo no-show: they came", { id: "console.action.undo-noshow" }),
      cancel: msg("Cancel reservation", { id: "console.action.cancel" }),
    };
    return labels[a];
  }

  private actions(r: Reservation) {
    const list = actionsOf(r);
    return html`<section aria-labelledby="actions-title" part="actions">
      <h2 id="actions-title" class="sr-only">${msg("Actions", { id: "console.col.actions" })}</h2>
      <div class="actions">
        ${list.map((a) =>
          this.confirming === a
            ? html`<button class="btn danger" type="button" @click=${() => this.act(r, a)}>${msg(str`Yes: ${this.label(a)}`, { id: "console.action.confirm" })}</button>
                <button class="btn secondary" type="button" id="keep" @click=${() => (this.confirming = undefined)}>${msg("Keep it", { id: "console.action.keep" })}</button>`
            : html`<button class="btn ${a === "cancel" || a === "no-show" || a === "decline" ? "secondary" : ""}" type="button" @click=${() => this.ask(r, a)}>${this.label(a)}</button>`,
        )}
      </div>
      <div aria-live="polite">${this.done ? html`<p class="message success" role="status" tabindex="-1" id="done">${this.done}</p>` : nothing}</div>
      ${actionError(this.actionError)}
    </section>`;
  }

  /** Final moves (cancel, no-show, decline) ask once more; the rest act at once. */
  private async ask(r: Reservation, a: Action) {
    if (a === "cancel" || a === "no-show" || a === "decline") {
      this.confirming = a;
      // the safe answer takes the focus: a second Enter keeps the reservation as it is
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>("#keep")?.focus();
    } else void this.act(r, a);
  }

  private async act(r: Reservation, a: Action) {
    this.confirming = undefined;
    this.actionError = undefined;
    this.done = "";
    try {
      await request(this.api, r.id, a);
      this.done = msg(str`Done: ${this.label(a)}.`, { id: "console.action.done" });
      await this.data.run();
      // the focus goes to what was done, never to the undo button that took the pressed one's place
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>("#done")?.focus();
    } catch (err) {
      this.actionError = err instanceof ApiError ? (this.arrivalText(r, err) ?? err) : err;
    }
  }

  /** A check-in refused for its hour, in words: when it opens (three hours before), or that the day is over. */
  private arrivalText(r: Reservation, err: ApiError): string | undefined {
    if (err.code === "no_show_final")
      return msg("Too late to undo the no-show: its service is over.", { id: "console.noshow.final" });
    if (err.code === "checkin_too_late")
      return msg("Too late to seat this party: its day is over.", { id: "console.checkin.late" });
    if (err.code !== "checkin_too_early") return undefined;
    const [h = 0, m = 0] = r.start_hour.split(":").map(Number);
    const opens = formatTime(`${(h + 21) % 24}:${String(m).padStart(2, "0")}`, this.locale);
    return msg(str`Too early to seat this party: seating opens three hours before its time, at ${opens}.`, {
      id: "console.checkin.early",
    });
  }

  private edit(r: Reservation, tables: Table[]) {
    const err = this.editError;
    const held = new Set(r.tables.map((t) => t.id));
    return html`<section aria-labelledby="edit-title">
      <h2 id="edit-title">${msg("Change", { id: "console.res.edit" })}</h2>
      <form part="edit" class="grid" @submit=${(e: SubmitEvent) => this.save(e, r)} novalidate>
        <label>${msg("Date", { id: "console.field.date" })}<input name="start_day" type="date" .value=${r.start_day} aria-invalid=${invalid(err, "start_day")} aria-describedby="e-day" /></label>
        ${fieldError(err, "start_day", "e-day")}
        <label>${msg("Time", { id: "console.col.time" })}<input name="start_hour" type="time" .value=${r.start_hour.slice(0, 5)} aria-invalid=${invalid(err, "start_hour")} aria-describedby="e-hour" /></label>
        ${fieldError(err, "start_hour", "e-hour")}
        <label>${msg("Party", { id: "console.col.party" })}<input name="pax" type="number" min="1" .value=${String(r.pax)} aria-invalid=${invalid(err, "pax")} aria-describedby="e-pax" /></label>
        ${fieldError(err, "pax", "e-pax")}
        <label>${msg("Tables", { id: "console.col.tables" })}
          <select name="table_ids" multiple size="4" aria-invalid=${invalid(err, "table_ids")} aria-describedby="e-tables">
            ${tables.filter((t) => t.bookable).map((t) => html`<option value=${t.id} ?selected=${held.has(t.id)}>${t.name} (${t.guests_min}–${t.guests_max})</option>`)}
          </select>
        </label>
        ${fieldError(err, "table_ids", "e-tables")}
        <label>${msg("Notes (staff only)", { id: "console.field.notes" })}<textarea name="notes" .value=${r.notes ?? ""} aria-invalid=${invalid(err, "notes")} aria-describedby="e-notes"></textarea></label>
        ${fieldError(err, "notes", "e-notes")}
        <div class="actions"><button class="btn" type="submit">${msg("Save changes", { id: "console.res.save" })}</button></div>
      </form>
      ${this.moveQuestion(r)}
      ${err && !(err as { errors?: unknown[] }).errors?.length ? actionError(err) : nothing}
    </section>`;
  }

  private async save(e: SubmitEvent, r: Reservation) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const change = changesOf(
      r,
      new FormData(form),
      [...(form.elements.namedItem("table_ids") as HTMLSelectElement).selectedOptions].map((o) =>
        Number(o.value),
      ),
    );
    this.editError = undefined;
    this.moving = undefined;
    this.done = "";
    if (!Object.keys(change).length) return;
    // A new size or time keeps the party's tables, or asks before the engine moves it.
    const keep = keepsTables(r, change) ? { table_ids: r.tables.map((t) => t.id) } : {};
    try {
      await changed(this.api, r.id, { ...change, ...keep });
      this.done = msg("Saved.", { id: "console.saved" });
      this.data.run();
    } catch (err) {
      if (Object.keys(keep).length && tablesRefused(err)) {
        this.moving = { change, why: err };
        // the question takes the focus, not its Move button: a second Enter must not move the party
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('[role="alertdialog"]')?.focus();
      } else this.editError = err;
    }
  }

  /** The change once the staff agreed the party moves: the engine picks its tables, and the view says which. */
  private async move(r: Reservation, change: ReservationChange) {
    this.moving = undefined;
    try {
      const saved = await changed(this.api, r.id, change);
      const from = r.tables.map((t) => t.name).join(", ");
      const to = saved.tables.map((t) => t.name).join(", ");
      this.done = msg(str`Saved. Moved from ${from} to ${to}.`, { id: "console.res.moved" });
      this.data.run();
    } catch (err) {
      this.editError = err;
    }
  }

  private moveQuestion(r: Reservation) {
    const m = this.moving;
    if (!m) return nothing;
    const tables = r.tables.map((t) => t.name).join(", ");
    return html`<div class="message" role="alertdialog" tabindex="-1" aria-labelledby="move-q" aria-describedby="move-why">
      <p id="move-q"><strong>${msg(str`This change needs another table than ${tables}.`, { id: "console.res.needsmove" })}</strong></p>
      <p id="move-why">${problemText(m.why)}</p>
      <div class="actions">
        <button class="btn" type="button" @click=${() => this.move(r, m.change)}>${msg("Move to another table", { id: "console.res.move" })}</button>
        <button class="btn secondary" type="button" @click=${() => (this.moving = undefined)}>${msg("Keep it as it was", { id: "console.res.nomove" })}</button>
      </div>
    </div>`;
  }
}

/** Whether a change of size or time should keep the tables the party holds (the staff named none). */
export function keepsTables(r: Reservation, change: ReservationChange): boolean {
  const held = r.tables.length > 0 && r.tables.every((t) => !t.free);
  return (
    held &&
    !change.table_ids &&
    (change.pax !== undefined || change.start_hour !== undefined || change.start_day !== undefined)
  );
}

/** A refusal of the party's own tables (taken, or too small): the engine could move it elsewhere. */
const tablesRefused = (err: unknown) =>
  err instanceof ApiError &&
  (err.code === "table_not_available" || err.code === "room_capacity_exceeded") &&
  (err.reason === "full" || err.reason === "party_size");

/** Only the fields the form changed. */
export function changesOf(r: Reservation, data: FormData, tableIds: number[]): ReservationChange {
  const change: ReservationChange = {};
  const day = String(data.get("start_day") ?? "");
  const hour = String(data.get("start_hour") ?? "");
  const pax = Number(data.get("pax"));
  const notes = String(data.get("notes") ?? "");
  if (day && day !== r.start_day) change.start_day = day;
  if (hour && `${hour}:00` !== r.start_hour) change.start_hour = `${hour}:00`;
  if (pax && pax !== r.pax) change.pax = pax;
  const held = r.tables.map((t) => t.id).sort();
  if (tableIds.length && tableIds.sort().join() !== held.join()) change.table_ids = tableIds;
  if (notes !== (r.notes ?? "")) change.notes = notes;
  return change;
}
