/**
 * A guest (`/console/guests/<id>`): the profile (visits, no-shows, covers, allergies, tags, notes,
 * banned), its reservations, and merging another record of the same person into this one.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { formatDate, formatTime } from "../../format.js";
import type { Customer, ReservationListItem } from "../api.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { link } from "../parts/navigate.js";
import { customersLike } from "../parts/reads.js";
import { atLeast } from "../parts/roles.js";
import { statusText } from "../parts/words.js";
import { ConsoleView } from "./view.js";

const fullName = (c: Pick<Customer, "first_name" | "last_name">) =>
  [c.first_name, c.last_name].filter(Boolean).join(" ") || "—";

/**
 * @csspart profile - the guest's profile form
 * @csspart merge - the merge of another guest into this one
 */
@localized()
export class GuestView extends ConsoleView {
  @state() private saveError: unknown;
  @state() private mergeError: unknown;
  @state() private said = "";
  @state() private search = "";
  @state() private other: Customer | undefined;
  private typing: ReturnType<typeof setTimeout> | undefined;

  private get recordId(): number {
    return this.route?.view === "guest" ? this.route.id : 0;
  }

  private data = new Task(this, {
    task: async ([id], { signal }) => {
      const [customer, reservations] = await Promise.all([
        this.api.one(this.api.GET("/customers/{id}", { params: { path: { id } }, signal })),
        // a guest's reservations, on any day
        this.api.list(
          this.api.GET("/reservations", { params: { query: { customer_id: id, limit: 100 } }, signal }),
        ),
      ]);
      return { customer, reservations };
    },
    args: () => [this.recordId, this.version] as const,
  });

  private found = new Task(this, {
    task: async ([text], { signal }) =>
      text.length >= 2
        ? (await customersLike(this.api, text, signal)).filter((c) => c.id !== this.recordId)
        : [],
    args: () => [this.search] as const,
  });

