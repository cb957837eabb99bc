/**
 * The cron's expiry of PREPAY bookings that pay through Stripe: Stripe is asked first, so a lost or
 * late event never expires a booking that is paid (it is applied instead: ACCEPTED). An unpaid one
 * has its intent cancelled, then becomes EXPIRED "unpaid" and frees its tables. When Stripe cannot be
 * reached the booking waits for the next run.
 */
import { settled } from "../../shared/payment";
import type { Db } from "../env";
import { ApiError } from "../errors";
import { now, nowIso } from "../lib/clock";
import { getPropertyRows } from "../properties/properties.repo";
import { changePayment } from "../reservations/booking";
import type { BookingContext } from "../reservations/context";
import { dueUnpaid, type ReservationRow } from "../reservations/reservations.repo";
import { SYSTEM } from "./actor";
import { applyPaymentIntent, applySetupIntent } from "./apply";
import { readIntent } from "./intents";
import { cancelAtStripe } from "./money";
import { getRef } from "./payments.repo";
import type { StripeConfig } from "./stripe";

const BATCH = 100;

/** Expires what is due in this shard until `until` (epoch ms); answers the ids expired. */
export async function expireUnpaidPayments(
  db: Db,
  stripe: StripeConfig,
  o: { until?: number; linkSecret?: string | undefined } = {},
): Promise<number[]> {
  if (!stripe.secretKey) return [];
  const due = await dueUnpaid(db, nowIso(), BATCH, true);
  const properties = new Map(
    (await getPropertyRows(db, [...new Set(due.map((r) => r.propertyId))])).map((p) => [p.id, p]),
  );
  const expired: number[] = [];
  for (const row of due) {
    if (o.until !== undefined && now() > o.until) break;
    const property = properties.get(row.propertyId);
    if (!property) continue;
    const ctx: BookingContext = { db, property, actor: SYSTEM, linkSecret: o.linkSecret };
    try {
      if (await expireOne(ctx, stripe, row)) expired.push(row.id);
    } catch (err) {
      // Stripe unreachable, or the booking changed meanwhile: the next run sees it again.
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return expired;
}

/** Asks Stripe, then expires the booking unless it turns out paid. */
async function expireOne(ctx: BookingContext, stripe: StripeConfig, row: ReservationRow): Promise<boolean> {
  const ref = await getRef(ctx.db, row.id);
  if (ref?.intent) {
    const current = await readIntent(stripe, ref);
    const applied =
      current.kind === "payment"
        ? await applyPaymentIntent(ctx, stripe, ref, current.intent)
        : await applySetupIntent(ctx, ref, current.intent);
    if (settled(applied.row.payment)) return false;
    await cancelAtStripe(stripe, ref);
  }
  const { changed } = await changePayment(ctx, row.id, (r) =>
    r.status === "PREPAY" && r.payment && !settled(r.payment)
      ? { payment: { ...r.payment, status: "canceled" }, to: "EXPIRED", action: "expired_unpaid" }
      : null,
  );
  return changed;
}
