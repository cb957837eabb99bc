/**
 * A booking's money in the guest's words: what booking pays and the refund rule, before the guest
 * confirms (from the service's policy, as the Worker will apply it: shared/payment.ts), and on the
 * manage page whether a cancellation now is refunded.
 */
import { msg, str } from "@lit/localize";
import { amountDue, asksPayment, noShowFee, type PaymentPolicy } from "../../shared/payment.js";
import { formatDate, formatMoney, formatTime, minusMinutes } from "../format.js";

export { formatMoney };

/** The refund rule: a full refund until the deadline, the money kept after. */
export function refundRule(when: string, city: string) {
  return msg(str`Full refund if you cancel before ${when} (${city} time); later it is kept.`, {
    id: "pay.refund-rule",
  });
}

/** What booking pays now (or, for a guarantee, what a no-show costs). */
export function paymentLine(mode: string, amount: string) {
  if (mode === "guarantee")
    return msg(str`Card guarantee: nothing is charged now; a no-show costs ${amount}.`, {
      id: "pay.guarantee",
    });
  return mode === "prepay"
    ? msg(str`Prepayment ${amount}, taken now.`, { id: "pay.prepay" })
    : msg(str`Deposit ${amount}, taken now.`, { id: "pay.deposit" });
}

/** Before booking: what the party pays and until when a cancellation is refunded; nothing when the party pays nothing. */
export function paymentBefore(o: {
  policy: PaymentPolicy | null | undefined;
  pax: number;
  date: string;
  hour: string;
  city: string;
  locale: string;
}): string | undefined {
  const { policy } = o;
  if (!asksPayment(policy, o.pax)) return undefined;
  const minor = policy.mode === "guarantee" ? (noShowFee(policy, o.pax) ?? 0) : amountDue(policy, o.pax);
  const line = paymentLine(policy.mode, formatMoney(minor, policy.currency, o.locale));
  if (policy.mode === "guarantee") return line;
  const until = minusMinutes(o.date, o.hour, policy.refund_until);
  return `${line} ${refundRule(`${formatDate(until.date, o.locale)}, ${formatTime(until.hour, o.locale)}`, o.city)}`;
}

/** On the manage page, before the guest confirms a cancellation: is what was paid refunded? */
export function refundIfCancelled(
  p: {
    amount: number;
    amount_refunded: number;
    currency: string;
    status: string;
    refund_if_cancelled: number;
  },
  locale: string,
): string | undefined {
  if (p.status !== "paid" && p.status !== "partially_refunded") return undefined;
  const amount = formatMoney(p.amount - p.amount_refunded, p.currency, locale);
  // The Worker says it from its own clock: all that is left before the deadline, nothing after.
  return p.refund_if_cancelled > 0
    ? msg(str`Cancelling now refunds ${amount}.`, { id: "pay.refunded-if-cancelled" })
    : msg(str`Cancelling now keeps the ${amount} paid: the refund deadline has passed.`, {
        id: "pay.kept-if-cancelled",
      });
}

/** After a cancellation: a refund owed that Stripe has not made yet (retried until it is). */
export function refundOnItsWay(p: { refund_pending: number; currency: string }, locale: string) {
  if (!(p.refund_pending > 0)) return undefined;
  const amount = formatMoney(p.refund_pending, p.currency, locale);
  return msg(str`A refund of ${amount} is on its way.`, { id: "pay.refund-pending" });
}
