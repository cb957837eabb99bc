/**
 * <bc-payments-section>: the restaurant's Stripe account, for its owners: whether it is connected
 * and can take payments, as Stripe last said (its events keep it current), and the link to Stripe's
 * onboarding, which the owner follows to connect it or to finish what Stripe still asks.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { formatTime } from "../../format.js";
import { ApiError, type ConsoleApi, type Schema } from "../api.js";
import { getLocale } from "../localization.js";
import { actionError } from "../parts/errors.js";
import { base, consoleStyles, theme } from "../parts/styles.js";

type PaymentAccount = Schema<"PaymentAccount">;

/** @csspart section - the section */
@localized()
export class PaymentsSection extends LitElement {
  static override styles = [theme, base, consoleStyles];

  @property({ attribute: false }) api!: ConsoleApi;
  @property({ type: Number }) version = 0;
  @state() private link: { url: string; expires_at: string } | undefined;
  @state() private error: unknown;

  private account = new Task(this, {
    task: async (_args, { signal }): Promise<PaymentAccount | undefined> => {
      const api = this.api;
      const path = { property_id: api.propertyId };
      try {
        return await api.one(
          api.GET("/properties/{property_id}/payments/account", { params: { path }, signal }),
        );
      } catch (err) {
        // none connected yet
        if (err instanceof ApiError && err.status === 404) return undefined;
        throw err;
      }
    },
    args: () => [this.version] as const,
  });

  override render() {
    return html`<section part="section" aria-labelledby="payments-title">
      <h2 id="payments-title">${msg("Payments", { id: "console.pay.title" })}</h2>
      ${this.account.render({
        pending: () =>
          this.account.value !== undefined
            ? this.show(this.account.value)
            : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
        complete: (a) => this.show(a),
        error: (err) => actionError(err),
      })}
    </section>`;
  }

  private show(a: PaymentAccount | undefined) {
    const ready = a?.charges_enabled;
    return html`<p role="status">${this.stateText(a)}</p>
      <div class="actions">
        ${ready ? nothing : html`<button class="btn" type="button" @click=${this.connect}>${a ? msg("Continue Stripe's onboarding", { id: "console.pay.continue" }) : msg("Connect a Stripe account", { id: "console.pay.connect" })}</button>`}
        <button class="btn secondary" type="button" @click=${() => this.account.run()}>${msg("Check again", { id: "console.pay.check" })}</button>
      </div>
      ${this.link && !ready ? this.onboarding(this.link) : nothing}
      ${actionError(this.error)}`;
  }

  private onboarding(link: { url: string; expires_at: string }) {
    const until = formatTime(link.expires_at.slice(11, 16), getLocale());
    return html`<p><a id="onboarding" href=${link.url} rel="noopener">${msg("Open Stripe's onboarding", { id: "console.pay.open" })}</a>
      <span class="muted">${msg(str`(the link works once, until ${until} UTC)`, { id: "console.pay.expires" })}</span></p>`;
  }

  private stateText(a: PaymentAccount | undefined) {
    if (!a)
      return msg("No Stripe account is connected: services cannot ask guests to pay.", {
        id: "console.pay.none",
      });
    if (a.charges_enabled)
      return msg(str`Stripe account ${a.account_id} takes payments.`, { id: "console.pay.ready" });
    return a.details_submitted
      ? msg(str`Stripe account ${a.account_id} is being checked by Stripe: it cannot take payments yet.`, {
          id: "console.pay.review",
        })
      : msg(
          str`Stripe account ${a.account_id} has not finished Stripe's onboarding: it cannot take payments yet.`,
          {
            id: "console.pay.unfinished",
          },
        );
  }

  /** Asks the Worker for a fresh onboarding link (Stripe's links are single use and short-lived). */
  private connect = async () => {
    this.error = undefined;
    try {
      const api = this.api;
      this.link = await api.one(
        api.POST("/properties/{property_id}/payments/account", {
          params: { path: { property_id: api.propertyId } },
          body: { return_url: location.href },
        }),
      );
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>("#onboarding")?.focus();
    } catch (err) {
      this.error = err;
    }
  };
}

if (!customElements.get("bc-payments-section")) customElements.define("bc-payments-section", PaymentsSection);
