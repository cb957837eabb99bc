/**
 * <bc-staff-section>: the restaurant's staff, for its owners: each member's name, email, role,
 * whether they have a PIN and when they last signed in; inviting by email, changing a role, setting
 * a PIN, deactivating and letting back. The Worker keeps the last owner (its refusal is shown).
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type { ConsoleRole as Role } from "../../../shared/console.js";
import type { ConsoleApi, Schema, StaffMember } from "../api.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { base, consoleStyles, theme } from "../parts/styles.js";
import { roleName } from "../parts/words.js";

const ROLES: Role[] = ["host", "manager", "owner"];

/** @csspart section - the section */

/** A member's role, standing or PIN changed (a member may set their own PIN). */
export function changeStaff(api: ConsoleApi, id: number, body: Schema<"StaffChange">): Promise<void> {
  const path = { property_id: api.propertyId, staff_id: id };
  return api.done(api.PATCH("/properties/{property_id}/staff/{staff_id}", { params: { path }, body }));
}
@localized()
export class StaffSection extends LitElement {
  static override styles = [
    theme,
    base,
    consoleStyles,
    css`
      thead th {
        white-space: nowrap;
      }
      tbody th {
        color: var(--_text);
      }
      .email {
        display: block;
        font-weight: 400;
        color: var(--_muted);
        overflow-wrap: anywhere;
      }
      td select {
        min-width: 8.5rem;
      }
      td .toolbar {
        margin-bottom: 0.4rem;
        flex-wrap: nowrap;
      }
      td .toolbar input {
        width: 5.5rem;
      }
    `,
  ];

  @property({ attribute: false }) api!: ConsoleApi;
  @property({ type: Number }) version = 0;
  @state() private error: { id?: number; err: unknown } | undefined;
  @state() private said = "";

  private members = new Task(this, {
    task: async (_args, { signal }) =>
      this.api.list(
        this.api.GET("/properties/{property_id}/staff", {
          params: { path: { property_id: this.api.propertyId } },
          signal,
        }),
      ),
    args: () => [this.version] as const,
  });

  override render() {
    return html`<section part="section" aria-labelledby="staff-title">
      <h2 id="staff-title">${msg("Staff", { id: "console.staff.title" })}</h2>
      ${this.members.render({
        pending: () =>
          this.members.value
            ? this.table(this.members.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (m) => this.table(m),
        error: (err) => actionError(err),
      })}
      ${this.inviteForm()}
      <div aria-live="polite">${this.said ? html`<p class="message success" role="status">${this.said}</p>` : nothing}</div>
    </section>`;
  }

  private table(members: StaffMember[]) {
    return html`<div class="scroll"><table>
      <caption class="muted">${msg("Each person signs in as themselves; what they may do follows their role.", { id: "console.staff.caption" })}</caption>
      <thead><tr>
        <th scope="col">${msg("Name", { id: "console.col.name" })}</th>
        <th scope="col">${msg("Role", { id: "console.staff.role" })}</th>
        <th scope="col">${msg("Last sign-in", { id: "console.staff.last" })}</th>
        <th scope="col">${msg("PIN", { id: "console.switch.pin" })}</th>
        <th scope="col">${msg("Actions", { id: "console.staff.actions" })}</th>
      </tr></thead>
      <tbody>${members.map((m) => this.row(m))}</tbody>
    </table></div>`;
  }

