/**
 * The timeline (`/console/timeline/<date>`): tables as rows, grouped by room, time as columns,
 * each reservation's hold as a bar. A bar moves to another table or time by drag, or by keyboard:
 * arrows propose a move (up/down a table, left/right a quarter hour), Enter asks the API, Escape
 * drops it. The engine decides; a refusal shows its answer in words.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, nothing, type PropertyValues } from "lit";
import { state } from "lit/decorators.js";
import { addDays, formatDate, formatTime } from "../../format.js";
import type { ReservationListItem as Reservation, Service, Table } from "../api.js";
import { allergyTexts, details, noteTexts } from "../parts/details.js";
import { actionError } from "../parts/errors.js";
import { link, navigate } from "../parts/navigate.js";
import { lateBy, minutesIn, NowTicker } from "../parts/now.js";
import { base, consoleStyles, theme } from "../parts/styles.js";
import { type Hold, holdsOf, hourOf, rowsByRoom, STEP, spanOf, tableAt } from "../parts/timeline-model.js";
import { guestName, occasionText } from "../parts/words.js";
import { ConsoleView } from "./view.js";

/** What a bar says beside the name: allergies, occasion, tags, notes (the aria-label reads them all). */
function barTexts(r: Reservation): string[] {
  return [
    ...allergyTexts(r),
    ...(r.occasion ? [occasionText(r.occasion)] : []),
    ...(r.customer?.tags ?? []),
    ...noteTexts(r),
  ];
}

interface Pending {
  hold: Hold;
  tableId: number;
  start: number;
}

/**
 * @csspart hold - a reservation's bar
 * @csspart track - one table's row of time
 */
@localized()
export class TimelineView extends ConsoleView {
  static override styles = [
    theme,
    base,
    consoleStyles,
    css`
      .rows {
        --_label: 6rem;
        min-width: 40rem;
      }
      .row {
        display: grid;
        grid-template-columns: var(--_label) 1fr;
        align-items: stretch;
        border-bottom: 1px solid var(--_surface);
      }
      .row > span {
        position: sticky;
        left: 0;
        z-index: 2;
        padding: 0.35rem 0.5rem;
        font-weight: 600;
        background: var(--_bg);
      }
      .row > span small {
        display: block;
        font-weight: 400;
        font-size: 0.75rem;
        color: var(--_muted);
      }
      .now {
        position: absolute;
        top: 0;
        bottom: 0;
        z-index: 1;
        width: 2px;
        background: var(--_danger);
        pointer-events: none;
      }
      .hold .warn {
        font-weight: 700;
      }
      .focused {
        min-height: 1.5rem;
        margin-bottom: 0.5rem;
      }
      .hold.late {
        outline: 3px solid var(--_danger);
        outline-offset: -3px;
      }
      .track {
        position: relative;
        min-height: 2.5rem;
        background-image: linear-gradient(to right, var(--_surface) 1px, transparent 1px);
        background-size: var(--_hour) 100%;
      }
      .track.target {
        outline: 2px dashed var(--_focus);
      }
      .axis {
        position: relative;
        height: 1.5rem;
        font-size: 0.8rem;
        color: var(--_muted);
      }
      .axis span {
        position: absolute;
        transform: translateX(-50%);
        white-space: nowrap;
      }
      .hold {
        position: absolute;
        top: 0.2rem;
        bottom: 0.2rem;
        overflow: hidden;
        padding: 0 0.3rem;
        border: 1px solid var(--_accent);
        border-radius: var(--_radius);
        background: var(--_accent);
        color: var(--_on-accent);
        font: inherit;
        font-size: 0.8rem;
        text-align: start;
        white-space: nowrap;
        cursor: grab;
      }
      .hold.seated {
        background: var(--_success);
        border-color: var(--_success);
      }
      .hold.block {
        background: var(--_muted);
        border-color: var(--_muted);
      }
      .hold.moving {
        outline: 3px dashed var(--_focus);
        outline-offset: 1px;
        opacity: 0.85;
      }
      h2 {
        margin-top: 1rem;
      }
    `,
  ];

