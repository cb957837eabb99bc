/**
 * <bc-account-section>: the signed-in member's own account: their password, their PIN for the
 * shared tablet, and their passkeys (added here with the browser's own prompt, removed here). A
 * platform's session has none of these.
 */
import { localized, msg } from "@lit/localize";
import { Task } from "@lit/task";
import { html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type { ConsoleApi, Session } from "../api.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { base, consoleStyles, theme } from "../parts/styles.js";
import { changeStaff } from "./staff-section.js";

type Place = "password" | "pin" | "passkey";

/** @csspart section - the section */
@localized()
export class AccountSection extends LitElement {
  static override styles = [theme, base, consoleStyles];

  @property({ attribute: false }) api!: ConsoleApi;
  @property({ attribute: false }) session!: Session;
  @state() private error: { place: Place; err: unknown } | undefined;
  @state() private said: { place: Place; text: string } | undefined;

  private keys = new Task(this, {
    task: async (_args, { signal }) => this.api.passkeys(signal),
    args: () => [] as const,
  });

  override render() {
    return html`<section part="section" aria-labelledby="account-title">
      <h2 id="account-title">${msg("Your account", { id: "console.account.title" })}</h2>
      <div class="grid">${this.password()} ${this.pin()} ${this.passkeys()}</div>
    </section>`;
  }

  private errorAt = (place: Place) => (this.error?.place === place ? this.error.err : undefined);

  private feedback(place: Place) {
    const err = this.errorAt(place);
    return html`<div aria-live="polite">${this.said?.place === place ? html`<p class="message success" role="status">${this.said.text}</p>` : nothing}</div>
      ${err && !(err as { errors?: unknown[] }).errors?.length ? actionError(err) : nothing}`;
  }

  private async attempt(place: Place, work: () => Promise<unknown>) {
    this.error = undefined;
    this.said = undefined;
    try {
      await work();
      this.said = { place, text: msg("Saved.", { id: "console.saved" }) };
    } catch (err) {
      this.error = { place, err };
    }
  }

  private password() {
    const err = this.errorAt("password");
    return html`<form aria-labelledby="password-title" @submit=${this.changePassword} novalidate>
      <h3 id="password-title">${msg("Password", { id: "console.signin.password" })}</h3>
      <label>${msg("Current password", { id: "console.rest.password.old" })}<input name="old_password" type="password" autocomplete="current-password" aria-invalid=${invalid(err, "old_password")} aria-describedby="e-old" /></label>
      ${fieldError(err, "old_password", "e-old")}
      <label>${msg("New password", { id: "console.reset.password" })}<input name="new_password" type="password" autocomplete="new-password" aria-invalid=${invalid(err, "new_password")} aria-describedby="e-new" /></label>
      ${fieldError(err, "new_password", "e-new")}
      <div class="actions"><button class="btn" type="submit">${msg("Change the password", { id: "console.rest.password.save" })}</button></div>
      ${this.feedback("password")}
    </form>`;
  }

  private pin() {
    const err = this.errorAt("pin");
    return html`<form aria-labelledby="pin-title" @submit=${this.setPin} novalidate>
      <h3 id="pin-title">${msg("PIN for the shared tablet", { id: "console.account.pin" })}</h3>
      <p class="muted">${msg("4 to 6 digits. With it you take the tablet with Switch user, without signing it out.", { id: "console.account.pin.help" })}</p>
      <label>${msg("New PIN", { id: "console.staff.pin.new" })}<input name="pin" inputmode="numeric" maxlength="6" autocomplete="off" aria-invalid=${invalid(err, "pin")} aria-describedby="e-pin" /></label>
      ${fieldError(err, "pin", "e-pin")}
      <div class="actions"><button class="btn" type="submit">${msg("Set the PIN", { id: "console.staff.pin.save" })}</button></div>
      ${this.feedback("pin")}
    </form>`;
  }

  private passkeys() {
    const count = this.keys.value?.length ?? 0;
    return html`<div aria-labelledby="passkeys-title" role="group">
      <h3 id="passkeys-title">${msg("Passkeys", { id: "console.account.passkeys" })}</h3>
      <p class="muted">${msg("Sign in with this device's lock (a fingerprint, a face, a PIN) instead of a password.", { id: "console.account.passkeys.help" })}</p>
      <ul>${(this.keys.value ?? []).map(
        (k) =>
          html`<li>${k.created_at.slice(0, 10)} <button class="btn secondary small" type="button" @click=${() =>
            this.attempt("passkey", async () => {
              await this.api.removePasskey(k.id);
              this.keys.run();
            })}>${msg("Remove", { id: "console.account.passkey.remove" })}</button></li>`,
      )}</ul>
      <p>${count ? msg("Passkeys on this account:", { id: "console.account.passkeys.count" }) : ""} ${count || ""}</p>
      <button class="btn" type="button" @click=${this.addPasskey}>${msg("Add a passkey", { id: "console.account.passkey.add" })}</button>
      ${this.feedback("passkey")}
    </div>`;
  }

  private changePassword = (e: SubmitEvent) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    return this.attempt("password", async () => {
      await this.api.changePassword({
        old_password: String(data.get("old_password") ?? ""),
        new_password: String(data.get("new_password") ?? ""),
      });
      form.reset();
    });
  };

  private setPin = (e: SubmitEvent) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const pin = String(new FormData(form).get("pin") ?? "");
    const id = this.session.staff?.id;
    return this.attempt("pin", async () => {
      if (id !== undefined) await changeStaff(this.api, id, { pin });
      form.reset();
    });
  };

  private addPasskey = () =>
    this.attempt("passkey", async () => {
      const { startRegistration } = await import("@simplewebauthn/browser");
      await this.api.addPasskey((optionsJSON) => startRegistration({ optionsJSON }));
      this.keys.run();
    });
}

if (!customElements.get("bc-account-section")) customElements.define("bc-account-section", AccountSection);
