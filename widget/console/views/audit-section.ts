/**
 * <bc-audit-section>: who changed what in the restaurant, newest first, for managers and owners:
 * filtered by day range and by who (a member of staff, or a kind: apps, guests, the search engine,
 * automatic changes), 50 at a time ("Show older"). A reservation's entry links to it.
 */
import { localized, msg } from "@lit/localize";
import { Task } from "@lit/task";
import { html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type { ConsoleApi, Schema, StaffMember } from "../api.js";
import { actionError } from "../parts/errors.js";
import { link } from "../parts/navigate.js";
import { base, consoleStyles, theme } from "../parts/styles.js";
import { actorName } from "../parts/words.js";

interface Filter {
  from?: string;
  to?: string;
  actor?: string;
}

/** @csspart section - the section */

type AuditEntry = Schema<"AuditEntry">;

/** A page of the audit log, newest first. */
async function auditPage(
  api: ConsoleApi,
  filter: Filter & { next_cursor?: string | undefined },
  signal?: AbortSignal,
) {
  const query = { limit: 50, ...filter };
  const path = { property_id: api.propertyId };
  const page = await api.answer(
    api.GET("/properties/{property_id}/audit", { params: { path, query }, signal }),
  );
  return { data: page?.data ?? [], next_cursor: page?.next_cursor ?? null };
}
@localized()
export class AuditSection extends LitElement {
  static override styles = [theme, base, consoleStyles];

  @property({ attribute: false }) api!: ConsoleApi;
  /** the members to filter by (an owner's list; a manager filters by kind) */
  @property({ attribute: false }) staff: StaffMember[] = [];
  @property({ type: Number }) version = 0;
  @state() private filter: Filter = {};
  @state() private older: AuditEntry[] = [];
  @state() private cursor: string | null = null;
  @state() private moreError: unknown;

  private page = new Task(this, {
    task: async ([filter], { signal }) => {
      const page = await auditPage(this.api, filter, signal);
      this.older = [];
      this.cursor = page.next_cursor;
      return page.data;
    },
    args: () => [this.filter, this.version] as const,
  });

  override render() {
    return html`<section part="section" aria-labelledby="audit-title">
      <h2 id="audit-title">${msg("Audit", { id: "console.audit.title" })}</h2>
      ${this.filterForm()}
      ${this.page.render({
        pending: () => html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (rows) => this.table([...rows, ...this.older]),
        error: (err) => actionError(err),
      })}
    </section>`;
  }

  private filterForm() {
    const who = [
      ["", msg("Everyone", { id: "console.audit.everyone" })],
      ...this.staff.filter((s) => s.name).map((s) => [`staff:${s.id}`, s.name!]),
      ["staff", msg("All staff", { id: "console.audit.staff" })],
      ["app", msg("Apps", { id: "console.audit.apps" })],
      ["guest", msg("Guests", { id: "console.audit.guests" })],
      ["searchengine", msg("Search engine", { id: "console.channel.search" })],
      ["system", msg("Automatic", { id: "console.actor.system" })],
    ];
    return html`<form class="toolbar" aria-label=${msg("Filter the audit", { id: "console.audit.filter" })} @submit=${this.apply} novalidate>
      <label>${msg("From", { id: "console.rest.from" })}<input name="from" type="date" /></label>
      <label>${msg("To", { id: "console.rest.to" })}<input name="to" type="date" /></label>
      <label>${msg("Who", { id: "console.audit.who" })}<select name="actor">${who.map(([v, t]) => html`<option value=${v!}>${t}</option>`)}</select></label>
      <button class="btn small" type="submit">${msg("Show", { id: "console.audit.show" })}</button>
    </form>`;
  }

  private table(rows: AuditEntry[]) {
    if (!rows.length)
      return html`<p class="muted">${msg("No change matches.", { id: "console.audit.empty" })}</p>`;
    return html`<div class="scroll"><table>
      <thead><tr>
        <th scope="col">${msg("When", { id: "console.audit.when" })}</th>
        <th scope="col">${msg("Who", { id: "console.audit.who" })}</th>
        <th scope="col">${msg("What", { id: "console.audit.what" })}</th>
        <th scope="col">${msg("Changed", { id: "console.audit.fields" })}</th>
      </tr></thead>
      <tbody>${rows.map((r) => this.row(r))}</tbody>
    </table></div>
    ${this.cursor ? html`<button class="btn secondary small" type="button" @click=${this.more}>${msg("Show older", { id: "console.audit.more" })}</button>` : nothing}
    ${actionError(this.moreError)}`;
  }

  private row(r: AuditEntry) {
    const subject =
      r.subject.type === "reservation" && r.subject.id
        ? link({ view: "reservation", id: r.subject.id }, `${subjectName(r.subject.type)} ${r.subject.id}`)
        : `${subjectName(r.subject.type)}${r.subject.id ? ` ${r.subject.id}` : ""}`;
    return html`<tr>
      <td><time datetime=${r.at}>${r.local_at.slice(0, 16).replace("T", " ")}</time></td>
      <td>${actorName(r.actor)}</td>
      <td>${actionName(r.action)} · ${subject}</td>
      <td>${r.fields.join(", ")}</td>
    </tr>`;
  }

  private apply = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const value = (n: string) => String(data.get(n) ?? "") || undefined;
    this.filter = { from: value("from"), to: value("to"), actor: value("actor") };
  };

  private more = async () => {
    this.moreError = undefined;
    try {
      const page = await auditPage(this.api, { ...this.filter, next_cursor: this.cursor ?? undefined });
      this.older = [...this.older, ...page.data];
      this.cursor = page.next_cursor;
    } catch (err) {
      this.moreError = err;
    }
  };
}

