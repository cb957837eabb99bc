/**
 * What a reservation's change does to its money, registered with the reservations' reactions
 * (worker/wiring.ts): a booking that must pay gets its pay link (the manage link's token) even when
 * it emails nobody, so an integrator can hand it over; a booking that closes owes its refund in the
 * same batch (in full when the restaurant cancels, by the refund rule when the guest does: see
 * refunds.ts), tried at once after the commit and by the cron until Stripe makes it; an unpaid
 * intent is cancelled at Stripe once the close is written. A waiting party given a table of a
 * service that asks this party to pay is ACCEPTED owing it (docs/decisions.md): the payment and
 * its window are set with the move, and the pay link goes out with it; a PREPAY booking staff
 * accept by hand is let off its payment.
 */

import { asksPayment, newPayment, owesPayment, paymentWindow } from "../../shared/payment";
import type { ReservationStatus } from "../../shared/schemas";
import { config } from "../config";
import { currentBackground } from "../lib/background";
import { now, nowIso } from "../lib/clock";
import { newLink } from "../messages/links";
import { getService } from "../properties/catalog.repo";
import { FINAL } from "../reservations/machine";
import type { ReservationChange, ReservationReaction } from "../reservations/reactions";
import type { ReservationRow } from "../reservations/reservations.repo";
import { GUEST } from "./actor";
import { settleClosed } from "./money";
import { oweRefund } from "./payments.repo";
import { owedOnClose, tryOwedRefund } from "./refunds";

const closed = (s: string | undefined) => s !== undefined && FINAL.has(s as ReservationStatus);

/** The change closes a booking that was open: the guest's own (manage link, search engine) or the restaurant's. */
function closing({ before, after }: ReservationChange): boolean {
  return !!after.payment && !!before && !closed(before.status) && closed(after.status);
}

/** What the closing change owes back (0: nothing). */
function owed(change: ReservationChange): number {
  const { ctx, after } = change;
  if (!closing(change) || after.status === "EXPIRED") return 0;
  const byGuest = ctx.actor === GUEST || ctx.actor === "searchengine";
  return owedOnClose(ctx.property, after, after.payment!, byGuest);
}

/**
 * A move of status that asks for the money or lets it off: a waiting party given a table (ACCEPTED)
 * owes what the service asks of its size, from now (15 minutes when the guest claimed an offer, 24
 * hours when staff gave it); a PREPAY booking staff accept by hand owes nothing more.
 */
async function statusMoney(change: ReservationChange): Promise<Partial<ReservationRow>> {
  const { ctx, before, after, action } = change;
  if (!before || before.status === after.status) return {};
  if (before.status === "PREPAY" && owesPayment("PREPAY", before.payment) && !after.payment?.paid_at) {
    if (after.status === "ACCEPTED" || after.status === "CONFIRMED")
      return { payment: { ...before.payment, status: "canceled" }, paymentDueAt: null };
    return {};
  }
  if (before.status !== "WAITING" || after.status !== "ACCEPTED" || after.payment || action === "created")
    return {};
  const service = after.serviceId ? await getService(ctx.db, ctx.property.id, after.serviceId) : undefined;
  if (!service || !asksPayment(service.payment, after.pax) || !ctx.property.paymentAccount?.charges_enabled)
    return {};
  const minutes = paymentWindow(service.prepaymentWindow, ctx.actor === GUEST);
  return {
    payment: newPayment(service.payment, after.pax),
    paymentDueAt: new Date(now() + minutes * 60_000).toISOString(),
  };
}

const logError = (where: string, reservation: number) => (err: unknown) =>
  console.error(JSON.stringify({ level: "error", where, reservation, message: String(err) }));

export const paymentsReaction: ReservationReaction = {
  name: "payments",
  async amend(change) {
    const { ctx, after } = change;
    const give = owed(change);
    if (give > 0) return { payment: { ...after.payment!, refund_pending: give } };
    const money = await statusMoney(change);
    const owing = owesPayment(after.status, money.payment ?? after.payment);
    if (!owing || after.manageTokenHash || !ctx.linkSecret) return money;
    const link = await newLink(ctx.linkSecret, "manage");
    return { ...money, manageNonce: link.nonce, manageTokenHash: link.hash };
  },
  async plan(change) {
    const give = change.after.payment?.refund_pending ?? 0;
    if (!closing(change) || give <= 0 || typeof change.reservationId !== "number") return [];
    return [oweRefund(change.ctx.db, change.reservationId, give, nowIso())];
  },
  committed(change, row) {
    if (!closing(change)) return;
    const background = currentBackground();
    if (!background) return;
    const stripe = config(background.env).stripe;
    const work = row.payment?.refund_pending
      ? tryOwedRefund(change.ctx, stripe, row.id).then(() => undefined)
      : settleClosed(change.ctx, stripe, row);
    background.waitUntil(work.catch(logError("payments: settling a closed booking", row.id)));
  },
};
