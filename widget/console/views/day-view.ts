/**
 * The day: its reservations by service (time, party, name, tables, status, channel, badges),
 * covers per service and per quarter hour, a search, and one key to the next or previous day.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing, type PropertyValues } from "lit";
import { state } from "lit/decorators.js";
import { addDays, formatDate, formatTime } from "../../format.js";
import type { ReservationListItem as Reservation } from "../api.js";
import { details } from "../parts/details.js";
import { actionError } from "../parts/errors.js";
import { link, navigate } from "../parts/navigate.js";
import { lateBy, minutesIn, NowTicker, nextIds, startOf } from "../parts/now.js";
import { searchDays } from "../parts/reads.js";
import { hourOf } from "../parts/timeline-model.js";
import { channelText, counts, guestName, statusText } from "../parts/words.js";
import { ConsoleView } from "./view.js";

/** Today's "now": its minute, the next arrivals, and the row the now-line goes before (-service id - 1: after that service's last). */
interface Now {
  at: number;
  next: Set<number>;
  line: number;
}

/** Where the now-line goes: before the first party due after `at`, else after the day's last. */
export function nowLineBefore(list: Reservation[], at: number): number {
  const after = byService(list)
    .flatMap((g) => g.reservations)
    .find((r) => startOf(r) > at);
  if (after) return after.id;
  const groups = byService(list);
  return -(groups[groups.length - 1]?.id ?? 0) - 1;
}