  private row(m: StaffMember) {
    const name = m.name ?? m.email ?? "—";
    const err = this.error?.id === m.id ? this.error.err : undefined;
    const status = !m.active
      ? msg("deactivated", { id: "console.staff.inactive" })
      : m.invite_expires_at
        ? msg("invited", { id: "console.staff.invited" })
        : "";
    return html`<tr>
      <th scope="row">${m.name ?? "—"}${status ? html` <span class="badge">${status}</span>` : nothing}
        <span class="email">${m.email ?? msg("the restaurant's own sign-in", { id: "console.staff.account" })}</span></th>
      <td><select aria-label=${msg(str`Role of ${name}`, { id: "console.staff.role.of" })} ?disabled=${!m.active} @change=${(e: Event) => this.change(m, { role: (e.target as HTMLSelectElement).value as Role })}>
          ${ROLES.map((r) => html`<option value=${r} ?selected=${r === m.role}>${roleName(r)}</option>`)}
        </select></td>
      <td>${m.last_sign_in_at ? m.last_sign_in_at.slice(0, 16).replace("T", " ") : "—"}</td>
      <td>${m.pin_set ? msg("set", { id: "console.staff.pin.set" }) : "—"}</td>
      <td><form class="toolbar" aria-label=${msg(str`PIN of ${name}`, { id: "console.staff.pin.of" })} @submit=${(e: SubmitEvent) => this.setPin(e, m)} novalidate>
          <input name="pin" inputmode="numeric" maxlength="6" autocomplete="off" aria-label=${msg(str`New PIN of ${name}`, { id: "console.staff.pin.new.of" })} aria-invalid=${invalid(err, "pin")} aria-describedby="e-pin-${m.id}" />
          <button class="btn small secondary" type="submit">${msg("Set the PIN", { id: "console.staff.pin.save" })}</button>
        </form>${fieldError(err, "pin", `e-pin-${m.id}`)}
        ${
          m.active
            ? html`<button class="btn small secondary" type="button" aria-label=${msg(str`Deactivate ${name}`, { id: "console.staff.deactivate" })} @click=${() => this.change(m, { active: false })}>${msg("Deactivate", { id: "console.staff.deactivate.short" })}</button>`
            : html`<button class="btn small secondary" type="button" aria-label=${msg(str`Let ${name} back`, { id: "console.staff.reactivate" })} @click=${() => this.change(m, { active: true })}>${msg("Let back", { id: "console.staff.reactivate.short" })}</button>`
        }
        ${err && invalid(err, "pin") === "false" ? actionError(err) : nothing}</td>
    </tr>`;
  }

  private inviteForm() {
    const err = this.error?.id === undefined ? this.error?.err : undefined;
    return html`<form class="toolbar" aria-label=${msg("Invite a person", { id: "console.staff.invite" })} @submit=${this.invite} novalidate>
      <label>${msg("Email", { id: "console.new.email" })}<input name="email" type="email" autocomplete="off" aria-invalid=${invalid(err, "email")} aria-describedby="e-invite-email" /></label>
      <label>${msg("Name", { id: "console.col.name" })}<input name="name" autocomplete="off" /></label>
      <label>${msg("Role", { id: "console.staff.role" })}<select name="role">${ROLES.map((r) => html`<option value=${r}>${roleName(r)}</option>`)}</select></label>
      <button class="btn small" type="submit">${msg("Invite a person", { id: "console.staff.invite" })}</button>
    </form>
    ${fieldError(err, "email", "e-invite-email")} ${err && invalid(err, "email") === "false" ? actionError(err) : nothing}`;
  }

  private async attempt(id: number | undefined, work: () => Promise<unknown>, said: string) {
    this.error = undefined;
    this.said = "";
    try {
      await work();
      this.said = said;
      this.members.run();
    } catch (err) {
      this.error = { id, err };
    }
  }

  private change(m: StaffMember, change: { role?: Role; active?: boolean }) {
    return this.attempt(
      m.id,
      () => changeStaff(this.api, m.id, change),
      msg("Saved.", { id: "console.saved" }),
    );
  }

  private setPin(e: SubmitEvent, m: StaffMember) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const pin = String(new FormData(form).get("pin") ?? "");
    return this.attempt(
      m.id,
      async () => {
        await changeStaff(this.api, m.id, { pin });
        form.reset();
      },
      msg("Saved.", { id: "console.saved" }),
    );
  }

  private invite = (e: SubmitEvent) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "").trim();
    const name = String(data.get("name") ?? "").trim();
    return this.attempt(
      undefined,
      async () => {
        const body = { email, role: String(data.get("role")) as Role, ...(name && { name }) };
        const path = { property_id: this.api.propertyId };
        await this.api.done(this.api.POST("/properties/{property_id}/staff", { params: { path }, body }));
        form.reset();
      },
      msg(str`Invitation sent to ${email}.`, { id: "console.staff.invited.to" }),
    );
  };
}

if (!customElements.get("bc-staff-section")) customElements.define("bc-staff-section", StaffSection);
