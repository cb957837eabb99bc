/**
 * The floor plan (`/console/floor`): each room drawn with its tables where the owner placed them,
 * coloured by their state now (free, reserved soon, seated, late; each also said in words). In
 * service, pick a party and then a table to seat or move it there, or pick a table to seat the
 * party due at it. Arranging, drag a table or use the keys (arrows move, Shift for fine steps,
 * + and - resize, r rotates, s changes the shape), then save. Loaded only when opened.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing, svg } from "lit";
import { state } from "lit/decorators.js";
import { FLOOR_HEIGHT, FLOOR_WIDTH, type TableLayout } from "../../../shared/floor.js";
import { now } from "../../clock.js";
import { formatTime } from "../../format.js";
import type { ReservationListItem as Reservation, Room, Table } from "../api.js";
import { actionError } from "../parts/errors.js";
import {
  firstPlace,
  keepOnPlan,
  nudge,
  type TableNow,
  type TableState,
  tableStates,
} from "../parts/floor-model.js";
import { guestName } from "../parts/words.js";
import { nowIn } from "../router.js";
import { floorStyles } from "./floor-styles.js";
import { ConsoleView } from "./view.js";

type Mode = "service" | "arrange";

function stateText(s: TableState): string {
  return {
    free: msg("Free", { id: "console.floor.free" }),
    soon: msg("Reserved soon", { id: "console.floor.soon" }),
    seated: msg("Seated", { id: "console.floor.seated" }),
    late: msg("Late", { id: "console.floor.late" }),
  }[s];
}

@localized()
export class FloorView extends ConsoleView {
  static override styles = [...ConsoleView.styles, floorStyles];

  @state() private mode: Mode = "service";
  @state() private party: number | undefined;
  @state() private picked: number | undefined;
  @state() private error: unknown;
  @state() private said = "";
  /** layouts changed while arranging, not saved yet */
  @state() private drafts = new Map<number, TableLayout>();
  private drag: { id: number; dx: number; dy: number; svg: SVGSVGElement } | undefined;

  private data = new Task(this, {
    task: async ([today], { signal }) => {
      const api = this.api;
      const all = { params: { query: { limit: 100 } }, signal };
      const [rooms, tables, list] = await Promise.all([
        api.list(api.GET("/rooms", all)),
        api.list(api.GET("/tables", all)),
        api.day({ date: today }, signal),
      ]);
      return { rooms, tables: tables.filter((t) => !t.group), list };
    },
    args: () => [this.today, this.version] as const,
  });

  /** Redrawn each minute, so a party turns late as the clock passes its time (no request). */
  private tick: ReturnType<typeof setInterval> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.tick = setInterval(() => this.requestUpdate(), 60_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.tick);
  }

  private layoutOf(t: Table, index: number): TableLayout {
    return this.drafts.get(t.id) ?? t.layout ?? firstPlace(index, t.guests_max);
  }

  override render() {
    return html`
      <h1 tabindex="-1">${msg("Floor plan", { id: "console.nav.floor" })}</h1>
      <fieldset class="toolbar modes">
        <legend class="sr-only">${msg("Mode", { id: "console.floor.mode" })}</legend>
        ${(["service", "arrange"] as Mode[]).map(
          (
            m,
          ) => html`<label><input type="radio" name="mode" .checked=${this.mode === m} @change=${() => this.setMode(m)} />
            ${m === "service" ? msg("Seat and move", { id: "console.floor.service" }) : msg("Arrange tables", { id: "console.floor.arrange" })}</label>`,
        )}
        ${this.mode === "arrange" ? html`<button class="btn small" type="button" ?disabled=${!this.drafts.size} @click=${this.save}>${msg("Save layout", { id: "console.floor.save" })}</button>` : nothing}
      </fieldset>
      <p class="legend" aria-hidden="true">${(["free", "soon", "seated", "late"] as TableState[]).map((s) => html`<span class="key ${s}"></span>${stateText(s)} `)}</p>
      <p role="status" class="muted">${this.said}</p>
      ${actionError(this.error)}
      ${this.data.render({
        pending: () =>
          this.data.value
            ? this.plan(this.data.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (d) => this.plan(d),
        error: (err) => actionError(err),
      })}
    `;
  }

  private setMode(m: Mode) {
    this.mode = m;
    this.picked = undefined;
    this.said = "";
  }

  private plan(d: { rooms: Room[]; tables: Table[]; list: Reservation[] }) {
    const states = tableStates(d.list, nowIn(this.session.property.timezone, now()));
    return html`<div class="floor">
      <div class="rooms">${d.rooms.map((room) =>
        this.room(
          room,
          d.tables.filter((t) => t.room_id === room.id),
          states,
        ),
      )}</div>
      ${this.mode === "service" ? this.parties(d.list, states) : this.arrangeHelp()}
    </div>`;
  }

  private room(room: Room, tables: Table[], states: Map<number, TableNow>) {
    return html`<section aria-labelledby="room-${room.id}">
      <h2 id="room-${room.id}">${room.name}</h2>
      <svg viewBox="0 0 ${FLOOR_WIDTH} ${FLOOR_HEIGHT}" role="group" aria-labelledby="room-${room.id}"
        @click=${this.onPlan} @keydown=${this.onPlan} @pointerdown=${this.onPlan}
        @pointermove=${this.onDragMove} @pointerup=${this.onDragEnd} @pointercancel=${this.onDragEnd}>
        <rect class="room" x="0" y="0" width=${FLOOR_WIDTH} height=${FLOOR_HEIGHT}></rect>
        ${tables.map((t, i) => this.table(t, this.layoutOf(t, i), states.get(t.id)))}
      </svg>
    </section>`;
  }

  private table(t: Table, l: TableLayout, now: TableNow | undefined) {
    const s = now?.state ?? "free";
    const who = now?.reservation
      ? `, ${guestName(now.reservation)} ${formatTime(now.reservation.start_hour, this.locale)}`
      : "";
    const second = s === "free" ? `${t.guests_max}` : stateText(s);
    // The visible words first (name, then seats or state), so the spoken name starts as the plan reads.
    const label = `${t.name} ${second}, ${msg(str`${t.guests_max} seats`, { id: "console.floor.seats" })}, ${stateText(s)}${who}`;
    const [cx, cy] = [l.x + l.width / 2, l.y + l.height / 2];
    return svg`<g class="table ${s} ${this.picked === t.id ? "picked" : ""} ${this.drafts.has(t.id) ? "moved" : ""}" role="button" tabindex="0"
      aria-label=${label} aria-pressed=${this.picked === t.id ? "true" : "false"} data-id=${t.id}
      transform="rotate(${l.rotation} ${cx} ${cy})"
>
      ${l.shape === "round" ? svg`<ellipse cx=${cx} cy=${cy} rx=${l.width / 2} ry=${l.height / 2}></ellipse>` : svg`<rect x=${l.x} y=${l.y} width=${l.width} height=${l.height} rx="6"></rect>`}
      <text x=${cx} y=${cy - 4} text-anchor="middle">${t.name}<tspan class="state" x=${cx} dy="18"> ${second}</tspan></text>
    </g>`;
  }

  /** One listener a room: the table an event reached, by its data-id. */
  private onPlan = (e: Event) => {
    const id = Number((e.target as Element).closest<SVGGElement>(".table")?.dataset.id);
    const tables = this.data.value?.tables ?? [];
    const index = tables
      .filter((x) => x.room_id === tables.find((t) => t.id === id)?.room_id)
      .findIndex((x) => x.id === id);
    const t = tables.find((x) => x.id === id);
    if (!t) return;
    const l = this.layoutOf(t, index);
    if (e.type === "click") this.pick(t);
    else if (e.type === "keydown") this.onTableKey(e as KeyboardEvent, t, l);
    else this.onDragStart(e as PointerEvent, t, l);
  };

  private onTableKey(e: KeyboardEvent, t: Table, l: TableLayout) {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.pick(t);
      return;
    }
    if (this.mode !== "arrange") return;
    const next = nudge(l, e.key, e.shiftKey);
    if (!next) return;
    e.preventDefault();
    this.drafts = new Map(this.drafts).set(t.id, next);
  }

  private onDragStart(e: PointerEvent, t: Table, l: TableLayout) {
    if (this.mode !== "arrange") return;
    const svgEl = e.currentTarget as SVGSVGElement;
    const p = this.point(svgEl, e);
    this.drag = { id: t.id, dx: p.x - l.x, dy: p.y - l.y, svg: svgEl };
    svgEl.setPointerCapture?.(e.pointerId);
    this.drafts = new Map(this.drafts).set(t.id, l);
  }

  private onDragMove = (e: PointerEvent) => {
    const drag = this.drag;
    if (!drag) return;
    const current = this.drafts.get(drag.id);
    if (!current) return;
    const p = this.point(drag.svg, e);
    this.drafts = new Map(this.drafts).set(
      drag.id,
      keepOnPlan({ ...current, x: p.x - drag.dx, y: p.y - drag.dy }),
    );
  };

  private onDragEnd = () => {
    this.drag = undefined;
  };

  /** A pointer's place in the plan's own units. */
  private point(svgEl: SVGSVGElement, e: PointerEvent) {
    const m = svgEl.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    return new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  }

  private async save() {
    this.error = undefined;
    try {
      for (const [id, layout] of this.drafts)
        await this.api.done(this.api.PUT("/tables/{id}", { params: { path: { id } }, body: { layout } }));
      this.said = msg(str`Layout saved: ${this.drafts.size} tables.`, { id: "console.floor.saved" });
      this.drafts = new Map();
      this.data.run();
    } catch (err) {
      this.error = err;
    }
  }

  private arrangeHelp() {
    return html`<aside class="side"><h2>${msg("Arranging", { id: "console.floor.arranging" })}</h2>
      <p>${msg("Drag a table, or focus it and use the arrows (Shift: finer), + and - to resize, r to rotate, s to change its shape. Then save.", { id: "console.floor.keys" })}</p></aside>`;
  }

  private pick(t: Table) {
    if (this.mode !== "service") return;
    this.picked = this.picked === t.id ? undefined : t.id;
  }

  /** The parties still to seat, to pick one; then what the picked table offers. */
  private parties(list: Reservation[], states: Map<number, TableNow>) {
    const waiting = list.filter(
      (r) => !r.checkin_date && (r.status === "ACCEPTED" || r.status === "CONFIRMED"),
    );
    const at = this.picked !== undefined ? states.get(this.picked) : undefined;
    return html`<aside class="side">
      <fieldset>
        <legend>${msg("Party to seat", { id: "console.floor.party" })}</legend>
        ${
          waiting.length
            ? waiting.map(
                (
                  r,
                ) => html`<label class="party"><input type="radio" name="party" .checked=${this.party === r.id} @change=${() => (this.party = r.id)} />
          ${formatTime(r.start_hour, this.locale)} · ${guestName(r)} · ${r.pax} ${r.tables.length ? html`<span class="muted">(${r.tables.map((x) => x.name).join(", ")})</span>` : nothing}</label>`,
              )
            : html`<p class="muted">${msg("Nobody left to seat today.", { id: "console.floor.nobody" })}</p>`
        }
      </fieldset>
      ${this.picked !== undefined ? this.actions(list, at) : html`<p class="muted">${msg("Pick a table on the plan.", { id: "console.floor.pick" })}</p>`}
    </aside>`;
  }

  private actions(list: Reservation[], at: TableNow | undefined) {
    const table = this.data.value?.tables.find((t) => t.id === this.picked);
    if (!table) return nothing;
    const party = list.find((r) => r.id === this.party);
    const due = at?.reservation && !at.reservation.checkin_date ? at.reservation : undefined;
    return html`<div class="actions">
      <h2>${table.name}: ${stateText(at?.state ?? "free")}</h2>
      ${
        party
          ? html`<button class="btn small" type="button" @click=${() => this.place(party, table, true)}>${msg(str`Seat ${guestName(party)} here`, { id: "console.floor.seathere" })}</button>
        <button class="btn secondary small" type="button" @click=${() => this.place(party, table, false)}>${msg(str`Move ${guestName(party)} here`, { id: "console.floor.movehere" })}</button>`
          : nothing
      }
      ${due && due.id !== party?.id ? html`<button class="btn small" type="button" @click=${() => this.place(due, table, true)}>${msg(str`Seat ${guestName(due)}`, { id: "console.day.seat.label" })}</button>` : nothing}
    </div>`;
  }

  /** Moves the party to the table when it holds another, then seats it if asked. */
  private async place(r: Reservation, table: Table, seat: boolean) {
    this.error = undefined;
    try {
      const path = { reservation_id: r.id };
      if (!(r.tables.length === 1 && r.tables[0]!.id === table.id))
        await this.api.done(
          this.api.PUT("/reservations/{reservation_id}", {
            params: { path },
            body: { table_ids: [table.id] },
          }),
        );
      if (seat)
        await this.api.done(this.api.PATCH("/reservations/{reservation_id}/checkin", { params: { path } }));
      this.said = seat
        ? msg(str`${guestName(r)} seated at ${table.name}.`, { id: "console.floor.didseat" })
        : msg(str`${guestName(r)} moved to ${table.name}.`, { id: "console.floor.didmove" });
      this.party = undefined;
      this.picked = undefined;
      this.data.run();
    } catch (err) {
      this.error = err;
    }
  }
}
