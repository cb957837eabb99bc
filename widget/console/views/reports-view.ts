/**
 * Reports (`/console/reports`): covers, parties, no-shows and cancellations over a range of days,
 * by day, service or channel; a bar chart of one figure (an SVG with its title and a description
 * that names every bar) above the table of every figure, which is the chart's accessible
 * alternative, and the same lines as a CSV download. Loaded only when opened.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, nothing, svg } from "lit";
import { state } from "lit/decorators.js";
import type { Channel } from "../../../shared/schemas.js";
import { addDays, formatDate } from "../../format.js";
import type { ConsoleApi, Schema } from "../api.js";
import { actionError } from "../parts/errors.js";
import { channelText } from "../parts/words.js";
import { ConsoleView } from "./view.js";

type ReportLine = Schema<"ReportLine">;
type ReportQuery = { from: string; to: string; by: "day" | "service" | "channel" };
type ReportBy = ReportQuery["by"];

/** The report's lines. */
function reportOf(api: ConsoleApi, query: ReportQuery, signal?: AbortSignal) {
  const params = { path: { property_id: api.propertyId }, query };
  return api.list(api.GET("/properties/{property_id}/reports", { params, signal }));
}

/** The same lines as CSV text (`Accept: text/csv`). */
async function reportCsv(api: ConsoleApi, query: ReportQuery): Promise<string> {
  const params = { path: { property_id: api.propertyId }, query };
  const asked = api.GET("/properties/{property_id}/reports", {
    params,
    headers: { Accept: "text/csv" },
    parseAs: "text",
  });
  return (await api.answer(asked)) ?? "";
}

type Figure = "covers" | "parties" | "no_shows" | "cancellations";
const FIGURES: Figure[] = ["covers", "parties", "no_shows", "cancellations"];

function figureName(f: Figure): string {
  return {
    covers: msg("Covers", { id: "console.day.covers" }),
    parties: msg("Parties", { id: "console.report.parties" }),
    no_shows: msg("No-shows", { id: "console.report.noshows" }),
    cancellations: msg("Cancellations", { id: "console.report.cancellations" }),
  }[f];
}

/** The bars of a chart: each line's height as a share of the tallest (the tallest 1; all 0 when every value is). */
export function barShares(values: number[]): number[] {
  const top = Math.max(0, ...values);
  return values.map((v) => (top ? v / top : 0));
}

@localized()
export class ReportsView extends ConsoleView {
  static override styles = [
    ...ConsoleView.styles,
    css`
      svg {
        display: block;
        width: 100%;
        max-width: 60rem;
        height: auto;
        margin-block: var(--_gap);
      }
      .bar {
        fill: var(--_accent);
      }
      .axis {
        stroke: var(--_border);
      }
      svg text {
        fill: var(--_text);
        font-size: 12px;
      }
      td.n,
      th.n {
        text-align: end;
      }
    `,
  ];

  @state() private from = "";
  @state() private to = "";
  @state() private by: ReportBy = "day";
  @state() private figure: Figure = "covers";
  @state() private csvError: unknown;

  override willUpdate(): void {
    if (!this.to && this.today) {
      this.to = this.today;
      this.from = addDays(this.today, -13);
    }
  }

  private lines = new Task(this, {
    task: ([from, to, by], { signal }) => reportOf(this.api, { from, to, by }, signal),
    args: () => [this.from, this.to, this.by, this.version] as const,
  });

  override render() {
    return html`
      <h1 tabindex="-1">${msg("Reports", { id: "console.nav.reports" })}</h1>
      <div class="toolbar">
        <label>${msg("From", { id: "console.report.from" })}
          <input type="date" .value=${this.from} max=${this.to} @change=${(e: Event) => (this.from = (e.target as HTMLInputElement).value || this.from)} />
        </label>
        <label>${msg("To", { id: "console.report.to" })}
          <input type="date" .value=${this.to} min=${this.from} @change=${(e: Event) => (this.to = (e.target as HTMLInputElement).value || this.to)} />
        </label>
        <label>${msg("By", { id: "console.report.by" })}
          <select @change=${(e: Event) => (this.by = (e.target as HTMLSelectElement).value as ReportBy)}>
            <option value="day" ?selected=${this.by === "day"}>${msg("Day", { id: "console.nav.day" })}</option>
            <option value="service" ?selected=${this.by === "service"}>${msg("Service", { id: "console.report.service" })}</option>
            <option value="channel" ?selected=${this.by === "channel"}>${msg("Channel", { id: "console.col.channel" })}</option>
          </select>
        </label>
        <label>${msg("Chart", { id: "console.report.chart" })}
          <select @change=${(e: Event) => (this.figure = (e.target as HTMLSelectElement).value as Figure)}>
            ${FIGURES.map((f) => html`<option value=${f} ?selected=${this.figure === f}>${figureName(f)}</option>`)}
          </select>
        </label>
        <button class="btn secondary small" type="button" @click=${this.download}>${msg("Download CSV", { id: "console.report.csv" })}</button>
      </div>
      ${actionError(this.csvError)}
      ${this.lines.render({
        pending: () =>
          this.lines.value
            ? this.show(this.lines.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (lines) => this.show(lines),
        error: (err) => actionError(err),
      })}
    `;
  }

