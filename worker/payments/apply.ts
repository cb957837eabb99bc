/**
 * Applying what Stripe says of a reservation's intent (an event, or the intent as the pay page or
 * the cron read it) through the reservation's own write: paid -> ACCEPTED with the guest's
 * confirmation, a decline said, a refund counted. Money that arrives for a booking already
 * cancelled or expired goes back at once.
 */
import type Stripe from "stripe";
import { changePayment } from "../reservations/booking";
import type { BookingContext } from "../reservations/context";
import type { Statement } from "../reservations/reactions";
import type { ReservationRow } from "../reservations/reservations.repo";
import * as outcomes from "./outcomes";
import type { PaymentRef } from "./payments.repo";
import { savePaymentMethod } from "./payments.repo";
import { atStripe, type StripeConfig, stepKey, stripeClient } from "./stripe";

export interface Applied {
  row: ReservationRow;
  changed: boolean;
}

type Card = { brand: string; last4: string } | null;

const cardOf = (c: { brand?: string | null; last4?: string | null } | null | undefined): Card =>
  c?.brand && c.last4 ? { brand: c.brand, last4: c.last4 } : null;

const iso = (seconds: number | null | undefined) =>
  new Date((seconds ?? Date.now() / 1000) * 1000).toISOString();

/** A PaymentIntent as Stripe has it now (its charge expanded for the card): applied to its reservation. */
export async function applyPaymentIntent(
  ctx: BookingContext,
  stripe: StripeConfig,
  ref: PaymentRef,
  pi: Stripe.PaymentIntent,
  record: Statement[] = [],
): Promise<Applied> {
  if (pi.id === ref.feeIntent) return applyFee(ctx, ref, pi, record);
  if (pi.status === "succeeded") {
    const charge = typeof pi.latest_charge === "object" ? pi.latest_charge : null;
    const card = cardOf(charge?.payment_method_details?.card);
    const applied = await changePayment(
      ctx,
      ref.reservationId,
      (r) =>
        outcomes.takenTooLate(r) ? null : outcomes.taken(r, { card, at: iso(charge?.created ?? pi.created) }),
      record,
    );
    if (outcomes.takenTooLate(applied.row) && applied.row.payment?.status !== "refunded")
      await giveBack(stripe, ref, pi);
    return applied;
  }
  if (pi.status === "canceled") return changePayment(ctx, ref.reservationId, outcomes.canceled, record);
  const failure = pi.last_payment_error?.message;
  if (failure) return changePayment(ctx, ref.reservationId, (r) => outcomes.declined(r, failure), record);
  return changePayment(ctx, ref.reservationId, () => null, record);
}

/** A SetupIntent as Stripe has it now (its payment method expanded): the card saved as the guarantee. */
export async function applySetupIntent(
  ctx: BookingContext,
  ref: PaymentRef,
  si: Stripe.SetupIntent,
  record: Statement[] = [],
): Promise<Applied> {
  if (si.status === "succeeded") {
    const method = typeof si.payment_method === "object" ? si.payment_method : null;
    const methodId = method?.id ?? (si.payment_method as string | null);
    const extra = methodId ? [savePaymentMethod(ctx.db, ref.reservationId, methodId), ...record] : record;
    return changePayment(
      ctx,
      ref.reservationId,
      (r) => outcomes.taken(r, { card: cardOf(method?.card), at: iso(si.created) }),
      extra,
    );
  }
  if (si.status === "canceled") return changePayment(ctx, ref.reservationId, outcomes.canceled, record);
  const failure = si.last_setup_error?.message;
  if (failure) return changePayment(ctx, ref.reservationId, (r) => outcomes.declined(r, failure), record);
  return changePayment(ctx, ref.reservationId, () => null, record);
}

/** A refunded charge: its total refunded, as Stripe counts it. */
export function applyRefunded(
  ctx: BookingContext,
  ref: PaymentRef,
  charge: Stripe.Charge,
  record: Statement[] = [],
): Promise<Applied> {
  return changePayment(ctx, ref.reservationId, (r) => outcomes.refunded(r, charge.amount_refunded), record);
}

function applyFee(ctx: BookingContext, ref: PaymentRef, pi: Stripe.PaymentIntent, record: Statement[]) {
  if (pi.status === "succeeded")
    return changePayment(ctx, ref.reservationId, (r) => outcomes.feeCharged(r, pi.amount), record);
  const failure = pi.last_payment_error?.message;
  if (failure) return changePayment(ctx, ref.reservationId, (r) => outcomes.feeDeclined(r, failure), record);
  return changePayment(ctx, ref.reservationId, () => null, record);
}

/** Money taken for a booking no longer there: refunded in full (its charge.refunded event then counts it). */
async function giveBack(stripe: StripeConfig, ref: PaymentRef, pi: Stripe.PaymentIntent) {
  await atStripe(() =>
    stripeClient(stripe).refunds.create(
      {
        payment_intent: pi.id,
        metadata: { reservation_id: String(ref.reservationId), reason: "booking closed" },
      },
      { stripeAccount: ref.account, idempotencyKey: stepKey(ref.reservationId, "late-payment-refund") },
    ),
  );
}
