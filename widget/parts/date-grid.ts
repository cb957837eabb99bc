/**
 * A month calendar following the WAI-ARIA date picker grid pattern: one tab stop, arrows move
 * by day and week, Home/End to the week's ends, PageUp/PageDown by month, Enter or Space picks.
 */
import { localized, msg } from "@lit/localize";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import {
  addDays,
  addMonths,
  clampDate,
  firstDayOfWeek,
  formatDate,
  formatMonth,
  isoWeekday,
  weekdayName,
} from "../format.js";
import { base } from "./styles.js";

/**
 * @fires change - the guest picked a date; read `value`
 * @csspart calendar - the whole calendar
 * @csspart day - a day cell (class `full` when it is known to have no free table, `past`
 *   before the first bookable date, `later` after the last: not open for booking yet)
 * @csspart selected-day - the chosen day (also `day`)
 * @csspart disabled-day - a day that cannot be booked (also `day`)
 *
 * Under the month, a legend explains the marks the month shows (full days, days not open yet).
 */
@localized()
export class DateGrid extends LitElement {
  static override styles = [
    base,
    css`
      .head {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 0.5rem;
        margin-bottom: 0.5rem;
      }
      .month {
        font-weight: 700;
        font-size: 1.05rem;
        margin: 0;
        text-transform: capitalize;
      }
      .nav {
        min-width: 2.75rem;
        padding: 0.25rem 0.6rem;
      }
      table {
        border-collapse: collapse;
        width: 100%;
        table-layout: fixed;
      }
      th {
        font-size: 0.8rem;
        font-weight: 600;
        color: var(--_muted);
        padding: 0.25rem 0;
        text-align: center;
      }
      td {
        padding: 2px;
        text-align: center;
      }
      td[role="gridcell"] {
        cursor: pointer;
      }
      .day {
        display: flex;
        align-items: center;
        justify-content: center;
        min-height: 2.5rem;
        border-radius: var(--_radius);
        border: 2px solid transparent;
      }
      td[aria-selected="true"] .day {
        background: var(--_accent);
        color: var(--_on-accent);
        font-weight: 700;
      }
      .full .day {
        color: var(--_muted);
        background: var(--_surface);
        text-decoration: line-through 2px;
      }
      td[aria-disabled="true"] {
        cursor: default;
      }
      .past .day {
        color: var(--_muted);
        opacity: 0.6;
      }
      .later .day {
        color: var(--_muted);
        border-style: dotted;
        border-color: var(--_border, currentColor);
      }
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        margin: 0.5rem 0 0;
        padding: 0;
        list-style: none;
        font-size: 0.9rem;
      }
      .legend span + span {
        display: inline-block;
      }
      .legend span + span::first-letter {
        text-transform: uppercase;
      }
      .legend .day {
        display: inline-flex;
        min-width: 2rem;
        min-height: 1.5rem;
        margin-inline-end: 0.4rem;
      }
      td:focus-visible {
        outline: none;
      }
      td:focus-visible .day {
        outline: 3px solid var(--_focus);
        outline-offset: 1px;
      }
      td:hover:not([aria-disabled="true"]) .day {
        border-color: var(--_accent);
      }
    `,
  ];

  /** The selected date, YYYY-MM-DD. */
  @property() declare value: string;
  /** First and last selectable dates. */
  @property() declare min: string;
  @property() declare max: string;
  @property() declare locale: string;
  /** The label of the grid (defaults to the month shown). */
  @property() declare label: string;
  /** Dates known to have no free table: still selectable, marked and announced as such. */
  @property({ attribute: false }) declare full: ReadonlySet<string>;

  @state() declare private focusDate: string;
  private moved = false;

