/**
 * The payment step: the amount and the refund rule, Stripe's Payment Element, then "confirmed"
 * without a reload. Stripe.js is loaded on this step only, from the address the Worker names
 * (Stripe's own; a local stand-in in development and tests). Stripe's Elements refuse a shadow
 * root, so the element is mounted in the light DOM: a child of `<booking-engine>` given the slot
 * "payment", which this page's shadow tree shows in place. A decline says so and the guest tries
 * another card while the table waits; 3-D Secure is Stripe.js's own.
 */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { type PublicApi, PublicApiError, type PublicPay, type PublicProfile } from "../api.js";
import { formatMoney, paymentLine, refundRule } from "../parts/money.js";
import { placeOf } from "../parts/place.js";
import { base } from "../parts/styles.js";

/** The parts of Stripe.js this page uses. */
interface StripeJs {
  elements(o: { clientSecret: string; appearance?: object; locale?: string }): StripeElements;
  confirmPayment(o: object): Promise<{ error?: { message?: string } }>;
  confirmSetup(o: object): Promise<{ error?: { message?: string } }>;
}
interface StripeElements {
  create(type: "payment"): { mount(el: HTMLElement): void; destroy(): void };
}
declare global {
  interface Window {
    Stripe?: (key: string, o: { stripeAccount: string; locale?: string }) => StripeJs;
  }
}

/** Stripe.js, loaded once into the page (a classic script, as Stripe ships it). */
function loadStripe(src: string): Promise<void> {
  if (window.Stripe) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error("Stripe.js did not load"));
    document.head.append(script);
  });
}

/**
 * @fires booking-paid - the guest paid (or saved the card) and the reservation is confirmed; detail `{ reservation_id }`
 */
@localized()
export class PayPage extends LitElement {
  static override styles = [
    base,
    css`
      ::slotted([slot="payment"]) {
        display: block;
        min-height: 10rem;
      }
      .amount {
        font-size: 1.25rem;
        font-weight: 700;
      }
    `,
  ];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property() declare token: string;
  @property() declare locale: string;
  @state() declare private failure: string | undefined;
  @state() declare private paying: boolean;
  @state() declare private paid: boolean;
  private stripe: StripeJs | undefined;
  private elements: StripeElements | undefined;

  constructor() {
    super();
    this.token = "";
    this.locale = "en";
    this.paying = false;
    this.paid = false;
  }

  private step = new Task(this, {
    args: () => [this.api, this.token] as const,
    task: async ([api, token], { signal }) => {
      const pay = await api!.pay(token, signal);
      await loadStripe(pay.stripe_js_url);
      await this.updateComplete;
      this.mountElement(pay);
      return pay;
    },
  });

  /** The Payment Element, in a light-DOM child of <booking-engine> slotted into this page. */
  private mountElement(pay: PublicPay) {
    const host = (this.getRootNode() as ShadowRoot).host as HTMLElement;
    let point = host.querySelector<HTMLElement>(':scope > [slot="payment"]');
    if (!point) {
      point = document.createElement("div");
      point.slot = "payment";
      host.append(point);
    }
    this.stripe = window.Stripe!(pay.publishable_key, {
      stripeAccount: pay.stripe_account,
      locale: this.locale,
    });
    const accent = getComputedStyle(this).getPropertyValue("--_accent").trim();
    this.elements = this.stripe.elements({
      clientSecret: pay.client_secret,
      locale: this.locale,
      appearance: accent ? { variables: { colorPrimary: accent } } : {},
    });
    this.elements.create("payment").mount(point);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    const host = (this.getRootNode() as ShadowRoot | undefined)?.host;
    host?.querySelector(':scope > [slot="payment"]')?.remove();
  }

