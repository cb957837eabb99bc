/**
 * The day: its reservations by service (time, party, name, tables, status, channel, badges),
 * covers per service and per quarter hour, a search, and one key to the next or previous day.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { addDays, formatDate, formatTime } from "../../format.js";
import type { ReservationListItem as Reservation } from "../api.js";
import { actionError } from "../parts/errors.js";
import { link, navigate } from "../parts/navigate.js";
import { dayOf } from "../parts/reads.js";
import { channelText, counts, guestName, occasionText, statusText } from "../parts/words.js";
import { ConsoleView } from "./view.js";

interface ServiceGroup {
  id: number;
  name: string;
  reservations: Reservation[];
  covers: number;
}

/** The day's reservations grouped by service, in start order (no service: last). */
export function byService(list: Reservation[]): ServiceGroup[] {
  const groups = new Map<number, ServiceGroup>();
  for (const r of list) {
    const id = r.service?.id ?? 0;
    let g = groups.get(id);
    if (!g) {
      g = { id, name: r.service?.name ?? "", reservations: [], covers: 0 };
      groups.set(id, g);
    }
    g.reservations.push(r);
    if (counts(r)) g.covers += r.pax;
  }
  return [...groups.values()].sort((a, b) =>
    a.id === 0 ? 1 : b.id === 0 ? -1 : a.reservations[0]!.start_hour < b.reservations[0]!.start_hour ? -1 : 1,
  );
}