  @state() private pending: Pending | undefined;
  @state() private moveError: unknown;
  @state() private said = "";
  /** the party whose bar has the focus (or the pointer): its details show above the tables */
  @state() private focused: Reservation | undefined;
  private dragged: Hold | undefined;
  private ticker = new NowTicker(this);
  /** the day the view last scrolled to the current hour */
  private scrolledFor = "";

  get date(): string {
    return (this.route?.view === "timeline" && this.route.date) || this.today;
  }

  private data = new Task(this, {
    task: async ([date], { signal }) => {
      const [list, rooms, tables, services] = await Promise.all([
        this.api.day({ date }, signal),
        this.api.list(this.api.GET("/rooms", { params: { query: { limit: 100 } }, signal })),
        this.api.list(this.api.GET("/tables", { params: { query: { limit: 100 } }, signal })),
        this.api.list(this.api.GET("/services", { params: { query: { limit: 100 } }, signal })),
      ]);
      return { holds: holdsOf(list, date), rooms, tables: tables.filter((t) => t.bookable), services };
    },
    args: () => [this.date, this.version] as const,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener("keydown", this.onDayKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("keydown", this.onDayKey);
  }

  /** A change reported, or the connection back: the refusal of the moment before is gone with it. */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has("version") && changed.get("version") !== undefined) this.moveError = undefined;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.data.value && this.scrolledFor !== this.date) this.openAtNow();
  }

  /** Today's timeline opens at the current hour (the table names stay in view). */
  private openAtNow() {
    const track = this.renderRoot.querySelector<HTMLElement>(".track");
    const scroller = this.renderRoot.querySelector<HTMLElement>(".scroll");
    const at = this.minuteNow();
    if (!track || !scroller || !this.data.value) return;
    this.scrolledFor = this.date;
    if (at === undefined) return;
    const span = spanOf(this.data.value.holds, this.data.value.services);
    const hour = Math.floor(at / 60) * 60;
    const share = Math.max(0, Math.min(1, (hour - span.from) / (span.to - span.from)));
    scroller.scrollLeft = share * track.offsetWidth;
  }

  private onDayKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const target = e.composedPath()[0] as HTMLElement | undefined;
    if (target && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName)) return;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      navigate(this, { view: "timeline", date: addDays(this.date, e.key === "ArrowRight" ? 1 : -1) });
    }
  };

  override render() {
    const date = this.date;
    return html`
      <h1 tabindex="-1">${msg(str`Timeline · ${formatDate(date, this.locale)}`, { id: "console.timeline.title" })}</h1>
      <div class="toolbar">
        <button class="btn secondary small" type="button" @click=${() => navigate(this, { view: "timeline", date: addDays(date, -1) })}>${msg("Previous day", { id: "console.day.prev" })}</button>
        <button class="btn secondary small" type="button" @click=${() => navigate(this, { view: "timeline", date: addDays(date, 1) })}>${msg("Next day", { id: "console.day.next" })}</button>
        ${link({ view: "day", date }, msg("This day's list", { id: "console.timeline.day" }))}
      </div>
      <p class="muted" id="how">${msg("To move a reservation, drag its bar, or focus it and use the arrow keys (up and down: another table; left and right: a quarter hour), then Enter. Escape drops the move.", { id: "console.timeline.help" })}</p>
      <div aria-live="polite" role="status">${this.said}</div>
      <div class="focused" part="focused">${this.focused ? html`<strong>${guestName(this.focused)} · ${this.focused.pax}</strong>${details(this.focused)}` : nothing}</div>
      ${actionError(this.moveError)}
      ${this.data.render({
        pending: () =>
          this.data.value
            ? this.grid(this.data.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (d) => this.grid(d),
        error: (err) => actionError(err),
      })}
    `;
  }

  private grid(d: {
    holds: Hold[];
    rooms: { id: number; name: string }[];
    tables: Table[];
    services: Service[];
  }) {
    const span = spanOf(d.holds, d.services);
    const hours = (span.to - span.from) / 60;
    const at = this.minuteNow();
    const groups = rowsByRoom(d.tables, d.rooms);
    const order = groups.flatMap((g) => g.tables);
    // An hour is never narrower than its label ("10:00 PM"): a narrow screen scrolls sideways instead.
    return html`<div class="scroll">
      <div class="rows" style="--_hour: ${100 / hours}%; min-width: max(40rem, calc(var(--_label) + ${hours} * 4.5rem))">
        <div class="row" aria-hidden="true">
          <span></span>
          <div class="axis">${Array.from({ length: hours }, (_, i) => html`<span style="left: ${(i / hours) * 100}%">${formatTime(hourOf(span.from + i * 60), this.locale)}</span>`)}</div>
        </div>
        ${groups.map(
          (g) => html`<section aria-labelledby="room-${g.room.id}">
            <h2 id="room-${g.room.id}">${g.room.name}</h2>
            ${g.tables.map((t) => this.track(t, d.holds, span, order, at))}
          </section>`,
        )}
      </div>
    </div>`;
  }

  /** The restaurant's minute now when the day shown is today, else undefined. */
  private minuteNow(): number | undefined {
    return this.date === this.today ? minutesIn(this.session.property.timezone, this.ticker.at) : undefined;
  }

  /** "Free until 8:30 PM" / "Held until 9:00 PM" / "Free" under a table's name, today only. */
  private tableState(holds: Hold[], t: Table, at: number | undefined) {
    if (at === undefined) return nothing;
    const s = tableAt(holds, t.id, at);
    const text =
      s.heldUntil !== undefined
        ? msg(str`Held until ${this.time(s.heldUntil)}`, { id: "console.table.held" })
        : s.freeUntil !== undefined
          ? msg(str`Free until ${this.time(s.freeUntil)}`, { id: "console.table.freeuntil" })
          : msg("Free", { id: "console.table.free" });
    return html`<small>${text}</small>`;
  }

  private track(t: Table, holds: Hold[], span: { from: number; to: number }, order: Table[], at?: number) {
    const width = span.to - span.from;
    const mine = holds.filter((h) => (this.pending?.hold === h ? this.pending.tableId : h.tableId) === t.id);
    const nowAt =
      at !== undefined && at >= span.from && at < span.to ? ((at - span.from) / width) * 100 : undefined;
    return html`<div class="row">
      <span id="table-${t.id}">${t.name}${this.tableState(holds, t, at)}</span>
      <div
        class="track"
        part="track"
        role="group"
        aria-labelledby="table-${t.id}"
        data-table=${t.id}
        @dragover=${(e: DragEvent) => this.dragged && e.preventDefault()}
        @drop=${(e: DragEvent) => this.drop(e, t, span)}
      >
        ${nowAt === undefined ? nothing : html`<div class="now" style="left: ${nowAt}%" aria-hidden="true"></div>`}
        ${mine.map((h) => this.bar(h, span.from, width, order, at))}
      </div>
    </div>`;
  }

  private bar(h: Hold, from: number, width: number, order: Table[], at?: number) {
    const moving = this.pending?.hold === h;
    const start = moving ? this.pending!.start : h.start;
    const r = h.reservation;
    const late = at === undefined ? 0 : lateBy(r, at);
    const cls = `hold ${r.checkin_date ? "seated" : ""} ${r.status === "OUTOFORDER" ? "block" : ""} ${moving ? "moving" : ""} ${late ? "late" : ""}`;
    const [begins, ends] = [this.time(start), this.time(start + h.end - h.start)];
    const held = msg(str`${guestName(r)}, ${r.pax} guests, ${begins} to ${ends}`, {
      id: "console.timeline.hold",
    });
    const allergies = allergyTexts(r);
    const rest = barTexts(r).slice(allergies.length);
    // what the bar shows, then what only a listener needs: the name contains the visible text
    const shown = [
      `${guestName(r)} · ${r.pax}`,
      ...(allergies.length ? [`⚠ ${allergies.join(" · ")}`] : []),
      ...rest,
    ].join(" · ");
    const label = [shown, held, ...(late ? [msg(str`${late} min late`, { id: "console.late" })] : [])].join(
      ", ",
    );
    return html`<button
      class=${cls}
      part="hold"
      type="button"
      draggable="true"
      data-id=${r.id}
      style="left: ${((start - from) / width) * 100}%; width: ${((h.end - h.start) / width) * 100}%"
      aria-label=${label}
      aria-describedby="how"
      @keydown=${(e: KeyboardEvent) => this.key(e, h, order)}
      @dragstart=${(e: DragEvent) => this.dragStart(e, h)}
      @dragend=${() => (this.dragged = undefined)}
      @dblclick=${() => navigate(this, { view: "reservation", id: r.id })}
      @focus=${() => (this.focused = r)}
      @mouseenter=${() => (this.focused = r)}
    >${guestName(r)} · ${r.pax}${allergies.length ? html` · <span class="warn">⚠ ${allergies.join(" · ")}</span>` : nothing}${rest.length ? ` · ${rest.join(" · ")}` : nothing}</button>`;
  }

  private key(e: KeyboardEvent, h: Hold, order: Table[]) {
    const p = this.pending?.hold === h ? this.pending : { hold: h, tableId: h.tableId, start: h.start };
    const index = order.findIndex((t) => t.id === p.tableId);
    let next: Pending | undefined;
    if (e.key === "ArrowUp" && index > 0) next = { ...p, tableId: order[index - 1]!.id };
    else if (e.key === "ArrowDown" && index < order.length - 1)
      next = { ...p, tableId: order[index + 1]!.id };
    else if (e.key === "ArrowLeft") next = { ...p, start: p.start - STEP };
    else if (e.key === "ArrowRight") next = { ...p, start: p.start + STEP };
    else if (e.key === "Escape" && this.pending) {
      this.pending = undefined;
      this.said = msg("Move dropped.", { id: "console.timeline.dropped" });
    } else if (e.key === "Enter" && this.pending?.hold === h) {
      e.preventDefault();
      void this.commit(this.pending);
      return;
    } else if (e.key === "Enter") {
      e.preventDefault();
      navigate(this, { view: "reservation", id: h.reservation.id });
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
    if (!next) return;
    this.pending = next;
    const table = order.find((t) => t.id === next!.tableId);
    const at = this.time(next.start);
    this.said = msg(str`Move to ${table?.name ?? ""} at ${at}? Enter to confirm.`, {
      id: "console.timeline.propose",
    });
    void this.refocus(h.reservation.id);
  }

  private time(minutes: number) {
    return formatTime(hourOf(minutes), this.locale);
  }

  /** The bar re-renders in another row: focus follows it. */
  private async refocus(id: number) {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`.hold[data-id="${id}"]`)?.focus();
  }

  private dragStart(e: DragEvent, h: Hold) {
    this.dragged = h;
    e.dataTransfer?.setData("text/plain", String(h.reservation.id));
    if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
  }

  private drop(e: DragEvent, t: Table, span: { from: number; to: number }) {
    const h = this.dragged;
    this.dragged = undefined;
    if (!h) return;
    e.preventDefault();
    const track = e.currentTarget as HTMLElement;
    const box = track.getBoundingClientRect();
    const barStart = (e.clientX - box.left) / box.width;
    const start = span.from + Math.round((barStart * (span.to - span.from)) / STEP) * STEP;
    void this.commit({ hold: h, tableId: t.id, start });
  }

  private async commit(p: Pending) {
    const r = p.hold.reservation;
    this.moveError = undefined;
    const others = r.tables.map((t) => t.id).filter((id) => id !== p.hold.tableId);
    const change = {
      ...(p.tableId !== p.hold.tableId
        ? { table_ids: [p.tableId, ...others.filter((id) => id !== p.tableId)] }
        : {}),
      ...(p.start !== p.hold.start ? { start_hour: hourOf(p.start) } : {}),
    };
    if (!Object.keys(change).length) {
      this.pending = undefined;
      return;
    }
    try {
      await this.api.done(
        this.api.PUT("/reservations/{reservation_id}", {
          params: { path: { reservation_id: r.id } },
          body: change,
        }),
      );
      // The bar stays where it was moved until the day is read again: no flicker back.
      await this.data.run();
      this.pending = undefined;
      this.said = msg(str`${guestName(r)} moved.`, { id: "console.timeline.moved" });
      void this.refocus(r.id);
    } catch (err) {
      this.moveError = err;
      this.pending = undefined;
      void this.refocus(r.id);
    }
  }
}
