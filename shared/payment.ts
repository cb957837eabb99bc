/**
 * Paying for a booking: a service's payment policy and the rules that apply it, pure, for the
 * Worker (which decides and takes the money) and the widget (which shows the guest, before they
 * confirm, what the Worker will ask). No zod here: the widget imports it as it is.
 *
 * Amounts are in the currency's minor units (cents), as Stripe counts them.
 */

export const PAYMENT_MODES = ["deposit", "prepay", "guarantee"] as const;
/** deposit and prepay take the money when booking; guarantee saves a card, charged only for a no-show */
export type PaymentMode = (typeof PAYMENT_MODES)[number];

export const PAYMENT_STATUSES = [
  "requires_payment",
  "paid",
  "card_saved",
  "refunded",
  "partially_refunded",
  "no_show_charged",
  "failed",
  "canceled",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A service's policy (its `payment` field). */
export interface PaymentPolicy {
  mode: PaymentMode;
  /** deposit and prepay: per guest or per booking; 0 for guarantee */
  amount: number;
  per: "guest" | "booking";
  /** ISO 4217, upper case */
  currency: string;
  /** only parties of this size or more are asked */
  from_pax: number;
  /** minutes before the start: a guest's cancellation earlier is refunded in full, later not */
  refund_until: number;
  /** guarantee: the fee per guest charged for a no-show; null otherwise */
  no_show_fee: number | null;
}

/** A reservation's money, as the API shows it (its `payment`, without the pay link). */
export interface PaymentState {
  mode: PaymentMode;
  /** what the booking pays now: 0 for a guarantee */
  amount: number;
  currency: string;
  status: PaymentStatus;
  amount_refunded: number;
  /** when the money was taken (or the card saved, for a guarantee); null before */
  paid_at: string | null;
  card: { brand: string; last4: string } | null;
  /** minutes before the start until which a guest's cancellation is refunded in full */
  refund_until: number;
  /** guarantee: what a no-show costs the party; null otherwise */
  no_show_fee: number | null;
  /** a guarantee's fee once charged */
  no_show_charged: number | null;
  /** a refund owed since the booking closed, not yet made at Stripe (retried until it is); 0 or absent: none */
  refund_pending?: number | undefined;
  /** the last attempt's failure, for the guest and the staff (a decline: "Your card was declined."); null after a success */
  failure: string | null;
}

/** A restaurant's Stripe account, as Stripe last told it. */
export interface PaymentAccount {
  id: string;
  charges_enabled: boolean;
  details_submitted: boolean;
  default_currency: string | null;
}

/** Whether a party of `pax` booking a service with this policy must pay (or save a card). */
export function asksPayment(policy: PaymentPolicy | null | undefined, pax: number): policy is PaymentPolicy {
  return !!policy && pax >= policy.from_pax;
}

/** What the party pays when booking: per guest or per booking; nothing for a guarantee. */
export function amountDue(policy: PaymentPolicy, pax: number): number {
  if (policy.mode === "guarantee") return 0;
  return policy.per === "guest" ? policy.amount * pax : policy.amount;
}

/** What a no-show costs under a guarantee (per guest); null for the other modes. */
export function noShowFee(policy: PaymentPolicy, pax: number): number | null {
  return policy.mode === "guarantee" && policy.no_show_fee ? policy.no_show_fee * pax : null;
}

/** A booking's money before anything is paid. */
export function newPayment(policy: PaymentPolicy, pax: number): PaymentState {
  return {
    mode: policy.mode,
    amount: amountDue(policy, pax),
    currency: policy.currency,
    status: "requires_payment",
    amount_refunded: 0,
    paid_at: null,
    card: null,
    refund_until: policy.refund_until,
    no_show_fee: noShowFee(policy, pax),
    no_show_charged: null,
    failure: null,
  };
}

/** The instant (epoch ms) until which a guest's cancellation is refunded in full. */
export function refundDeadline(startMs: number, refundUntilMinutes: number): number {
  return startMs - refundUntilMinutes * 60_000;
}

/** What is left to refund of what was taken (a payment, or a no-show fee). */
export function refundable(
  p: Pick<PaymentState, "status" | "amount" | "amount_refunded" | "no_show_charged">,
): number {
  if (!["paid", "partially_refunded", "no_show_charged"].includes(p.status)) return 0;
  return Math.max(0, (p.no_show_charged ?? p.amount) - p.amount_refunded);
}

/**
 * What a guest's own cancellation gives back: all that is left when it comes before the refund
 * deadline, nothing after (the restaurant keeps the deposit). A restaurant's cancellation always
 * refunds in full (refundable).
 */
export function guestCancelRefund(p: PaymentState, startMs: number, nowMs: number): number {
  if (p.status === "no_show_charged") return 0;
  return nowMs < refundDeadline(startMs, p.refund_until) ? refundable(p) : 0;
}

/** The status a refund of `amount` leaves. */
export function afterRefund(p: PaymentState, amount: number): PaymentStatus {
  if (p.status === "no_show_charged") return "no_show_charged";
  return p.amount_refunded + amount >= p.amount ? "refunded" : "partially_refunded";
}

/** Whether the money step is done: nothing more to pay or save. */
export function settled(p: PaymentState | null | undefined): boolean {
  return !!p && p.status !== "requires_payment" && p.status !== "failed";
}

/**
 * Whether a booking still owes its payment: PREPAY until paid, or ACCEPTED from the waiting list
 * with the payment asked when a table was given (a PREPAY booking staff accept by hand is let off).
 */
export function owesPayment(status: string, p: PaymentState | null | undefined): p is PaymentState {
  return !!p && !settled(p) && (status === "PREPAY" || status === "ACCEPTED");
}

/** Minutes a new booking has to pay: the service's window, else 15 online and 24 hours for staff or an integrator. */
export function paymentWindow(serviceWindow: number | null | undefined, online: boolean): number {
  if (online) return serviceWindow ?? 15;
  return Math.max(serviceWindow ?? 0, 24 * 60);
}

/** The platform's fee on a payment of `amount`, in basis points of it (an operator setting). */
export function platformFee(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints) / 10_000);
}
