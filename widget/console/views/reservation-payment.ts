/**
 * <bc-reservation-payment>: a reservation's money (its read-only `payment`): what it asked and how
 * it stands, what was refunded and what a refund still owes, the card's brand and last digits; for
 * managers and owners, a refund (all or part) and a guarantee's no-show fee, each asked once more
 * before money moves. A decline or a refusal is said beside the button. Fires `payment-changed`
 * once a step went through.
 */
import { localized, msg, str } from "@lit/localize";
import { html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import type { ConsoleRole } from "../../../shared/console.js";
import { refundable } from "../../../shared/payment.js";
import { formatMoney, minorDigits } from "../../format.js";
import type { ConsoleApi, Reservation, Schema } from "../api.js";
import { getLocale } from "../localization.js";
import { actionError } from "../parts/errors.js";
import { atLeast } from "../parts/roles.js";
import { base, consoleStyles, theme } from "../parts/styles.js";

type ReservationPayment = NonNullable<Schema<"ReservationPayment">>;

type Step = { kind: "refund"; amount: number | undefined } | { kind: "fee" };

/** @csspart section - the section */
@localized()
export class ReservationPaymentView extends LitElement {
  static override styles = [theme, base, consoleStyles];

  @property({ attribute: false }) api!: ConsoleApi;
  @property({ attribute: false }) reservation!: Reservation;
  @property({ attribute: false }) staffRole: ConsoleRole | undefined;
  /** the step waiting for its "yes" */
  @state() private asking: Step | undefined;
  @state() private error: unknown;
  @state() private busy = false;

  private money(minor: number) {
    return formatMoney(minor, this.reservation.payment!.currency, getLocale());
  }

  override render() {
    const p = this.reservation.payment;
    if (!p) return nothing;
    return html`<section part="section" aria-labelledby="payment-title">
      <h2 id="payment-title">${msg("Payment", { id: "console.pay.policy" })}</h2>
      <dl class="summary">
        <dt>${msg("Status", { id: "console.col.status" })}</dt><dd>${statusWords(p)}</dd>
        <dt>${modeWords(p)}</dt><dd>${this.money(p.mode === "guarantee" ? (p.no_show_fee ?? 0) : p.amount)}</dd>
        ${p.no_show_charged ? html`<dt>${msg("No-show fee charged", { id: "console.pay.fee-charged" })}</dt><dd>${this.money(p.no_show_charged)}</dd>` : nothing}
        ${p.amount_refunded ? html`<dt>${msg("Refunded", { id: "console.pay.refunded" })}</dt><dd>${this.money(p.amount_refunded)}</dd>` : nothing}
        ${p.refund_pending ? html`<dt>${msg("Refund on its way", { id: "console.pay.pending" })}</dt><dd>${this.money(p.refund_pending)}</dd>` : nothing}
        ${p.card ? html`<dt>${msg("Card", { id: "console.pay.card" })}</dt><dd>${cardName(p)}</dd>` : nothing}
        ${p.failure ? html`<dt>${msg("Last attempt", { id: "console.pay.failure" })}</dt><dd>${p.failure}</dd>` : nothing}
      </dl>
      ${atLeast(this.staffRole, "manager") ? this.steps(p) : nothing}
    </section>`;
  }

  private steps(p: ReservationPayment) {
    const left = refundable(p);
    const fee = p.mode === "guarantee" && p.status === "card_saved" && !!p.no_show_fee && this.noShow();
    if (!left && !fee) return nothing;
    const most = this.money(left);
    return html`${
      this.asking
        ? this.question(this.asking)
        : html`<div class="actions">
        ${
          left
            ? html`<form class="toolbar" @submit=${this.askRefund} novalidate>
          <label>${msg(str`Amount to refund (at most ${most}; empty: all)`, { id: "console.pay.refund-amount" })}<input name="amount" type="number" min="0" step="0.01" /></label>
          <button class="btn secondary" type="submit" ?disabled=${this.busy}>${msg("Refund", { id: "console.pay.refund" })}</button>
        </form>`
            : nothing
        }
        ${fee ? html`<button class="btn secondary" type="button" ?disabled=${this.busy} @click=${() => this.ask({ kind: "fee" })}>${msg("Charge no-show fee", { id: "console.pay.charge" })}</button>` : nothing}
      </div>`
    }
      ${actionError(this.error)}`;
  }

  private noShow() {
    return this.reservation.status === "EXPIRED" && this.reservation.status_reason === "no_show";
  }

  private question(step: Step) {
    const p = this.reservation.payment!;
    const card = p.card ? cardName(p) : "";
    const amount = this.money(step.kind === "refund" ? (step.amount ?? refundable(p)) : (p.no_show_fee ?? 0));
    const text =
      step.kind === "fee"
        ? msg(str`Charge ${amount} to ${card} now?`, { id: "console.pay.ask-fee" })
        : msg(str`Refund ${amount} to the guest now?`, {
            id: "console.pay.ask-refund",
          });
    return html`<div class="message" role="alertdialog" tabindex="-1" aria-labelledby="pay-q">
      <p id="pay-q"><strong>${text}</strong></p>
      <div class="actions">
        <button class="btn danger" type="button" ?disabled=${this.busy} @click=${() => this.take(step)}>${step.kind === "fee" ? msg("Yes: charge it", { id: "console.pay.yes-fee" }) : msg("Yes: refund it", { id: "console.pay.yes-refund" })}</button>
        <button class="btn secondary" type="button" id="pay-keep" @click=${() => (this.asking = undefined)}>${msg("No, leave it", { id: "console.pay.no" })}</button>
      </div>
    </div>`;
  }

  private askRefund = (e: SubmitEvent) => {
    e.preventDefault();
    const typed = String(new FormData(e.target as HTMLFormElement).get("amount") ?? "").trim();
    const digits = minorDigits(this.reservation.payment!.currency);
    void this.ask({ kind: "refund", amount: typed ? Math.round(Number(typed) * 10 ** digits) : undefined });
  };

  /** Asks once more; the safe answer takes the focus, so a second Enter moves no money. */
  private async ask(step: Step) {
    this.error = undefined;
    this.asking = step;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>("#pay-keep")?.focus();
  }

  private async take(step: Step) {
    this.busy = true;
    try {
      const api = this.api;
      const path = { reservation_id: this.reservation.id };
      await api.done(
        step.kind === "fee"
          ? api.POST("/reservations/{reservation_id}/payment/no-show-fee", { params: { path } })
          : api.POST("/reservations/{reservation_id}/payment/refund", {
              params: { path },
              body: step.amount === undefined ? {} : { amount: step.amount },
            }),
      );
      this.asking = undefined;
      this.dispatchEvent(new CustomEvent("payment-changed", { bubbles: true, composed: true }));
    } catch (err) {
      this.asking = undefined;
      this.error = err;
    } finally {
      this.busy = false;
    }
  }
}

function modeWords(p: ReservationPayment): string {
  if (p.mode === "guarantee") return msg("No-show fee (card guarantee)", { id: "console.pay.guarantee" });
  return p.mode === "prepay"
    ? msg("Prepayment", { id: "console.pay.prepayment" })
    : msg("Deposit", { id: "console.pay.deposit" });
}

function cardName(p: ReservationPayment): string {
  const brand = p.card!.brand.charAt(0).toUpperCase() + p.card!.brand.slice(1);
  return `${brand} •••• ${p.card!.last4}`;
}

function statusWords(p: ReservationPayment): string {
  const words: Record<ReservationPayment["status"], string> = {
    requires_payment: msg("Awaiting payment", { id: "console.pay.st.requires" }),
    paid: msg("Paid", { id: "console.pay.st.paid" }),
    card_saved: msg("Card saved", { id: "console.pay.st.saved" }),
    refunded: msg("Refunded", { id: "console.pay.refunded" }),
    partially_refunded: msg("Partly refunded", { id: "console.pay.st.partly" }),
    no_show_charged: msg("No-show fee charged", { id: "console.pay.fee-charged" }),
    failed: msg("Payment failed", { id: "console.pay.st.failed" }),
    canceled: msg("Cancelled", { id: "console.pay.st.canceled" }),
  };
  return words[p.status];
}

if (!customElements.get("bc-reservation-payment"))
  customElements.define("bc-reservation-payment", ReservationPaymentView);
