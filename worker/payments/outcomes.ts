/**
 * What each thing Stripe tells us does to a reservation's money and status, decided from the
 * reservation as it is now: events come in any order and more than once, so the reservation's state
 * decides (a failure after the payment changes nothing; a payment after a cancellation is refunded).
 * Pure: no Stripe, no database.
 */
import { afterRefund, owesPayment, type PaymentState } from "../../shared/payment";
import type { ReservationStatus } from "../../shared/schemas";

/** A change of a reservation's money (as reservations/payment.ts applies it). */
export interface Outcome {
  payment: PaymentState;
  to?: "ACCEPTED" | "EXPIRED";
  action: string;
  notes?: Record<string, [unknown, unknown]>;
}

export interface Reserved {
  status: ReservationStatus | string;
  payment: PaymentState | null;
}

type Card = { brand: string; last4: string } | null;

const OWING = new Set(["requires_payment", "failed"]);
const CLOSED = new Set(["CANCELLED", "EXPIRED", "REJECTED"]);

/** Money taken (deposit, prepay) or a card saved (guarantee): PREPAY becomes ACCEPTED. */
export function taken(r: Reserved, o: { card: Card; at: string }): Outcome | null {
  const p = r.payment;
  if (!p || (!OWING.has(p.status) && p.status !== "canceled")) return null;
  const status = p.mode === "guarantee" ? "card_saved" : "paid";
  return {
    payment: { ...p, status, paid_at: o.at, card: o.card, failure: null },
    ...(r.status === "PREPAY" && { to: "ACCEPTED" as const }),
    action: status === "paid" ? "payment_paid" : "card_saved",
  };
}

/** Whether money taken now has no booking left to pay for (it was cancelled or expired meanwhile): it goes back. */
export function takenTooLate(r: Reserved): boolean {
  return CLOSED.has(r.status);
}

/** Money taken for a booking already closed: owed back in full, the refund on its way. */
export function owedBack(r: Reserved, amount: number): Outcome | null {
  const p = r.payment;
  if (!p || p.refund_pending || p.amount_refunded) return null;
  return { payment: { ...p, refund_pending: amount }, action: "refund_owed" };
}

/** A declined card or failed authentication: the guest may try again while the window lasts. */
export function declined(r: Reserved, message: string): Outcome | null {
  const p = r.payment;
  if (!owesPayment(r.status, p)) return null;
  if (p.status === "failed" && p.failure === message) return null;
  return { payment: { ...p, status: "failed", failure: message }, action: "payment_failed" };
}

/** The intent cancelled (the window closed, the booking cancelled): nothing more can be paid. */
export function canceled(r: Reserved): Outcome | null {
  const p = r.payment;
  if (!p || !(OWING.has(p.status) || (p.status === "card_saved" && CLOSED.has(r.status)))) return null;
  return { payment: { ...p, status: "canceled" }, action: "payment_canceled" };
}

/** Stripe's total refunded on the payment's charge (or the no-show fee's): only ever rises. */
export function refunded(r: Reserved, total: number, refundId?: string): Outcome | null {
  const p = r.payment;
  if (!p || total <= p.amount_refunded) return null;
  const step = total - p.amount_refunded;
  const pending = Math.max(0, (p.refund_pending ?? 0) - step);
  return {
    payment: { ...p, amount_refunded: total, status: afterRefund(p, step), refund_pending: pending },
    action: "refund",
    notes: { refund: [null, { amount: step, ...(refundId && { id: refundId }) }] },
  };
}

/** A guarantee's no-show fee charged off session. */
export function feeCharged(r: Reserved, amount: number): Outcome | null {
  const p = r.payment;
  if (!p || p.no_show_charged) return null;
  return {
    payment: { ...p, status: "no_show_charged", no_show_charged: amount, failure: null },
    action: "no_show_fee",
  };
}

/** A no-show fee declined: said on the reservation, nothing retried. */
export function feeDeclined(r: Reserved, message: string): Outcome | null {
  const p = r.payment;
  if (!p || p.no_show_charged) return null;
  return { payment: { ...p, failure: message }, action: "no_show_fee_declined" };
}
