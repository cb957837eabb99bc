/**
 * Applying what Stripe says of a reservation's intent (an event, or the intent as the pay page or
 * the cron read it) through the reservation's own write: paid -> ACCEPTED with the guest's
 * confirmation, a decline said, a refund counted. Money that arrives for a booking already
 * cancelled or expired goes back: owed in the same batch as the event's record (refunds.ts), so a
 * Stripe failure leaves it to the cron's retries rather than to an event Stripe will not resend.
 */
import type Stripe from "stripe";
import { nowIso } from "../lib/clock";
import { batch } from "../lib/d1";
import { changePayment } from "../reservations/booking";
import type { BookingContext } from "../reservations/context";
import type { Statement } from "../reservations/reactions";
import type { ReservationRow } from "../reservations/reservations.repo";
import { requireReservation } from "../reservations/write";
import * as outcomes from "./outcomes";
import type { PaymentRef } from "./payments.repo";
import { oweRefund, savePaymentMethod } from "./payments.repo";
import { tryOwedRefund } from "./refunds";
import type { StripeConfig } from "./stripe";

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
    const late = await takenLate(ctx, stripe, ref, pi, record);
    if (late) return late;
    const charge = typeof pi.latest_charge === "object" ? pi.latest_charge : null;
    const card = cardOf(charge?.payment_method_details?.card);
    const applied = await changePayment(
      ctx,
      ref.reservationId,
      (r) =>
        outcomes.takenTooLate(r) ? null : outcomes.taken(r, { card, at: iso(charge?.created ?? pi.created) }),
      record,
    );
    // closed between the read above and this write: owed now, apart from the event's record
    if (outcomes.takenTooLate(applied.row)) await takenLate(ctx, stripe, ref, pi, []);
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

/**
 * Money taken for a booking no longer there (cancelled or expired before Stripe took it): owed back
 * in full, written with the event's record (a replay then finds it owed), tried at once and, while
 * Stripe refuses or cannot be reached, by the cron (refunds.ts). Answers undefined for an open booking.
 */
async function takenLate(
  ctx: BookingContext,
  stripe: StripeConfig,
  ref: PaymentRef,
  pi: Stripe.PaymentIntent,
  record: Statement[],
): Promise<Applied | undefined> {
  const row = await requireReservation(ctx, ref.reservationId);
  if (!outcomes.takenTooLate(row)) return undefined;
  const owed = row.payment?.status === "refunded" || row.payment?.amount_refunded || ref.refundDue;
  if (owed) {
    await batch(ctx.db, record);
    return { row, changed: false };
  }
  // the reservation says it too (`payment.refund_pending`): staff and the guest see the money on its way
  const statements = [oweRefund(ctx.db, ref.reservationId, pi.amount, nowIso()), ...record];
  const applied = await changePayment(
    ctx,
    ref.reservationId,
    (r) => outcomes.owedBack(r, pi.amount),
    statements,
  );
  await tryOwedRefund(ctx, stripe, ref.reservationId);
  return applied;
}
