/**
 * Sign-in with one's email (or the restaurant's username) and password, or a passkey; the
 * forgotten password (an emailed link) and the reset that link opens (`/console/reset/<token>`);
 * an invitation, where the invitee chooses their name and password (`/console/invite/<token>`).
 */
import { localized, msg } from "@lit/localize";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { ApiError, type ConsoleApi } from "../api.js";
import { actionError, fieldError, invalid } from "../parts/errors.js";
import { base, consoleStyles, theme } from "../parts/styles.js";
import type { Route } from "../router.js";

type Mode = "sign-in" | "forgot" | "sent" | "reset" | "done" | "invite";

/**
 * @fires console-signed-in - the session is open; `detail`: the session
 */
@localized()
export class SignIn extends LitElement {
  static override styles = [
    theme,
    base,
    consoleStyles,
    css`
      :host {
        max-width: 26rem;
        margin: 2rem auto;
      }
      form > * + * {
        margin-top: var(--_gap);
      }
    `,
  ];

  @property({ attribute: false }) api!: ConsoleApi;
  @property({ attribute: false }) route: Route = { view: "sign-in" };

  @state() private mode: Mode | undefined;
  @state() private error: unknown;
  @state() private busy = false;

  private get current(): Mode {
    return (
      this.mode ?? (this.route.view === "reset" || this.route.view === "invite" ? this.route.view : "sign-in")
    );
  }

  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>("h1")?.focus();
  }

  override render() {
    switch (this.current) {
      case "forgot":
        return this.forgotForm();
      case "sent":
        return html`<h1 tabindex="-1">${msg("Check your email", { id: "console.forgot.sent.title" })}</h1>
          <p role="status">${msg("If the email or username is known, a link to choose a new password is on its way. It works once, for 30 minutes.", { id: "console.forgot.sent" })}</p>
          <button class="btn secondary" type="button" @click=${() => this.switchTo("sign-in")}>${msg("Back to sign-in", { id: "console.forgot.back" })}</button>`;
      case "reset":
        return this.resetForm();
      case "invite":
        return this.inviteForm();
      case "done":
        return html`<h1 tabindex="-1">${msg("Password changed", { id: "console.reset.done.title" })}</h1>
          <p role="status">${msg("Sign in with the new password.", { id: "console.reset.done" })}</p>
          <button class="btn" type="button" @click=${() => this.switchTo("sign-in")}>${msg("Sign in", { id: "console.signin.submit" })}</button>`;
      default:
        return this.signInForm();
    }
  }

  private switchTo(mode: Mode) {
    this.mode = mode;
    this.error = undefined;
    if (mode === "sign-in" && this.route.view === "reset") history.replaceState(null, "", "/console/sign-in");
    void this.updateComplete.then(() => this.focusHeading());
  }

  private signInForm() {
    const expired = new URLSearchParams(location.search).get("link") === "expired";
    const wrong = this.error instanceof ApiError && this.error.status === 401;
    return html`
      <h1 tabindex="-1">${msg("Sign in to your restaurant", { id: "console.signin.title" })}</h1>
      ${expired ? html`<p class="message" role="status">${msg("That sign-in link has expired or was used already. Sign in with your username and password.", { id: "console.signin.link-expired" })}</p>` : nothing}
      <form @submit=${this.signIn} novalidate>
        <label>${msg("Email or username", { id: "console.signin.identity" })}
          <input name="username" autocomplete="username webauthn" required aria-invalid=${wrong ? "true" : invalid(this.error, "username")} aria-describedby="signin-error" />
        </label>
        ${fieldError(this.error, "username", "username-error")}
        <label>${msg("Password", { id: "console.signin.password" })}
          <input name="password" type="password" autocomplete="current-password" required aria-invalid=${wrong ? "true" : invalid(this.error, "password")} aria-describedby="signin-error" />
        </label>
        <div id="signin-error">${wrong ? html`<p class="message error" role="alert" part="error">${msg("Wrong username or password.", { id: "console.signin.wrong" })}</p>` : (this.limited() ?? actionError(this.error))}</div>
        <div class="actions">
          <button class="btn" type="submit" ?disabled=${this.busy}>${msg("Sign in", { id: "console.signin.submit" })}</button>
          <button class="btn secondary" type="button" ?disabled=${this.busy} @click=${this.passkey}>${msg("Sign in with a passkey", { id: "console.signin.passkey" })}</button>
          <button class="btn secondary" type="button" @click=${() => this.switchTo("forgot")}>${msg("Forgot your password?", { id: "console.signin.forgot" })}</button>
        </div>
      </form>
    `;
  }

  private inviteForm() {
    const expired = this.error instanceof ApiError && this.error.status === 410;
    return html`
      <h1 tabindex="-1">${msg("Join the restaurant's console", { id: "console.invite.title" })}</h1>
      <p>${msg("Choose the name your colleagues see and your password. You sign in with the email address the invitation came to.", { id: "console.invite.intro" })}</p>
      <form @submit=${this.accept} novalidate>
        <label>${msg("Your name", { id: "console.invite.name" })}
          <input name="name" autocomplete="name" required aria-invalid=${invalid(this.error, "name")} aria-describedby="name-error" />
        </label>
        ${fieldError(this.error, "name", "name-error")}
        <label>${msg("Password", { id: "console.signin.password" })}
          <input name="password" type="password" autocomplete="new-password" required aria-invalid=${invalid(this.error, "password")} aria-describedby="password-error" />
        </label>
        ${fieldError(this.error, "password", "password-error")}
        ${expired ? html`<p class="message error" role="alert" part="error">${msg("This invitation has expired or was used already. Ask for a new one.", { id: "console.invite.expired" })}</p>` : this.error instanceof ApiError && this.error.errors.length ? nothing : actionError(this.error)}
        <div class="actions">
          <button class="btn" type="submit" ?disabled=${this.busy}>${msg("Join", { id: "console.invite.submit" })}</button>
        </div>
      </form>
    `;
  }

  private signedIn(session: unknown) {
    this.dispatchEvent(
      new CustomEvent("console-signed-in", { detail: session, bubbles: true, composed: true }),
    );
  }

  private passkey = () =>
    this.attempt(async () => {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      this.signedIn(await this.api.passkeySignIn((optionsJSON) => startAuthentication({ optionsJSON })));
    });

  private accept = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const token = this.route.view === "invite" ? this.route.token : "";
    return this.attempt(async () => {
      const session = await this.api.acceptInvite(token, {
        name: String(data.get("name") ?? "").trim(),
        password: String(data.get("password") ?? ""),
      });
      history.replaceState(null, "", "/console");
      this.signedIn(session);
    });
  };

  private limited() {
    return this.error instanceof ApiError && this.error.status === 429
      ? html`<p class="message error" role="alert" part="error">${msg("Too many attempts. Wait a few minutes, then try again.", { id: "console.signin.limited" })}</p>`
      : undefined;
  }

  private forgotForm() {
    return html`
      <h1 tabindex="-1">${msg("Forgotten password", { id: "console.forgot.title" })}</h1>
      <p>${msg("We email a link to choose a new password: to your own email if you sign in with it, to the restaurant's address for its username.", { id: "console.forgot.intro" })}</p>
      <form @submit=${this.forgot} novalidate>
        <label>${msg("Email or username", { id: "console.signin.identity" })}
          <input name="username" autocomplete="username" required />
        </label>
        ${actionError(this.error)}
        <div class="actions">
          <button class="btn" type="submit" ?disabled=${this.busy}>${msg("Email me a link", { id: "console.forgot.submit" })}</button>
          <button class="btn secondary" type="button" @click=${() => this.switchTo("sign-in")}>${msg("Back to sign-in", { id: "console.forgot.back" })}</button>
        </div>
      </form>
    `;
  }

  private resetForm() {
    const expired = this.error instanceof ApiError && this.error.status === 410;
    return html`
      <h1 tabindex="-1">${msg("Choose a new password", { id: "console.reset.title" })}</h1>
      <form @submit=${this.reset} novalidate>
        <label>${msg("New password", { id: "console.reset.password" })}
          <input name="password" type="password" autocomplete="new-password" required aria-invalid=${invalid(this.error, "password")} aria-describedby="password-error" />
        </label>
        ${fieldError(this.error, "password", "password-error")}
        ${expired ? html`<p class="message error" role="alert" part="error">${msg("This link has expired or was used already. Ask for a new one.", { id: "console.reset.expired" })}</p>` : this.error instanceof ApiError && this.error.at("password") ? nothing : actionError(this.error)}
        <div class="actions">
          <button class="btn" type="submit" ?disabled=${this.busy}>${msg("Save the password", { id: "console.reset.submit" })}</button>
          <button class="btn secondary" type="button" @click=${() => this.switchTo(expired ? "forgot" : "sign-in")}>${expired ? msg("Ask for a new link", { id: "console.reset.again" }) : msg("Back to sign-in", { id: "console.forgot.back" })}</button>
        </div>
      </form>
    `;
  }

  private async attempt(work: () => Promise<void>) {
    this.busy = true;
    this.error = undefined;
    try {
      await work();
    } catch (err) {
      this.error = err;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    } finally {
      this.busy = false;
    }
  }

  private signIn = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    return this.attempt(async () => {
      const session = await this.api.signIn(
        String(data.get("username") ?? ""),
        String(data.get("password") ?? ""),
      );
      this.signedIn(session);
    });
  };

  private forgot = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    return this.attempt(async () => {
      await this.api.forgotPassword({ username: String(data.get("username") ?? "") });
      this.switchTo("sent");
    });
  };

  private reset = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const token = this.route.view === "reset" ? this.route.token : "";
    return this.attempt(async () => {
      await this.api.resetPassword({ token, password: String(data.get("password") ?? "") });
      this.switchTo("done");
    });
  };
}