  constructor() {
    super();
    this.value = "";
    this.min = "";
    this.max = "";
    this.locale = "en";
    this.label = "";
    this.full = new Set();
    this.focusDate = "";
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("value") || !this.focusDate) this.focusDate = this.value || this.min;
  }

  override updated() {
    if (this.moved) {
      this.moved = false;
      this.renderRoot.querySelector<HTMLElement>('td[tabindex="0"]')?.focus();
    }
  }

  private disabled(date: string) {
    return (this.min && date < this.min) || (this.max && date > this.max);
  }

  private moveTo(date: string) {
    this.focusDate = clampDate(date, this.min || date, this.max || date);
    this.moved = true;
  }

  private pick(date: string) {
    if (this.disabled(date)) return;
    this.value = date;
    this.focusDate = date;
    this.dispatchEvent(new Event("change", { bubbles: true }));
  }

  private onKey(e: KeyboardEvent) {
    const f = this.focusDate;
    const start = firstDayOfWeek(this.locale);
    const col = (isoWeekday(f) - start + 7) % 7;
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(f, -1),
      ArrowRight: () => addDays(f, 1),
      ArrowUp: () => addDays(f, -7),
      ArrowDown: () => addDays(f, 7),
      Home: () => addDays(f, -col),
      End: () => addDays(f, 6 - col),
      PageUp: () => addMonths(f, e.shiftKey ? -12 : -1),
      PageDown: () => addMonths(f, e.shiftKey ? 12 : 1),
    };
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.pick(f);
    } else if (moves[e.key]) {
      e.preventDefault();
      this.moveTo(moves[e.key]!());
    }
  }

  private month(delta: number) {
    const target = addMonths(this.focusDate, delta);
    this.focusDate = clampDate(target, this.min || target, this.max || target);
  }

  override render() {
    const f = this.focusDate || this.min;
    if (!f) return nothing;
    const first = `${f.slice(0, 8)}01`;
    const monthLabel = formatMonth(f, this.locale);
    return html`
      <div part="calendar">
        ${this.head(first, monthLabel)}
        <table role="grid" aria-label=${this.label ? `${this.label}, ${monthLabel}` : monthLabel} @keydown=${this.onKey}>
          <thead>
            <tr>
              ${this.weekdays()}
            </tr>
          </thead>
          <tbody>
            ${this.weeks(first).map(
              (row) => html`<tr>
                ${row.map((d) => (d.slice(0, 7) === f.slice(0, 7) ? this.day(d, f) : html`<td></td>`))}
              </tr>`,
            )}
          </tbody>
        </table>
        ${this.legend(f)}
        <p class="sr-only">${msg("Use the arrow keys to move between days, Enter to choose.", { id: "cal.help" })}</p>
      </div>
    `;
  }

  /** The month shown, between the buttons to the months before and after (within min and max). */
  private head(first: string, monthLabel: string) {
    const canPrev = !this.min || first > `${this.min.slice(0, 8)}01`;
    const canNext = !this.max || addMonths(first, 1) <= this.max;
    return html`<div class="head">
      <button type="button" class="btn secondary nav" aria-label=${msg("Previous month", { id: "cal.prev" })} ?disabled=${!canPrev} @click=${() => this.month(-1)}>
        <span aria-hidden="true">‹</span>
      </button>
      <p class="month" id="month" aria-live="polite">${monthLabel}</p>
      <button type="button" class="btn secondary nav" aria-label=${msg("Next month", { id: "cal.next" })} ?disabled=${!canNext} @click=${() => this.month(1)}>
        <span aria-hidden="true">›</span>
      </button>
    </div>`;
  }

  /** The column heads, from the locale's first day of the week: short to the eye, in full to a reader. */
  private weekdays() {
    const start = firstDayOfWeek(this.locale);
    return Array.from({ length: 7 }, (_, i) => {
      const wd = ((start - 1 + i) % 7) + 1;
      return html`<th scope="col"><span aria-hidden="true">${weekdayName(wd, this.locale, "short")}</span><span class="sr-only">${weekdayName(wd, this.locale)}</span></th>`;
    });
  }

  /** The weeks that show the month of `first`: from the locale's first day of the week, four to six rows. */
  private weeks(first: string) {
    const lead = (isoWeekday(first) - firstDayOfWeek(this.locale) + 7) % 7;
    const gridStart = addDays(first, -lead);
    const weeks: string[][] = [];
    for (let w = 0; w < 6; w++) {
      const row = Array.from({ length: 7 }, (_, d) => addDays(gridStart, w * 7 + d));
      if (w > 3 && row[0]!.slice(0, 7) !== first.slice(0, 7)) break;
      weeks.push(row);
    }
    return weeks;
  }

  /**
   * What the month's marks mean, for the marks it shows: the cells say it to a screen reader
   * already (their labels), so the legend is for the eye.
   */
  private legend(f: string) {
    const month = f.slice(0, 8);
    const later = !!this.max && this.max < `${month}31`;
    const full = [...this.full].some((d) => d.startsWith(month) && !this.disabled(d));
    if (!later && !full) return nothing;
    const item = (cls: string, text: string) =>
      html`<li class=${cls}><span class="day"></span><span>${text}</span></li>`;
    return html`<ul class="legend" aria-hidden="true">
      ${full ? item("full", fullText()) : nothing} ${later ? item("later", laterText()) : nothing}
    </ul>`;
  }

  /** A day of the month; `focus` is the one day in the tab order. */
  private day(d: string, focus: string) {
    const disabled = this.disabled(d);
    const selected = d === this.value;
    const full = !disabled && this.full.has(d);
    const later = !!this.max && d > this.max;
    const mark = full ? "full" : later ? "later" : disabled ? "past" : "";
    const note = full ? fullText() : later ? laterText() : "";
    return html`<td
      role="gridcell"
      part=${`day${selected ? " selected-day" : ""}${disabled ? " disabled-day" : ""}`}
      tabindex=${d === focus ? 0 : -1}
      aria-selected=${selected ? "true" : "false"}
      aria-disabled=${disabled ? "true" : nothing}
      aria-label=${note ? `${formatDate(d, this.locale)}, ${note}` : formatDate(d, this.locale)}
      class=${mark}
      data-date=${d}
      @click=${() => this.pick(d)}
      @focus=${() => (this.focusDate = d)}
    ><span class="day" aria-hidden="true">${Number(d.slice(8))}</span></td>`;
  }
}

const fullText = () => msg("no free tables", { id: "cal.full" });
const laterText = () => msg("not open for booking yet", { id: "cal.later" });
