/**
 * The guests as a list of their own (`/console/guests`): found by name, phone (any format) or
 * email, each with visits, tags and allergies, one step from their profile.
 */
import { localized, msg } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import type { Customer } from "../api.js";
import { actionError } from "../parts/errors.js";
import { link } from "../parts/navigate.js";
import { customersLike } from "../parts/reads.js";
import { ConsoleView } from "./view.js";

const fullName = (c: Pick<Customer, "first_name" | "last_name">) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ") || msg("(no name)", { id: "console.guest.noname" });

/** @csspart guests - the list of guests */
@localized()
export class GuestsView extends ConsoleView {
  @state() private search = "";
  private typing: ReturnType<typeof setTimeout> | undefined;

  private list = new Task(this, {
    task: ([search], { signal }) => customersLike(this.api, search, signal, 100),
    args: () => [this.search, this.version] as const,
  });

  /** `/` on the view: the search field. */
  focusSearch(): void {
    this.renderRoot.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
  }

  private onSearch(e: InputEvent) {
    const value = (e.target as HTMLInputElement).value.trim();
    clearTimeout(this.typing);
    this.typing = setTimeout(() => (this.search = value), 250);
  }

  override render() {
    return html`
      <h1 tabindex="-1">${msg("Guests", { id: "console.nav.guests" })}</h1>
      <div class="toolbar">
        <label>${msg("Search name, phone or email", { id: "console.day.search" })}
          <input type="search" name="search" aria-keyshortcuts="/" .value=${this.search} @input=${this.onSearch} />
        </label>
      </div>
      ${this.list.render({
        pending: () =>
          this.list.value
            ? this.table(this.list.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (list) => this.table(list),
        error: (err) => actionError(err),
      })}
    `;
  }

  private table(list: Customer[]) {
    if (!list.length)
      return html`<p class="message" role="status">${msg("No guest matches the search.", { id: "console.guests.none" })}</p>`;
    return html`<div class="scroll"><table part="guests">
      <thead><tr>
        <th scope="col">${msg("Name", { id: "console.col.name" })}</th>
        <th scope="col">${msg("Phone", { id: "console.new.phone" })}</th>
        <th scope="col">${msg("Email", { id: "console.new.email" })}</th>
        <th scope="col">${msg("Visits", { id: "console.guest.visits" })}</th>
        <th scope="col">${msg("Allergies", { id: "console.badge.allergies" })}</th>
      </tr></thead>
      <tbody>${list.map(
        (c) => html`<tr data-id=${c.id}>
          <td>${link({ view: "guest", id: c.id }, fullName(c))}${c.tags.map((t) => html` <span class="badge tag">${t}</span>`)}</td>
          <td>${c.phone ?? "—"}</td>
          <td>${c.email ?? "—"}</td>
          <td>${c.visits}</td>
          <td>${c.allergies ? html`<span class="badge alert">${c.allergies}</span>` : nothing}</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }
}
