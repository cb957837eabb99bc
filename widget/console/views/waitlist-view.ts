/**
 * The walk-in waiting list (`/console/waitlist`): a party at the door joins with its size (and a
 * name, phone or email to call it back), is quoted a wait estimated from the turn times and what
 * is seated, keeps its place, is told "table ready" by email (and text message where the
 * restaurant has an SMS provider), and is seated in one step: booked as a walk-in now, checked in,
 * and taken off the list.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, nothing } from "lit";
import { state } from "lit/decorators.js";
import { now } from "../../clock.js";
import type { ConsoleApi, Schema } from "../api.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { propertyOf, servicesOf } from "../parts/reads.js";
import { nowIn } from "../router.js";
import { serviceAt } from "./new-view.js";
import { ConsoleView } from "./view.js";

/** The wait in words: "about 25 min", "now", or that no table seats the party. */
export function waitText(minutes: number | null): string {
  if (minutes === null) return msg("No table seats this party", { id: "console.queue.nofit" });
  if (minutes === 0) return msg("Now", { id: "console.queue.now" });
  return msg(str`About ${minutes} min`, { id: "console.queue.about" });
}

type WalkIn = Schema<"WalkIn">;

/** Takes a party off the list: seated (by the walk-in reservation that seated it) or gone. */
function closeWalkIn(api: ConsoleApi, walk_in_id: number, body: Schema<"WalkInClose">) {
  const path = { property_id: api.propertyId, walk_in_id };
  return api.done(api.PATCH("/properties/{property_id}/walk-ins/{walk_in_id}", { params: { path }, body }));
}

@localized()
export class WaitlistView extends ConsoleView {
  @state() private error: unknown;
  @state() private busy = false;
  @state() private rowError: { id: number; err: unknown } | undefined;
  @state() private told: { id: number; sent: string[]; failed: string[] } | undefined;
  @state() private refresh = 0;
  /** what the last action did, read out (role=status) */
  @state() private said = "";

  private list = new Task(this, {
    task: (_args, { signal }) => {
      const path = { property_id: this.api.propertyId };
      return this.api.list(this.api.GET("/properties/{property_id}/walk-ins", { params: { path }, signal }));
    },
    args: () => [this.version, this.refresh] as const,
  });

  /** The list starts on the party size: `q`, the size, Enter adds a party. */
  override focusHeading(): void {
    super.focusHeading();
    this.renderRoot.querySelector<HTMLInputElement>('input[name="pax"]')?.select();
  }

