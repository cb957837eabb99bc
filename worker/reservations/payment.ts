/**
 * A change of a reservation's money (its `payment`) and the status move it brings: paid or the
 * card saved -> ACCEPTED, the payment window closed -> EXPIRED "unpaid" (its tables freed). Written
 * as every other change is (one batch with its history entry, the reactions' statements and the
 * outbox triggers' webhook event), with the caller's own statements in the same batch (the Stripe
 * event's record), so a replayed event fails the whole batch. The money itself is worker/payments'.
 */
import type { PaymentState } from "../../shared/payment";
import { type ReservationStatus, resolveSettings } from "../../shared/schemas";
import { ApiError } from "../errors";
import { batch } from "../lib/d1";
import { now } from "../lib/time";
import type { BookingContext } from "./context";
import { diff } from "./history";
import { type Action, next } from "./machine";
import type { Statement } from "./reactions";
import type { ReservationRow } from "./reservations.repo";
import { type ChangePlan, commitChange, withReactions } from "./update";
import { machineState, newTries, requireReservation, settle } from "./write";

/** What one money step does to a reservation. */
export interface PaymentChange {
  payment: PaymentState;
  /** the status it moves to: ACCEPTED once paid, EXPIRED when unpaid (none: the status stays) */
  to?: "ACCEPTED" | "EXPIRED";
  /** the history's name of the step: "payment_paid", "refund", "no_show_fee"... */
  action: string;
  /** what else the history entry says (the refund's amount, Stripe's refund id) */
  notes?: Record<string, [unknown, unknown]>;
}

/**
 * Applies the change `decide` makes of the reservation as it is now (null: nothing to change), with
 * `statements` in the same batch; read again and decided again when another write came first.
 * Answers the row as written, or as it is when nothing changed.
 */
export async function changePayment(
  ctx: BookingContext,
  id: number,
  decide: (current: ReservationRow) => PaymentChange | null,
  statements: Statement[] = [],
): Promise<{ row: ReservationRow; changed: boolean }> {
  const tries = newTries();
  for (;;) {
    const current = await requireReservation(ctx, id);
    const change = decide(current);
    if (!change) {
      await batch(ctx.db, statements);
      return { row: current, changed: false };
    }
    const plan = await planPayment(ctx, current, change);
    plan.follow.statements.push(...statements);
    try {
      return { row: await commitChange(ctx, plan), changed: true };
    } catch (err) {
      settle(err, tries, {});
    }
  }
}

async function planPayment(
  ctx: BookingContext,
  current: ReservationRow,
  c: PaymentChange,
): Promise<ChangePlan> {
  const from = current.status as ReservationStatus;
  const action: Action | undefined =
    c.to === "ACCEPTED"
      ? { type: "status", to: "ACCEPTED" }
      : c.to === "EXPIRED"
        ? { type: "expire_unpaid" }
        : undefined;
  const outcome = action ? next(machineState(current), action) : undefined;
  if (outcome && !outcome.ok) throw new ApiError("reservation_not_available", outcome.reason);
  const to = outcome?.ok ? outcome.state.status : from;
  const set: Partial<ReservationRow> = { payment: c.payment };
  // Paid (or the card saved): no window left to expire by.
  if (c.payment.status === "paid" || c.payment.status === "card_saved") set.paymentDueAt = null;
  if (to !== from) {
    Object.assign(set, { status: to, lastStatusChange: new Date(now()).toISOString(), waitingList: false });
    if (to === "EXPIRED") set.statusReason = "unpaid";
  }
  const releasesTables = outcome?.ok ? outcome.releasesTables : false;
  const { change, follow } = await withReactions(ctx, current, set, { action: c.action, releasesTables });
  const tz = resolveSettings(ctx.property.settings).timezone;
  const history = {
    actor: ctx.actor,
    action: c.action,
    fromStatus: from,
    toStatus: to,
    changes: { ...diff(current, set, tz), ...paymentChanges(current.payment, c.payment), ...c.notes },
  };
  return { current, set, holds: releasesTables ? [] : undefined, history, follow, change };
}

/** {"payment.status": [before, after], ...}: the money's fields a step changed. */
function paymentChanges(
  before: PaymentState | null,
  after: PaymentState,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after) as (keyof PaymentState)[]) {
    const [a, b] = [before?.[key] ?? null, after[key]];
    if (JSON.stringify(a) !== JSON.stringify(b)) out[`payment.${key}`] = [a, b];
  }
  return out;
}
