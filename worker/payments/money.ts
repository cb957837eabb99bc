/**
 * The money steps staff and integrators take, and those that follow a booking's end: a refund of
 * all or part, a guarantee's no-show fee charged off session (a decline is said, never retried on
 * its own), the intent cancelled when a booking closes unpaid, the money given back when it is
 * cancelled. Each sends Stripe an idempotency key of the reservation and the step, and lands in the
 * reservation's history (with its actor) and its webhooks through the reservation's own write.
 */
import { guestCancelRefund, refundable } from "../../shared/payment";
import { resolveSettings } from "../../shared/schemas";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { localToUtc } from "../lib/zone";
import { changePayment } from "../reservations/booking";
import type { BookingContext } from "../reservations/context";
import type { ReservationRow } from "../reservations/reservations.repo";
import { requireReservation } from "../reservations/write";
import * as outcomes from "./outcomes";
import { getRef, keepFeeIntent, type PaymentRef } from "./payments.repo";
import { atStripe, providerError, type StripeConfig, stepKey, stripeClient } from "./stripe";

/** The reservation's Stripe side, or 409 when nothing was ever taken through Stripe. */
async function paidRef(ctx: BookingContext, row: ReservationRow): Promise<PaymentRef> {
  const ref = row.payment ? await getRef(ctx.db, row.id) : undefined;
  if (!ref?.intent)
    throw new ApiError("payment_not_available", `reservation ${row.id} took no payment through Stripe`);
  return ref;
}

/** Refunds `amount` (default: all that is left) of what the reservation paid. */
export async function refund(ctx: BookingContext, stripe: StripeConfig, id: number, amount?: number) {
  const row = await requireReservation(ctx, id);
  const left = row.payment ? refundable(row.payment) : 0;
  if (left === 0)
    throw new ApiError("payment_not_available", `reservation ${id} has nothing paid left to refund`);
  const give = amount ?? left;
  if (give > left)
    throw new ApiError("invalid_input_data", `at most ${left} (minor units) is left to refund`, {
      errors: [{ path: "amount", message: `at most ${left} is left to refund` }],
    });
  const ref = await paidRef(ctx, row);
  return refundNow(ctx, stripe, row, ref, give);
}

/** One refund at Stripe, then counted on the reservation (its charge.refunded event finds it counted). */
async function refundNow(
  ctx: BookingContext,
  stripe: StripeConfig,
  row: ReservationRow,
  ref: PaymentRef,
  amount: number,
) {
  const p = row.payment!;
  const intent = p.no_show_charged ? ref.feeIntent! : ref.intent!;
  const step = `refund-${p.amount_refunded}-${amount}`;
  const made = await atStripe(() =>
    stripeClient(stripe).refunds.create(
      { payment_intent: intent, amount, metadata: { reservation_id: String(row.id) } },
      { stripeAccount: ref.account, idempotencyKey: stepKey(row.id, step) },
    ),
  );
  const total = p.amount_refunded + made.amount;
  return (await changePayment(ctx, row.id, (r) => outcomes.refunded(r, total, made.id))).row;
}

/** Charges a guarantee's no-show fee on the saved card, off session; a decline is 402 and said on the reservation. */
export async function chargeNoShow(ctx: BookingContext, stripe: StripeConfig, id: number) {
  const row = await requireReservation(ctx, id);
  const p = row.payment;
  if (p?.mode !== "guarantee" || p.status !== "card_saved" || !p.no_show_fee)
    throw new ApiError(
      "payment_not_available",
      p?.no_show_charged
        ? `reservation ${id}'s no-show fee was charged already`
        : `reservation ${id} has no card saved as a guarantee`,
    );
  const ref = await getRef(ctx.db, id);
  if (!ref?.paymentMethod || !ref.customer)
    throw new ApiError("payment_not_available", `reservation ${id} has no card saved as a guarantee`);
  try {
    const pi = await stripeClient(stripe).paymentIntents.create(
      {
        amount: p.no_show_fee,
        currency: p.currency.toLowerCase(),
        customer: ref.customer,
        payment_method: ref.paymentMethod,
        off_session: true,
        confirm: true,
        description: `No-show fee, reservation ${id}`,
        metadata: { reservation_id: String(id), property_id: String(row.propertyId), step: "no_show_fee" },
      },
      { stripeAccount: ref.account, idempotencyKey: stepKey(id, "no-show-fee") },
    );
    return (
      await changePayment(ctx, id, (r) => outcomes.feeCharged(r, pi.amount), [
        keepFeeIntent(ctx.db, id, pi.id),
      ])
    ).row;
  } catch (err) {
    const problem = providerError(err);
    if (problem.code === "payment_declined")
      await changePayment(ctx, id, (r) => outcomes.feeDeclined(r, problem.detail ?? "declined"));
    throw problem;
  }
}

/**
 * What a booking's end does to its money, once the end is written: an unpaid intent is cancelled; a
 * cancellation gives back what was paid (all of it when the restaurant cancels, by the refund rule
 * when the guest does). `byGuest`: the guest cancelled (the manage link, the search engine).
 */
export async function settleClosed(
  ctx: BookingContext,
  stripe: StripeConfig,
  row: ReservationRow,
  byGuest: boolean,
) {
  const p = row.payment;
  if (!p) return;
  if (p.status === "requires_payment" || p.status === "failed") return cancelIntent(ctx, stripe, row);
  if (row.status !== "CANCELLED" && row.status !== "REJECTED") return;
  if (p.status === "card_saved") return void (await changePayment(ctx, row.id, outcomes.canceled));
  const tz = resolveSettings(ctx.property.settings).timezone;
  const give = byGuest ? guestCancelRefund(p, localToUtc(tz, row.startMin), now()) : refundable(p);
  if (give > 0) await refundNow(ctx, stripe, row, await paidRef(ctx, row), give);
}

/** Cancels the unpaid intent at Stripe (one already paid makes Stripe refuse: then it is read and applied), and says so. */
export async function cancelIntent(ctx: BookingContext, stripe: StripeConfig, row: ReservationRow) {
  const ref = await getRef(ctx.db, row.id);
  if (ref?.intent) await cancelAtStripe(stripe, ref);
  await changePayment(ctx, row.id, outcomes.canceled);
}

/** Cancels a reservation's intent at Stripe, under the step's idempotency key. */
export async function cancelAtStripe(stripe: StripeConfig, ref: PaymentRef) {
  const client = stripeClient(stripe);
  const on = { stripeAccount: ref.account, idempotencyKey: stepKey(ref.reservationId, "cancel-intent") };
  await atStripe(async () => {
    if (ref.intent!.startsWith("seti_")) await client.setupIntents.cancel(ref.intent!, {}, on);
    else await client.paymentIntents.cancel(ref.intent!, { cancellation_reason: "abandoned" }, on);
  });
}