/** How far the search looks, back and ahead (days). */
const SEARCH_DAYS = 366;

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
  private ticker = new NowTicker(this);

  get date(): string {
    return (this.route?.view === "day" && this.route.date) || this.today;
  }

  private list = new Task(this, {
    task: ([date], { signal }) => this.api.day({ date }, signal),
    args: () => [this.date, this.version] as const,
  });
  /** the search: every day from a year back to a year ahead, not the day shown only */
  private found = new Task(this, {
    task: ([text, today], { signal }) =>
      text
        ? searchDays(
            this.api,
            { text, from: addDays(today, -SEARCH_DAYS), to: addDays(today, SEARCH_DAYS) },
            signal,
          )
        : undefined,
    args: () => [this.search, this.today, this.version] as const,
  });
  private house = new Task(this, {
    task: () => this.api.houseRecord(),
    args: () => [this.api] as const,
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

  /** A change reported, or the connection back: errors of the moment before are gone with it. */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has("version") && changed.get("version") !== undefined) {
      this.rowError = undefined;
    }
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
          <input type="search" name="search" aria-keyshortcuts="/" .value=${this.search} @input=${this.onSearch} />
        </label>
        ${link({ view: "timeline", date }, msg("This day's timeline", { id: "console.day.timeline" }))}
      </div>
      ${
        this.search
          ? this.results()
          : this.list.render({
              pending: () =>
                this.list.value
                  ? this.book(this.list.value)
                  : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
              complete: (list) => this.book(list),
              error: (err) => actionError(err),
            })
      }
    `;
  }

  /** `/`: the search field. */
  focusSearch(): void {
    this.renderRoot.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
  }

  /** The search's finds on any day, in date order. */
  private results() {
    const list = this.found.value;
    if (this.found.error) return actionError(this.found.error);
    if (!list) return html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`;
    if (!list.length)
      return html`<p class="message" role="status">${msg("No reservation matches the search.", { id: "console.day.nomatch" })}</p>`;
    return html`<section aria-labelledby="found"><h2 id="found">${msg("Found on any day", { id: "console.day.found" })}</h2>
      <div class="scroll"><table class="found">
        <thead><tr>
          <th scope="col">${msg("Date", { id: "console.field.date" })}</th>
          <th scope="col">${msg("Time", { id: "console.col.time" })}</th>
          <th scope="col">${msg("Party", { id: "console.col.party" })}</th>
          <th scope="col">${msg("Name", { id: "console.col.name" })}</th>
          <th scope="col">${msg("Status", { id: "console.col.status" })}</th>
        </tr></thead>
        <tbody>${list.map(
          (r) => html`<tr data-id=${r.id}>
            <td>${formatDate(r.start_date, this.locale)}</td>
            <td>${formatTime(r.start_hour, this.locale)}</td>
            <td>${r.pax}</td>
            <td>${link({ view: "reservation", id: r.id }, guestName(r))} <span class="muted">${r.customer?.phone ?? ""}</span></td>
            <td>${statusText(r)}</td>
          </tr>`,
        )}</tbody>
      </table></div></section>`;
  }

  private book(list: Reservation[]) {
    if (!list.length)
      return html`<p class="message" role="status">${msg("No reservations on this day.", { id: "console.day.empty" })}</p>`;
    const groups = byService(list);
    const total = groups.reduce((n, g) => n + g.covers, 0);
    const parties = list.filter(counts).length;
    const at =
      this.date === this.today ? minutesIn(this.session.property.timezone, this.ticker.at) : undefined;
    const now = at === undefined ? undefined : { at, next: nextIds(list, at), line: nowLineBefore(list, at) };
    return html`
      <p role="status">${msg(str`${parties} reservations, ${total} covers`, { id: "console.day.total" })}</p>
      ${this.quarters(list)}
      ${groups.map((g) => this.service(g, now))}
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

  private service(g: ServiceGroup, now: Now | undefined) {
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
          <tbody>${g.reservations.map((r) => html`${now?.line === r.id ? this.nowLine(now.at) : nothing}${this.row(r, now)}`)}${now?.line === -g.id - 1 ? this.nowLine(now.at) : nothing}</tbody>
        </table>
      </div>
    </section>`;
  }

  /** The restaurant's time, drawn between the parties before it and those after. */
  private nowLine(at: number) {
    const time = formatTime(hourOf(at), this.locale);
    return html`<tr class="now-line" part="now-line"><td colspan="7"><span>${msg(str`Now · ${time}`, { id: "console.now" })}</span></td></tr>`;
  }

  private row(r: Reservation, now?: Now) {
    const seatable = !r.checkin_date && (r.status === "ACCEPTED" || r.status === "CONFIRMED");
    const late = now ? lateBy(r, now.at) : 0;
    return html`<tr data-id=${r.id} class=${late ? "late" : now?.next.has(r.id) ? "next" : ""}>
      <td>${formatTime(r.start_hour, this.locale)}${late ? html`<br /><span class="badge alert">${msg(str`${late} min late`, { id: "console.late" })}</span>` : now?.next.has(r.id) ? html`<br /><span class="badge next">${msg("Next", { id: "console.next" })}</span>` : nothing}</td>
      <td>${r.pax}</td>
      <td>${link({ view: "reservation", id: r.id }, guestName(r))}${details(r, this.house.value?.phone)}</td>
      <td>${r.tables.map((t) => t.name).join(", ") || html`<span class="muted">—</span>`}</td>
      <td>${statusText(r)}</td>
      <td>${channelText(r.channel)}</td>
      <td>
        ${seatable ? html`<button class="btn small" type="button" @click=${() => this.seat(r)} aria-label=${msg(str`Seat ${guestName(r)}`, { id: "console.day.seat.label" })}>${msg("Seat", { id: "console.action.seat" })}</button>` : nothing}
        ${this.rowError?.id === r.id ? actionError(this.rowError.err) : nothing}
      </td>
    </tr>`;
  }

  private async seat(r: Reservation) {
    this.rowError = undefined;
    try {
      await this.api.done(
        this.api.PATCH("/reservations/{reservation_id}/checkin", {
          params: { path: { reservation_id: r.id } },
        }),
      );
      await this.list.run();
      // the Seat button is gone: the focus goes to the party's name on its row
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`tr[data-id="${r.id}"] a`)?.focus();
    } catch (err) {
      this.rowError = { id: r.id, err };
    }
  }
}
