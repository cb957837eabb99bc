/**
 * A service's payment policy in the Restaurant view's service form: the fields (amounts in the
 * currency's major units, the refund deadline in hours, as a restaurant says them) and the policy
 * they make for the API (minor units, minutes). The API refuses a paying policy while the
 * restaurant's Stripe account cannot take charges: its words show at the mode.
 */
import { msg } from "@lit/localize";
import { html } from "lit";
import type { PaymentMode } from "../../../shared/payment.js";
import { minorDigits } from "../../format.js";
import type { Schema, Service } from "../api.js";
import { fieldError, invalid } from "../parts/errors.js";

type PaymentPolicy = Schema<"PaymentPolicy">;

const box = "width:auto;display:inline;min-height:0";

const major = (minor: number | null | undefined, currency: string) =>
  minor == null ? "" : String(minor / 10 ** minorDigits(currency));

function modeNames(): Record<PaymentMode | "none", string> {
  return {
    none: msg("Nothing to pay", { id: "console.pay.mode.none" }),
    deposit: msg("Deposit, taken when booking", { id: "console.pay.mode.deposit" }),
    prepay: msg("Prepayment, taken when booking", { id: "console.pay.mode.prepay" }),
    guarantee: msg("Card guarantee, charged only for a no-show", { id: "console.pay.mode.guarantee" }),
  };
}

/** The policy's fields inside the service form `f` names (ids `s<id>-...`), with the API's refusal `err` at each. */
export function policyFields(s: Service, err: unknown, f: (name: string) => string) {
  const p = s.payment;
  const currency = p?.currency ?? "EUR";
  const number = (name: string, label: string, value: string, step = "0.01") =>
    html`<label>${label}<input name=${`pay_${name}`} type="number" min="0" step=${step} .value=${value} aria-invalid=${invalid(err, `payment.${name}`)} aria-describedby=${f(`e-pay-${name}`)} /></label>
      ${fieldError(err, `payment.${name}`, f(`e-pay-${name}`))}`;
  return html`<fieldset>
    <legend>${msg("Payment", { id: "console.pay.policy" })}</legend>
    <label>${msg("What booking asks", { id: "console.pay.mode" })}<select name="pay_mode" aria-invalid=${invalid(err, "payment")} aria-describedby=${f("e-pay")}>
      ${Object.entries(modeNames()).map(([mode, name]) => html`<option value=${mode} ?selected=${(p?.mode ?? "none") === mode}>${name}</option>`)}
    </select></label>
    ${fieldError(err, "payment", f("e-pay"))}
    ${number("amount", msg("Amount", { id: "console.pay.amount" }), major(p?.amount, currency))}
    <fieldset>
      <legend>${msg("Per", { id: "console.pay.per" })}</legend>
      <label style="font-weight:400;margin-inline-end:0.5rem"><input type="radio" name="pay_per" value="guest" style=${box} ?checked=${(p?.per ?? "guest") === "guest"} /> ${msg("guest", { id: "console.pay.per.guest" })}</label>
      <label style="font-weight:400"><input type="radio" name="pay_per" value="booking" style=${box} ?checked=${p?.per === "booking"} /> ${msg("booking", { id: "console.pay.per.booking" })}</label>
    </fieldset>
    <label>${msg("Currency", { id: "console.pay.currency" })}<input name="pay_currency" maxlength="3" autocomplete="off" .value=${currency} aria-invalid=${invalid(err, "payment.currency")} aria-describedby=${f("e-pay-currency")} /></label>
    ${fieldError(err, "payment.currency", f("e-pay-currency"))}
    ${number("from_pax", msg("Only parties of at least", { id: "console.pay.from" }), String(p?.from_pax ?? 1), "1")}
    ${number("refund_until", msg("Full refund until (hours before)", { id: "console.pay.refund-until" }), String((p?.refund_until ?? 1440) / 60), "1")}
    ${number("no_show_fee", msg("No-show fee per guest (card guarantee)", { id: "console.pay.fee" }), major(p?.no_show_fee, currency))}
  </fieldset>`;
}

/** The policy the form's fields make (null: nothing to pay); amounts left blank go as 0 for the API to judge. */
export function policyOf(data: FormData): PaymentPolicy | null {
  const mode = String(data.get("pay_mode") ?? "none");
  if (mode === "none") return null;
  const currency = String(data.get("pay_currency") ?? "")
    .trim()
    .toUpperCase();
  let digits = 2;
  try {
    digits = minorDigits(currency);
  } catch {
    // not a currency Intl knows: the API says so at its field
  }
  const minor = (name: string) => Math.round(Number(data.get(name) || 0) * 10 ** digits);
  const fee = String(data.get("pay_no_show_fee") ?? "").trim();
  return {
    mode: mode as PaymentMode,
    amount: mode === "guarantee" ? 0 : minor("pay_amount"),
    per: data.get("pay_per") === "booking" ? "booking" : "guest",
    currency,
    from_pax: Number(data.get("pay_from_pax")) || 1,
    refund_until: Math.round(Number(data.get("pay_refund_until") || 0) * 60),
    no_show_fee: mode === "guarantee" && fee ? minor("pay_no_show_fee") : null,
  };
}

/** Whether two policies ask the same (null: nothing to pay). */
export function samePolicy(
  a: PaymentPolicy | null | undefined,
  b: PaymentPolicy | null | undefined,
): boolean {
  if (!a || !b) return !a && !b;
  const keys = ["mode", "amount", "per", "currency", "from_pax", "refund_until", "no_show_fee"] as const;
  return keys.every((k) => a[k] === b[k]);
}