  private async submit(e: SubmitEvent, pay: PublicPay) {
    e.preventDefault();
    if (this.paying || !this.stripe || !this.elements) return;
    this.paying = true;
    this.failure = undefined;
    const asked = { elements: this.elements, redirect: "if_required" };
    const { error } =
      pay.intent === "setup"
        ? await this.stripe.confirmSetup(asked)
        : await this.stripe.confirmPayment(asked);
    if (error) {
      this.failure = error.message ?? msg("Payment unavailable; try again soon.", { id: "pay.error" });
      this.paying = false;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>("#failure")?.focus();
      return;
    }
    await this.confirmed();
    this.paying = false;
    this.paid = true;
    this.dispatchEvent(
      new CustomEvent("booking-paid", {
        detail: { reservation_id: pay.reservation_id },
        bubbles: true,
        composed: true,
      }),
    );
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>("h2")?.focus();
  }

  /** Stripe's event reaches the Worker within a moment: the reservation is read until it says so. */
  private async confirmed() {
    for (let i = 0; i < 40; i++) {
      const r = await this.api!.reservation(this.token).catch(() => undefined);
      if (r && r.status !== "PREPAY") return;
      await new Promise((done) => setTimeout(done, 250));
    }
  }

  override render() {
    if (this.paid) return this.renderPaid();
    return this.step.render({
      pending: () => html`<p role="status" class="muted">${msg("Loading…", { id: "loading" })}</p>`,
      error: (e) =>
        html`<section class="stack" part="pay">
          <h2 part="heading" tabindex="-1">${msg("Payment", { id: "pay.title" })}</h2>
          <p role="alert" class="message" part="error">
            ${
              e instanceof PublicApiError && e.status === 404
                ? msg("Nothing to pay here.", { id: "pay.nothing-owed" })
                : msg("Payment unavailable; try again soon.", { id: "pay.error" })
            }
          </p>
        </section>`,
      complete: (pay) => this.renderPay(pay),
    });
  }

  private renderPay(pay: PublicPay) {
    const amount = formatMoney(
      pay.mode === "guarantee" ? (pay.no_show_fee ?? 0) : pay.amount,
      pay.currency,
      this.locale,
    );
    const city = this.profile ? placeOf(this.profile) : "";
    const tz = this.profile?.timezone ?? "UTC";
    const when = (iso: string) =>
      new Intl.DateTimeFormat(this.locale, { dateStyle: "full", timeStyle: "short", timeZone: tz }).format(
        new Date(iso),
      );
    return html`<section class="stack" part="pay" aria-labelledby="pay-h">
      <h2 id="pay-h" part="heading" tabindex="-1">${msg("Payment", { id: "pay.title" })}</h2>
      <p class="amount">${paymentLine(pay.mode, amount)}</p>
      ${pay.intent === "setup" ? nothing : html`<p>${refundRule(when(pay.refund_until), city)}</p>`}
      ${pay.due_at ? html`<p class="muted">${msg(str`The table waits for your payment until ${when(pay.due_at)}.`, { id: "pay.due" })}</p>` : nothing}
      <form part="form" novalidate @submit=${(e: SubmitEvent) => this.submit(e, pay)}>
        <slot name="payment"></slot>
        <div role="alert" class="alert">
          ${this.failure ? html`<p id="failure" class="message error" part="error" tabindex="-1">${this.failure} ${msg("Try another card.", { id: "pay.try-another" })}</p>` : nothing}
        </div>
        <button class="btn" part="button" ?disabled=${this.paying}>
          ${pay.intent === "setup" ? msg("Save card", { id: "pay.save" }) : msg(str`Pay ${amount}`, { id: "pay.pay" })}
        </button>
      </form>
    </section>`;
  }

  private renderPaid() {
    return html`<section class="stack" part="confirmation" aria-labelledby="paid-h">
      <h2 id="paid-h" part="heading" tabindex="-1">${msg("Confirmed", { id: "status.accepted" })}</h2>
      <p role="status" class="message success">${msg("Paid: your table is confirmed.", { id: "pay.paid" })}</p>
    </section>`;
  }
}