function subjectName(type: string): string {
  const words: Record<string, string> = {
    reservation: msg("Reservation", { id: "console.audit.s.reservation" }),
    customer: msg("Guest", { id: "console.audit.s.customer" }),
    room: msg("Room", { id: "console.rest.room" }),
    table: msg("Table", { id: "console.audit.s.table" }),
    service: msg("Service", { id: "console.audit.s.service" }),
    closure: msg("Closure", { id: "console.audit.s.closure" }),
    property: msg("Restaurant", { id: "console.nav.restaurant" }),
    staff: msg("Staff", { id: "console.staff.title" }),
    app: msg("App", { id: "console.audit.s.app" }),
  };
  return words[type] ?? type;
}

function actionName(action: string): string {
  const words: Record<string, string> = {
    created: msg("created", { id: "console.audit.a.created" }),
    updated: msg("changed", { id: "console.audit.a.updated" }),
    deleted: msg("deleted", { id: "console.audit.a.deleted" }),
    cancelled: msg("cancelled", { id: "console.audit.a.cancel" }),
    checkin: msg("seated", { id: "console.audit.a.checkin" }),
    checkout: msg("left", { id: "console.audit.a.checkout" }),
    undo_checkin: msg("seating undone", { id: "console.audit.a.undo-checkin" }),
    undo_checkout: msg("leaving undone", { id: "console.audit.a.undo-checkout" }),
    expired_no_show: msg("no-show", { id: "console.audit.a.noshow" }),
    status: msg("status changed", { id: "console.audit.a.status" }),
    invited: msg("invited", { id: "console.staff.invited" }),
    deactivated: msg("deactivated", { id: "console.staff.inactive" }),
    merged: msg("merged", { id: "console.audit.a.merged" }),
    erased: msg("erased", { id: "console.audit.a.erased" }),
    disconnected: msg("disconnected", { id: "console.audit.a.disconnected" }),
    password_changed: msg("password changed", { id: "console.audit.a.password" }),
  };
  return words[action] ?? action.replace(/_/g, " ");
}

if (!customElements.get("bc-audit-section")) customElements.define("bc-audit-section", AuditSection);
