/**
 * Refunds a closed booking owes, made so that none is lost: the amount is written with the change
 * that closes the booking (the reservation's `payment.refund_pending` and its row of Stripe ids, one
 * batch), tried at once in the background, and retried by the cron with backoff while Stripe
 * refuses or cannot be reached. Every try sends Stripe the same idempotency key (a booking closes
 * once), so a try whose answer was lost never refunds twice.
 */
import { guestCancelRefund, type PaymentState, refundable } from "../../shared/payment";
import { resolveSettings } from "../../shared/schemas";
import type { Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { now, nowIso } from "../lib/clock";
import { localToUtc } from "../lib/zone";
import { getPropertyRows } from "../properties/properties.repo";
import { changePayment } from "../reservations/booking";
import type { BookingContext } from "../reservations/context";
import type { ReservationRow } from "../reservations/reservations.repo";
import { SYSTEM } from "./actor";
import * as outcomes from "./outcomes";
import { dueRefunds, getRef, refundMade, refundRetryLater } from "./payments.repo";
import { atStripe, type StripeConfig, stepKey, stripeClient } from "./stripe";

const MINUTE = 60_000;
/** the longest wait between two tries */
const MAX_WAIT = 6 * 60 * MINUTE;
const BATCH = 50;

/** When try `attempts` + 1 is due after a failure: 1, 2, 4... minutes, at most six hours. */
export function nextTry(attempts: number, at: number): string {
  return new Date(at + Math.min(MAX_WAIT, MINUTE * 2 ** Math.min(attempts, 20))).toISOString();
}

/**
 * What a booking that closes now owes back: all that is left when the restaurant cancels, by the
 * refund rule when the guest does (`byGuest`); 0 when nothing was paid.
 */
export function owedOnClose(
  property: PropertyRow,
  row: Pick<ReservationRow, "startMin">,
  p: PaymentState,
  byGuest: boolean,
): number {
  if (p.status === "card_saved" || p.status === "no_show_charged") return 0;
  const tz = resolveSettings(property.settings).timezone;
  return byGuest ? guestCancelRefund(p, localToUtc(tz, row.startMin), now()) : refundable(p);
}

/** Tries the refund reservation `id` owes, once; a refusal or an outage leaves it for the cron's next try. */
export async function tryOwedRefund(ctx: BookingContext, stripe: StripeConfig, id: number): Promise<boolean> {
  const ref = await getRef(ctx.db, id);
  if (!ref?.refundDue || !ref.intent) return false;
  const due = ref.refundDue;
  let made: { id: string; amount: number };
  try {
    made = await atStripe(() =>
      stripeClient(stripe).refunds.create(
        {
          payment_intent: ref.intent!,
          amount: due,
          metadata: { reservation_id: String(id), reason: "booking closed" },
        },
        { stripeAccount: ref.account, idempotencyKey: stepKey(id, `refund-on-close-${due}`) },
      ),
    );
  } catch (err) {
    const attempts = ref.refundAttempts + 1;
    await refundRetryLater(ctx.db, id, attempts, nextTry(attempts, now()), String(err)).run();
    if (err instanceof ApiError) return false;
    throw err;
  }
  await changePayment(
    ctx,
    id,
    (r) => outcomes.refunded(r, (r.payment?.amount_refunded ?? 0) + made.amount, made.id) ?? cleared(r),
    [refundMade(ctx.db, id)],
  );
  return true;
}

/** Stripe's event counted the refund first: only the pending mark goes. */
function cleared(r: ReservationRow) {
  const p = r.payment;
  if (!p?.refund_pending) return null;
  return { payment: { ...p, refund_pending: 0 }, action: "refund" };
}

/** The cron: every owed refund whose try is due in this shard, until `until` (epoch ms); answers the ids refunded. */
export async function retryOwedRefunds(
  db: Db,
  stripe: StripeConfig,
  o: { until?: number; linkSecret?: string | undefined } = {},
): Promise<number[]> {
  if (!stripe.secretKey) return [];
  const due = await dueRefunds(db, nowIso(), BATCH);
  const properties = new Map(
    (await getPropertyRows(db, [...new Set(due.map((r) => r.propertyId))])).map((p) => [p.id, p]),
  );
  const done: number[] = [];
  for (const { reservationId, propertyId } of due) {
    if (o.until !== undefined && now() > o.until) break;
    const property = properties.get(propertyId);
    if (!property) continue;
    const ctx: BookingContext = { db, property, actor: SYSTEM, linkSecret: o.linkSecret };
    if (await tryOwedRefund(ctx, stripe, reservationId).catch(() => false)) done.push(reservationId);
  }
  return done;
}
