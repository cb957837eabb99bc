/**
 * The parts of a guest's message about the booking's money: what is owed and until when (with the
 * pay link's button), the confirmation's amount and refund rule, a refund, a no-show fee, an unpaid
 * expiry. Pure, like render.ts, which calls it.
 */
import { refundDeadline } from "../../shared/payment";
import { localMinutes, localToUtc } from "../lib/localtime";
import { type MoneyVars, PAYMENT_TEXTS, type PaymentTemplate } from "./payment-texts";
import type { Locale, MessageSnapshot, PaymentNote, Template } from "./types";

export const PAYMENT_TEMPLATES = new Set<Template>([
  "payment_due",
  "payment_refund",
  "payment_no_show_fee",
  "payment_expired",
]);

export const isPaymentTemplate = (t: Template): t is PaymentTemplate => PAYMENT_TEMPLATES.has(t);

/** An amount in minor units as the guest reads it ("€40.00", "40,00 €"), as the widget writes it. */
export function formatMoney(minor: number, currency: string, locale: Locale): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

interface Where {
  locale: Locale;
  timeZone: string;
  /** the city the restaurant's clock is named by */
  city: string;
  /** formats an instant (epoch ms) in full, in the restaurant's zone */
  full: (at: number) => string;
}

/** The money's words for one message; null when the message's booking pays nothing. */
export function moneyVars(
  s: MessageSnapshot,
  base: Pick<MoneyVars, "restaurant" | "date" | "time" | "city" | "party">,
  w: Where,
): MoneyVars | null {
  const p: PaymentNote | undefined = s.payment;
  if (!p) return null;
  const money = (minor: number) => formatMoney(minor, p.currency, w.locale);
  const start = localToUtc(w.timeZone, localMinutes(s.date, s.hour));
  return {
    ...base,
    mode: p.mode,
    amount: money(p.amount),
    fee: money(p.no_show_fee ?? 0),
    moved: money(p.no_show_charged && !p.refunded ? p.no_show_charged : p.refunded),
    due: p.due_at ? `${w.full(Date.parse(p.due_at))} (${w.city})` : "",
    refundBy: `${w.full(refundDeadline(start, p.refund_until))} (${w.city})`,
  };
}

/** A money message's subject (`v` null: a snapshot without its money, which no plan writes). */
export function moneySubject(template: PaymentTemplate, locale: Locale, v: MoneyVars | null): string {
  return v ? PAYMENT_TEXTS[locale].subject[template](v) : template;
}

/** The paragraphs money adds: a money message's own, or the paid confirmation's amount and refund rule. */
export function moneyParagraphs(template: Template, locale: Locale, v: MoneyVars): string[] {
  const t = PAYMENT_TEXTS[locale];
  if (isPaymentTemplate(template)) return t.body[template](v);
  return template === "confirmation" ? t.paid(v) : [];
}

/** The pay link's button label. */
export function payLabel(locale: Locale, v: MoneyVars): string {
  return PAYMENT_TEXTS[locale].pay(v);
}
