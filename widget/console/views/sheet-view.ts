/**
 * The day sheet (`/console/sheet/<date>`): the day's shift note, written here, and one line a
 * party (time, party, tables, name, allergies, notes) for the parties that come, made to be
 * printed: on paper the console's bar, the buttons and the fields stay off.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { formatDate, formatTime } from "../../format.js";
import type { ReservationListItem as Reservation } from "../api.js";
import { actionError } from "../parts/errors.js";
import { navigate } from "../parts/navigate.js";
import { counts, guestName, occasionText } from "../parts/words.js";
import { ConsoleView } from "./view.js";

/** The parties that come, in start order. */
export const sheetLines = (list: Reservation[]) =>
  list
    .filter(counts)
    .sort((a, b) => (a.start_hour < b.start_hour ? -1 : a.start_hour > b.start_hour ? 1 : a.id - b.id));

@localized()
export class SheetView extends ConsoleView {
  static override styles = [
    ...ConsoleView.styles,
    css`
      textarea {
        width: 100%;
        min-height: 5rem;
      }
      .note-print {
        display: none;
        white-space: pre-wrap;
      }
      .allergy {
        color: var(--_danger);
        font-weight: 600;
      }
      @media print {
        .note-edit {
          display: none;
        }
        .note-print {
          display: block;
        }
        table {
          font-size: 10pt;
        }
        tr {
          break-inside: avoid;
        }
      }
    `,
  ];

  @state() private saved = "";
  @state() private noteError: unknown;

  get date(): string {
    return (this.route?.view === "sheet" && this.route.date) || this.today;
  }

  private day = new Task(this, {
    task: async ([date], { signal }) => {
      const api = this.api;
      const [list, [note]] = await Promise.all([
        api.day({ date }, signal),
        api.list(
          api.GET("/properties/{property_id}/notes", {
            params: { path: { property_id: api.propertyId }, query: { from: date, to: date } },
            signal,
          }),
        ),
      ]);
      return { lines: sheetLines(list), note: note?.text ?? "" };
    },
    args: () => [this.date, this.version] as const,
  });

  override render() {
    const date = this.date;
    return html`
      <h1 tabindex="-1">${msg(str`Day sheet: ${formatDate(date, this.locale)}`, { id: "console.sheet.title" })}</h1>
      <div class="toolbar">
        <label>${msg("Date", { id: "console.field.date" })}
          <input type="date" .value=${date} @change=${(e: Event) => {
            const value = (e.target as HTMLInputElement).value;
            if (value) navigate(this, { view: "sheet", date: value });
          }} />
        </label>
        <button class="btn small" type="button" @click=${() => window.print()}>${msg("Print", { id: "console.sheet.print" })}</button>
      </div>
      ${this.day.render({
        pending: () =>
          this.day.value
            ? this.sheet(this.day.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (d) => this.sheet(d),
        error: (err) => actionError(err),
      })}
    `;
  }

  private sheet(d: { lines: Reservation[]; note: string }) {
    return html`${this.note(d.note)}
      ${
        d.lines.length
          ? html`<table>
        <caption class="sr-only">${msg("The day's parties", { id: "console.sheet.caption" })}</caption>
        <thead><tr>
          <th scope="col">${msg("Time", { id: "console.col.time" })}</th>
          <th scope="col">${msg("Party", { id: "console.col.party" })}</th>
          <th scope="col">${msg("Tables", { id: "console.col.tables" })}</th>
          <th scope="col">${msg("Name", { id: "console.col.name" })}</th>
          <th scope="col">${msg("Allergies", { id: "console.badge.allergies" })}</th>
          <th scope="col">${msg("Notes", { id: "console.badge.notes" })}</th>
        </tr></thead>
        <tbody>${d.lines.map((r) => this.line(r))}</tbody>
      </table>`
          : html`<p class="message" role="status">${msg("No reservations on this day.", { id: "console.day.empty" })}</p>`
      }`;
  }

  private line(r: Reservation) {
    const notesText = [r.occasion ? occasionText(r.occasion) : "", r.notes, r.special_request]
      .filter(Boolean)
      .join(" · ");
    return html`<tr>
      <td>${formatTime(r.start_hour, this.locale)}</td>
      <td>${r.pax}</td>
      <td>${r.tables.map((t) => t.name).join(", ") || "—"}</td>
      <td>${guestName(r)}</td>
      <td class=${r.allergies ? "allergy" : ""}>${r.allergies ?? ""}</td>
      <td>${notesText}</td>
    </tr>`;
  }

  /** The shift note: a field on screen (saved on leaving it), its text on paper. */
  private note(text: string) {
    return html`<section aria-labelledby="note-title">
      <h2 id="note-title">${msg("Shift notes", { id: "console.sheet.notes" })}</h2>
      <div class="note-edit">
        <label for="note" class="sr-only">${msg("Shift notes", { id: "console.sheet.notes" })}</label>
        <textarea id="note" maxlength="4000" .value=${text} @change=${(e: Event) => this.saveNote((e.target as HTMLTextAreaElement).value)}></textarea>
        <p role="status" class="muted">${this.saved}</p>
        ${actionError(this.noteError)}
      </div>
      <p class="note-print">${text || nothing}</p>
    </section>`;
  }

  private async saveNote(text: string) {
    this.noteError = undefined;
    this.saved = "";
    try {
      const path = { property_id: this.api.propertyId, date: this.date };
      await this.api.done(
        this.api.PUT("/properties/{property_id}/notes/{date}", {
          params: { path },
          body: { text: text.trim() },
        }),
      );
      this.saved = msg("Saved.", { id: "console.saved" });
      this.day.run();
    } catch (err) {
      this.noteError = err;
    }
  }
}