  override render() {
    return this.data.render({
      pending: () =>
        this.data.value
          ? this.show(this.data.value.customer, this.data.value.reservations)
          : html`<h1 tabindex="-1">${msg("Guest", { id: "console.res.guest" })}</h1><p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
      complete: ({ customer, reservations }) => this.show(customer, reservations),
      error: (err) =>
        html`<h1 tabindex="-1">${msg("Guest", { id: "console.res.guest" })}</h1>${actionError(err)}`,
    });
  }

  private show(c: Customer, reservations: ReservationListItem[]) {
    return html`
      <h1 tabindex="-1">${fullName(c)}${c.banned ? html` <span class="badge alert">${msg("Banned", { id: "console.guest.banned" })}</span>` : nothing}</h1>
      <dl class="summary">
        <dt>${msg("Phone", { id: "console.new.phone" })}</dt><dd>${c.phone ?? "—"}</dd>
        <dt>${msg("Email", { id: "console.new.email" })}</dt><dd>${c.email ?? "—"}</dd>
        <dt>${msg("Visits", { id: "console.guest.visits" })}</dt><dd>${c.visits}</dd>
        <dt>${msg("No-shows", { id: "console.guest.noshows" })}</dt><dd>${c.no_shows}</dd>
        <dt>${msg("Cancellations", { id: "console.guest.cancellations" })}</dt><dd>${c.cancellations}</dd>
        <dt>${msg("Covers", { id: "console.day.covers" })}</dt><dd>${c.covers}</dd>
        <dt>${msg("Last visit", { id: "console.guest.last" })}</dt><dd>${c.last_visit ? formatDate(c.last_visit, this.locale, "long") : "—"}</dd>
      </dl>
      <div aria-live="polite">${this.said ? html`<p class="message success" role="status">${this.said}</p>` : nothing}</div>
      ${this.profile(c)} ${this.list(reservations)} ${this.manager ? this.merge(c) : nothing}
    `;
  }

  /** A manager changes every field of a guest; a host their notes (the Worker holds the same line). */
  private get manager(): boolean {
    return atLeast(this.session.role, "manager");
  }

  private profile(c: Customer) {
    const err = this.saveError;
    const readOnly = !this.manager;
    return html`<section aria-labelledby="profile-title">
      <h2 id="profile-title">${msg("Profile", { id: "console.guest.profile" })}</h2>
      <form part="profile" class="grid" @submit=${(e: SubmitEvent) => this.save(e)} novalidate>
        <label>${msg("Tags (comma separated)", { id: "console.guest.tags" })}<input name="tags" ?readonly=${readOnly} .value=${c.tags.join(", ")} aria-invalid=${invalid(err, "tags")} aria-describedby="e-tags" /></label>
        ${fieldError(err, "tags", "e-tags")}
        <label>${msg("Allergies", { id: "console.badge.allergies" })}<textarea name="allergies" ?readonly=${readOnly} .value=${c.allergies ?? ""} aria-invalid=${invalid(err, "allergies")} aria-describedby="e-allergies"></textarea></label>
        ${fieldError(err, "allergies", "e-allergies")}
        <label>${msg("Notes (staff only)", { id: "console.field.notes" })}<textarea name="notes" .value=${c.notes ?? ""} aria-invalid=${invalid(err, "notes")} aria-describedby="e-gnotes"></textarea></label>
        ${fieldError(err, "notes", "e-gnotes")}
        ${readOnly ? nothing : html`<label><input type="checkbox" name="banned" style="width:auto;display:inline;min-height:0" ?checked=${c.banned} /> ${msg("Banned from booking", { id: "console.guest.ban" })}</label>`}
        <div class="actions"><button class="btn" type="submit">${msg("Save changes", { id: "console.res.save" })}</button></div>
      </form>
      ${err instanceof Error && !(err as { errors?: unknown[] }).errors?.length ? actionError(err) : nothing}
    </section>`;
  }

  private list(reservations: ReservationListItem[]) {
    return html`<section aria-labelledby="guest-res-title">
      <h2 id="guest-res-title">${msg("Reservations", { id: "console.guest.reservations" })}</h2>
      ${
        reservations.length
          ? html`<ul>${reservations.map((r) => html`<li>${link({ view: "reservation", id: r.id }, `${formatDate(r.start_date, this.locale, "long")} ${formatTime(r.start_hour, this.locale)}`)} · ${r.pax} · ${statusText(r)}</li>`)}</ul>`
          : html`<p class="muted">${msg("No reservations.", { id: "console.guest.noreservations" })}</p>`
      }
    </section>`;
  }

  private merge(c: Customer) {
    const list = this.found.value ?? [];
    return html`<section aria-labelledby="merge-title" part="merge">
      <h2 id="merge-title">${msg("Merge another record into this guest", { id: "console.guest.merge" })}</h2>
      <label>${msg("Find the other record", { id: "console.guest.merge.find" })}
        <input type="search" @input=${(e: InputEvent) => this.onSearch(e)} aria-controls="merge-found" />
      </label>
      <ul id="merge-found" aria-live="polite">
        ${list.map((o) => html`<li><button class="btn secondary small" type="button" aria-pressed=${this.other?.id === o.id ? "true" : "false"} @click=${() => (this.other = o)}>${fullName(o)} · ${o.phone ?? o.email ?? ""}</button></li>`)}
      </ul>
      ${
        this.other
          ? html`<p>${msg(str`${fullName(this.other)} (${this.other.visits} visits) becomes part of ${fullName(c)}: their reservations move here, the other record goes.`, { id: "console.guest.merge.what" })}</p>
            <button class="btn danger" type="button" @click=${() => this.doMerge(c)}>${msg("Merge", { id: "console.guest.merge.do" })}</button>`
          : nothing
      }
      ${actionError(this.mergeError)}
    </section>`;
  }

  private onSearch(e: InputEvent) {
    const value = (e.target as HTMLInputElement).value.trim();
    clearTimeout(this.typing);
    this.typing = setTimeout(() => (this.search = value), 250);
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? "").trim() || null;
    const tags = String(data.get("tags") ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    this.saveError = undefined;
    this.said = "";
    try {
      const body = this.manager
        ? { tags, allergies: text("allergies"), notes: text("notes"), banned: data.get("banned") === "on" }
        : { notes: text("notes") };
      await this.api.done(this.api.PUT("/customers/{id}", { params: { path: { id: this.recordId } }, body }));
      this.said = msg("Saved.", { id: "console.saved" });
      this.data.run();
    } catch (err) {
      this.saveError = err;
    }
  }

  private async doMerge(c: Customer) {
    if (!this.other) return;
    this.mergeError = undefined;
    try {
      await this.api.done(
        this.api.POST("/customers/{id}/merge", {
          params: { path: { id: this.other.id } },
          body: { into: c.id },
        }),
      );
      this.said = msg("Merged.", { id: "console.guest.merged" });
      this.other = undefined;
      this.search = "";
      this.data.run();
    } catch (err) {
      this.mergeError = err;
    }
  }
}