  override render() {
    return html`
      <h1 tabindex="-1">${msg("Waiting list", { id: "console.nav.waitlist" })}</h1>
      ${this.joinForm()}
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

  private joinForm() {
    const field = (name: string, label: string, type = "text", extra = nothing as unknown) =>
      html`<label>${label}<input name=${name} type=${type} autocomplete="off" aria-invalid=${invalid(this.error, name)} aria-describedby="${name}-error" />${fieldError(this.error, name, `${name}-error`)}${extra}</label>`;
    return html`<form class="toolbar" @submit=${this.join} aria-label=${msg("Add a party to the waiting list", { id: "console.queue.add" })}>
      <label>${msg("Party", { id: "console.col.party" })}
        <input name="pax" type="number" min="1" max="1000" required value="2" inputmode="numeric" aria-invalid=${invalid(this.error, "pax")} aria-describedby="pax-error" />
        ${fieldError(this.error, "pax", "pax-error")}
      </label>
      ${field("name", msg("Name", { id: "console.col.name" }))}
      ${field("phone", msg("Phone", { id: "console.new.phone" }), "tel")}
      ${field("email", msg("Email", { id: "console.new.email" }), "email")}
      ${field("notes", msg("Notes", { id: "console.badge.notes" }))}
      <button class="btn" type="submit" ?disabled=${this.busy}>${msg("Add to the list", { id: "console.queue.join" })}</button>
    </form>
    ${this.error && !(this.error as { errors?: unknown[] }).errors?.length ? actionError(this.error) : nothing}`;
  }

  private async join(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim() || undefined;
    this.busy = true;
    this.error = undefined;
    try {
      const body = {
        pax: Number(data.get("pax")),
        name: text("name"),
        phone: text("phone"),
        email: text("email"),
        notes: text("notes"),
      };
      const path = { property_id: this.api.propertyId };
      const added = await this.api.one(
        this.api.POST("/properties/{property_id}/walk-ins", { params: { path }, body }),
      );
      form.reset();
      this.told = undefined;
      this.said = msg(str`Added: position ${added.position}, ${waitText(added.quoted_minutes)}.`, {
        id: "console.queue.added",
      });
      this.refresh++;
    } catch (err) {
      this.error = err;
    } finally {
      this.busy = false;
    }
  }

  private table(list: WalkIn[]) {
    return html`<p role="status" class="muted">${this.said}</p>
      ${
        list.length
          ? html`<div class="scroll"><table>
          <caption class="sr-only">${msg("Parties waiting, first come first", { id: "console.queue.caption" })}</caption>
          <thead><tr>
            <th scope="col">#</th>
            <th scope="col">${msg("Party", { id: "console.col.party" })}</th>
            <th scope="col">${msg("Name", { id: "console.col.name" })}</th>
            <th scope="col">${msg("Quoted", { id: "console.queue.quoted" })}</th>
            <th scope="col">${msg("Wait now", { id: "console.queue.wait" })}</th>
            <th scope="col"><span class="sr-only">${msg("Actions", { id: "console.col.actions" })}</span></th>
          </tr></thead>
          <tbody>${list.map((w) => this.row(w))}</tbody>
        </table></div>`
          : html`<p class="message" role="status">${msg("Nobody is waiting.", { id: "console.queue.empty" })}</p>`
      }`;
  }

  private row(w: WalkIn) {
    const who = w.name ?? msg(str`Party of ${w.pax}`, { id: "console.queue.party" });
    return html`<tr data-id=${w.id}>
      <td>${w.position}</td>
      <td>${w.pax}</td>
      <td>${who}${w.notes ? html`<br /><span class="muted">${w.notes}</span>` : nothing}
        ${w.state === "notified" ? html`<br /><span class="badge">${msg("Told: table ready", { id: "console.queue.notified" })}</span>` : nothing}</td>
      <td>${w.quoted_minutes === null ? "—" : msg(str`${w.quoted_minutes} min`, { id: "console.queue.minutes" })}</td>
      <td>${waitText(w.wait_minutes)}</td>
      <td>
        <button class="btn small" type="button" @click=${() => this.seat(w)} aria-label=${msg(str`Seat ${who}`, { id: "console.day.seat.label" })}>${msg("Seat", { id: "console.action.seat" })}</button>
        <button class="btn secondary small" type="button" @click=${() => this.ready(w)} aria-label=${msg(str`Table ready: tell ${who}`, { id: "console.queue.ready.label" })}>${msg("Table ready", { id: "console.queue.ready" })}</button>
        <button class="btn secondary small" type="button" @click=${() => this.left(w)} aria-label=${msg(str`${who} left`, { id: "console.queue.left.label" })}>${msg("Left", { id: "console.queue.left" })}</button>
        ${this.told?.id === w.id ? this.toldText(this.told) : nothing}
        ${this.rowError?.id === w.id ? actionError(this.rowError.err) : nothing}
      </td>
    </tr>`;
  }

  private toldText(t: { sent: string[]; failed: string[] }) {
    const text = t.failed.length
      ? msg("The message could not be sent: tell the party in person.", { id: "console.queue.failed" })
      : t.sent.length
        ? t.sent.includes("sms")
          ? msg("Sent by email and text message.", { id: "console.queue.sent.both" })
          : msg("Sent by email.", { id: "console.queue.sent.email" })
        : msg("No email or phone to reach them: tell the party in person.", {
            id: "console.queue.unreachable",
          });
    return html`<p class="message ${t.failed.length ? "error" : "success"}" role="status">${text}</p>`;
  }

  private async act(w: WalkIn, fn: () => Promise<void>) {
    this.rowError = undefined;
    try {
      await fn();
    } catch (err) {
      this.rowError = { id: w.id, err };
    }
  }

  private ready(w: WalkIn) {
    return this.act(w, async () => {
      const path = { property_id: this.api.propertyId, walk_in_id: w.id };
      const answer = await this.api.one(
        this.api.POST("/properties/{property_id}/walk-ins/{walk_in_id}/ready", { params: { path } }),
      );
      this.told = { id: w.id, sent: answer.sent, failed: answer.failed };
      this.refresh++;
    });
  }

  private left(w: WalkIn) {
    return this.act(w, async () => {
      await closeWalkIn(this.api, w.id, { state: "left" });
      this.refresh++;
    });
  }

  /** One step: booked as a walk-in now (the engine picks the table), checked in, off the list. */
  private seat(w: WalkIn) {
    return this.act(w, async () => {
      const hour = nowIn(this.session.property.timezone, now());
      const api = this.api;
      const [services, property] = await Promise.all([servicesOf(api), propertyOf(api)]);
      const service = serviceAt(services, this.today, hour);
      const [first_name, ...rest] = (w.name ?? msg("Walk-in", { id: "console.nav.walkin" })).split(" ");
      const body = {
        channel: "PLATFORM_ADMIN" as const,
        start_date: this.today,
        start_hour: hour,
        pax: w.pax,
        service_id: service?.id ?? 0,
        customer: {
          first_name,
          ...(rest.length ? { last_name: rest.join(" ") } : {}),
          ...(w.email ? { email: w.email } : {}),
          ...(w.phone || !w.email ? { phone: w.phone ?? property.phone ?? undefined } : {}),
        },
        ...(w.notes ? { notes: w.notes } : {}),
      };
      const created = await api.one(api.POST("/reservations", { body }));
      const path = { reservation_id: created.id };
      await api.done(api.PATCH("/reservations/{reservation_id}/checkin", { params: { path } }));
      await closeWalkIn(this.api, w.id, { state: "seated", reservation_id: created.id });
      this.said = msg(str`${w.name ?? w.pax} seated.`, { id: "console.queue.seated" });
      this.refresh++;
    });
  }
}