/** Covers arriving per quarter hour ("19:00" -> 12), for the parties that count. */
export function coversByQuarter(list: Reservation[]): [string, number][] {
  const quarters = new Map<string, number>();
  for (const r of list) {
    if (!counts(r)) continue;
    const [h = "00", m = "00"] = r.start_hour.split(":");
    const key = `${h}:${String(Math.floor(Number(m) / 15) * 15).padStart(2, "0")}`;
    quarters.set(key, (quarters.get(key) ?? 0) + r.pax);
  }
  return [...quarters.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * The day view (`/console` and `/console/day/<date>`).
 * @csspart service - one service's section
 */
@localized()
export class DayView extends ConsoleView {
  @state() private search = "";
  @state() private rowError: { id: number; err: unknown } | undefined;
  private typing: ReturnType<typeof setTimeout> | undefined;

  get date(): string {
    return (this.route?.view === "day" && this.route.date) || this.today;
  }

  private list = new Task(this, {
    task: ([date, search], { signal }) => dayOf(this.api, { date, search: search || undefined }, signal),
    args: () => [this.date, this.search, this.version] as const,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener("keydown", this.onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("keydown", this.onKey);
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const target = e.composedPath()[0] as HTMLElement | undefined;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      this.goTo(addDays(this.date, e.key === "ArrowRight" ? 1 : -1));
    }
  };

  private goTo(date: string) {
    navigate(this, { view: "day", date });
  }

  private onSearch(e: InputEvent) {
    const value = (e.target as HTMLInputElement).value.trim();
    clearTimeout(this.typing);
    this.typing = setTimeout(() => (this.search = value), 250);
  }

  override render() {
    const date = this.date;
    return html`
      <h1 tabindex="-1">${formatDate(date, this.locale)}</h1>
      <div class="toolbar">
        <button class="btn secondary small" type="button" aria-keyshortcuts="ArrowLeft" @click=${() => this.goTo(addDays(date, -1))}>${msg("Previous day", { id: "console.day.prev" })}</button>
        <button class="btn secondary small" type="button" aria-keyshortcuts="ArrowRight" @click=${() => this.goTo(addDays(date, 1))}>${msg("Next day", { id: "console.day.next" })}</button>
        ${date !== this.today ? html`<button class="btn secondary small" type="button" @click=${() => this.goTo(this.today)}>${msg("Today", { id: "console.day.today" })}</button>` : nothing}
        <label>${msg("Date", { id: "console.field.date" })}
          <input type="date" .value=${date} @change=${(e: Event) => (e.target as HTMLInputElement).value && this.goTo((e.target as HTMLInputElement).value)} />
        </label>
        <label>${msg("Search name, phone or email", { id: "console.day.search" })}
          <input type="search" name="search" .value=${this.search} @input=${this.onSearch} />
        </label>
        ${link({ view: "timeline", date }, msg("This day's timeline", { id: "console.day.timeline" }))}
      </div>
      ${this.list.render({
        pending: () =>
          this.list.value
            ? this.book(this.list.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (list) => this.book(list),
        error: (err) => actionError(err),
      })}
    `;
  }

  private book(list: Reservation[]) {
    if (!list.length)
      return html`<p class="message" role="status">${this.search ? msg("No reservation matches the search.", { id: "console.day.nomatch" }) : msg("No reservations on this day.", { id: "console.day.empty" })}</p>`;
    const groups = byService(list);
    const total = groups.reduce((n, g) => n + g.covers, 0);
    return html`
      <p role="status">${msg(str`${list.length} reservations, ${total} covers`, { id: "console.day.total" })}</p>
      ${this.quarters(list)}
      ${groups.map((g) => this.service(g))}
    `;
  }

  private quarters(list: Reservation[]) {
    const quarters = coversByQuarter(list);
    if (!quarters.length) return nothing;
    return html`<div class="scroll">
      <table class="quarters">
        <caption class="sr-only">${msg("Covers per quarter hour", { id: "console.day.quarters" })}</caption>
        <tr><th scope="row">${msg("Arrivals", { id: "console.day.arrivals" })}</th>${quarters.map(([q]) => html`<th scope="col">${formatTime(q, this.locale)}</th>`)}</tr>
        <tr><th scope="row">${msg("Covers", { id: "console.day.covers" })}</th>${quarters.map(([, n]) => html`<td>${n}</td>`)}</tr>
      </table>
    </div>`;
  }

  private service(g: ServiceGroup) {
    const name = g.name || msg("Without a service", { id: "console.day.noservice" });
    return html`<section part="service" aria-labelledby="service-${g.id}">
      <h2 id="service-${g.id}">${name} <span class="muted">· ${msg(str`${g.covers} covers`, { id: "console.day.service.covers" })}</span></h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">${msg("Time", { id: "console.col.time" })}</th>
              <th scope="col">${msg("Party", { id: "console.col.party" })}</th>
              <th scope="col">${msg("Name", { id: "console.col.name" })}</th>
              <th scope="col">${msg("Tables", { id: "console.col.tables" })}</th>
              <th scope="col">${msg("Status", { id: "console.col.status" })}</th>
              <th scope="col">${msg("Channel", { id: "console.col.channel" })}</th>
              <th scope="col"><span class="sr-only">${msg("Actions", { id: "console.col.actions" })}</span></th>
            </tr>
          </thead>
          <tbody>${g.reservations.map((r) => this.row(r))}</tbody>
        </table>
      </div>
    </section>`;
  }

  private row(r: Reservation) {
    const seatable = !r.checkin_date && (r.status === "ACCEPTED" || r.status === "CONFIRMED");
    return html`<tr data-id=${r.id}>
      <td>${formatTime(r.start_hour, this.locale)}</td>
      <td>${r.pax}</td>
      <td>${link({ view: "reservation", id: r.id }, guestName(r))}<br />${this.badges(r)}</td>
      <td>${r.tables.map((t) => t.name).join(", ") || html`<span class="muted">—</span>`}</td>
      <td>${statusText(r)}</td>
      <td>${channelText(r.channel)}</td>
      <td>
        ${seatable ? html`<button class="btn small" type="button" @click=${() => this.seat(r)} aria-label=${msg(str`Seat ${guestName(r)}`, { id: "console.day.seat.label" })}>${msg("Seat", { id: "console.action.seat" })}</button>` : nothing}
        ${this.rowError?.id === r.id ? actionError(this.rowError.err) : nothing}
      </td>
    </tr>`;
  }

  private badges(r: Reservation) {
    return html`${r.occasion ? html`<span class="badge">${occasionText(r.occasion)}</span>` : nothing}${r.allergies ? html`<span class="badge alert" title=${r.allergies}>${msg("Allergies", { id: "console.badge.allergies" })}</span>` : nothing}${r.notes || r.special_request ? html`<span class="badge" title=${[r.notes, r.special_request].filter(Boolean).join(" · ")}>${msg("Notes", { id: "console.badge.notes" })}</span>` : nothing}${(r.customer?.visits ?? 0) > 0 ? html`<span class="badge">${msg("Returning", { id: "console.badge.returning" })}</span>` : nothing}`;
  }

  private async seat(r: Reservation) {
    this.rowError = undefined;
    try {
      await this.api.done(
        this.api.PATCH("/reservations/{reservation_id}/checkin", {
          params: { path: { reservation_id: r.id } },
        }),
      );
      this.list.run();
    } catch (err) {
      this.rowError = { id: r.id, err };
    }
  }
}
