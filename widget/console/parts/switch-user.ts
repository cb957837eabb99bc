/**
 * <bc-switch-user>: the shared tablet's "Switch user". A dialog lists the members who have a PIN;
 * picking one and typing their PIN puts them at the console without signing the device out. Five
 * wrong PINs lock that PIN for 15 minutes (the Worker counts them).
 *
 * @fires console-signed-in - another member is at the console; `detail`: the session
 */
import { localized, msg } from "@lit/localize";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type { ConsoleSwitchable } from "../../../shared/console.js";
import { ApiError, type ConsoleApi } from "../api.js";
import { actionError } from "./errors.js";
import { base, consoleStyles, theme } from "./styles.js";
import { roleName } from "./words.js";

type Member = ConsoleSwitchable;

@localized()
export class SwitchUser extends LitElement {
  static override styles = [
    theme,
    base,
    consoleStyles,
    css`
      dialog {
        max-width: 24rem;
        width: calc(100% - 2rem);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        background: var(--_bg);
        color: var(--_text);
      }
      form > * + * {
        margin-top: var(--_gap);
      }
    `,
  ];

  @property({ attribute: false }) api!: ConsoleApi;
  @state() private members: Member[] | undefined;
  @state() private error: unknown;
  @state() private busy = false;

  /** Opens the dialog and reads who can take the tablet. */
  async open(): Promise<void> {
    this.error = undefined;
    this.members = undefined;
    this.renderRoot.querySelector("dialog")?.showModal();
    try {
      this.members = await this.api.switchable();
    } catch (err) {
      this.error = err;
    }
  }

  private close = () => this.renderRoot.querySelector("dialog")?.close();

  override render() {
    return html`<dialog aria-labelledby="switch-title">
      <h2 id="switch-title">${msg("Switch user", { id: "console.switch" })}</h2>
      ${this.members === undefined && !this.error ? html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>` : nothing}
      ${this.members?.length === 0 ? html`<p>${msg("Nobody has a PIN yet. Each member sets one in Restaurant, Your account.", { id: "console.switch.none" })}</p>` : nothing}
      ${this.members?.length ? this.form(this.members) : nothing}
      <div class="actions"><button class="btn secondary" type="button" @click=${this.close}>${msg("Cancel", { id: "console.switch.cancel" })}</button></div>
    </dialog>`;
  }

  private form(members: Member[]) {
    const locked = this.error instanceof ApiError && this.error.status === 429;
    const wrong = this.error instanceof ApiError && this.error.status === 403;
    return html`<form @submit=${this.submit} novalidate>
      <label>${msg("Who are you?", { id: "console.switch.who" })}
        <select name="staff_id">${members.map((m) => html`<option value=${m.id}>${m.name ?? "—"} · ${roleName(m.role)}</option>`)}</select>
      </label>
      <label>${msg("PIN", { id: "console.switch.pin" })}
        <input name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,6}" maxlength="6" required aria-invalid=${wrong || locked ? "true" : "false"} aria-describedby="switch-error" />
      </label>
      <div id="switch-error">${
        locked
          ? html`<p class="message error" role="alert">${msg("Too many wrong PINs: this PIN is locked for 15 minutes.", { id: "console.switch.locked" })}</p>`
          : wrong
            ? html`<p class="message error" role="alert">${msg("Wrong PIN.", { id: "console.switch.wrong" })}</p>`
            : actionError(this.error)
      }</div>
      <button class="btn" type="submit" ?disabled=${this.busy}>${msg("Switch", { id: "console.switch.submit" })}</button>
    </form>`;
  }

  private submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    this.busy = true;
    this.error = undefined;
    try {
      const session = await this.api.switchUser({
        staff_id: Number(data.get("staff_id")),
        pin: String(data.get("pin") ?? ""),
      });
      form.reset();
      this.close();
      this.dispatchEvent(
        new CustomEvent("console-signed-in", { detail: session, bubbles: true, composed: true }),
      );
    } catch (err) {
      this.error = err;
    } finally {
      this.busy = false;
    }
  };
}

if (!customElements.get("bc-switch-user")) customElements.define("bc-switch-user", SwitchUser);