  /** The same lines as a CSV file, asked with the session and saved by the browser. */
  private async download() {
    this.csvError = undefined;
    const query = { from: this.from, to: this.to, by: this.by };
    try {
      const csv = await reportCsv(this.api, query);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
      link.download = `report-${query.by}-${query.from}-${query.to}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 0);
    } catch (err) {
      this.csvError = err;
    }
  }

  private keyText(line: ReportLine): string {
    if (this.by === "day") return formatDate(line.key, this.locale, "long");
    if (this.by === "channel") return channelText(line.key as Channel);
    return line.label ?? msg("Without a service", { id: "console.day.noservice" });
  }

  private show(lines: ReportLine[]) {
    if (!lines.length)
      return html`<p class="message" role="status">${msg("No reservations in these days.", { id: "console.report.empty" })}</p>`;
    return html`${this.chart(lines)}${this.table(lines)}`;
  }

  /** One bar per line; the description names each bar's value, for a screen reader that reads the picture. */
  private chart(lines: ReportLine[]) {
    const values = lines.map((l) => l[this.figure]);
    const shares = barShares(values);
    const [width, height, base] = [Math.max(640, lines.length * 48), 220, 180];
    const step = width / lines.length;
    const bar = Math.min(step * 0.7, 64);
    const name = figureName(this.figure);
    const description = lines.map((l, i) => `${this.keyText(l)}: ${values[i]}`).join("; ");
    return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-desc">
      <title id="chart-title">${msg(str`${name} by ${this.byName()}`, { id: "console.report.charttitle" })}</title>
      <desc id="chart-desc">${description}</desc>
      <line class="axis" x1="0" x2=${width} y1=${base} y2=${base} />
      ${lines.map((l, i) => {
        const h = Math.round(shares[i]! * (base - 20));
        const mid = i * step + step / 2;
        return svg`<rect class="bar" x=${mid - bar / 2} y=${base - h} width=${bar} height=${h}></rect>
          <text x=${mid} y=${base - h - 4} text-anchor="middle">${values[i]}</text>
          <text x=${mid} y=${base + 16} text-anchor="middle">${this.shortKey(l)}</text>`;
      })}
    </svg>`;
  }

  private shortKey(line: ReportLine): string {
    if (this.by === "day") return line.key.slice(8, 10);
    return this.keyText(line).slice(0, 10);
  }

  private byHeading(): string {
    return this.by === "day"
      ? msg("Day", { id: "console.nav.day" })
      : this.by === "service"
        ? msg("Service", { id: "console.report.service" })
        : msg("Channel", { id: "console.col.channel" });
  }

  private byName(): string {
    return this.by === "day"
      ? msg("day", { id: "console.report.byday" })
      : this.by === "service"
        ? msg("service", { id: "console.report.byservice" })
        : msg("channel", { id: "console.report.bychannel" });
  }

  private table(lines: ReportLine[]) {
    const total = (f: Figure) => lines.reduce((n, l) => n + l[f], 0);
    return html`<div class="scroll"><table>
      <caption class="sr-only">${msg(str`Figures by ${this.byName()}`, { id: "console.report.caption" })}</caption>
      <thead><tr><th scope="col">${this.byHeading()}</th>${FIGURES.map((f) => html`<th scope="col" class="n">${figureName(f)}</th>`)}</tr></thead>
      <tbody>${lines.map((l) => html`<tr><th scope="row">${this.keyText(l)}</th>${FIGURES.map((f) => html`<td class="n">${l[f]}</td>`)}</tr>`)}</tbody>
      <tfoot><tr><th scope="row">${msg("Total", { id: "console.report.total" })}</th>${FIGURES.map((f) => html`<td class="n">${total(f)}</td>`)}</tr></tfoot>
    </table></div>${nothing}`;
  }
}
