/**
 * What a reservation write adds to the outbox (CONTRACT 13): its messages, planned by
 * messages/plan.ts, and the waiting-list offer of the tables it frees. The repository writes
 * them in the write's own batch.
 */
import { resolveSettings, type ReservationStatus } from "../../shared/schemas";
import { now } from "../lib/clock";
import { newLink } from "../messages/links";
import { emailsGuest, planMessages, type ReservationFacts } from "../messages/plan";
import { planOffer } from "../waitlist/offers";
import type { BookingContext } from "./context";
import { factsOf } from "./facts";
import { HOLDING } from "./machine";
import * as repo from "./reservations.repo";
import type { CustomerPlan, ReservationRow } from "./reservations.repo";

/** The customer a write names, as messages greet and address them. */
export function guestOfPlan(plan: CustomerPlan | undefined): ReservationFacts["guest"] {
  if (!plan) return null;
  const f = plan.fields;
  return { first_name: f.firstName, last_name: f.lastName, email: f.email, phone: f.phone };
}

/**
 * The change's messages (and, for a change that frees tables, a waiting party's offer), for its
 * own batch. A reservation whose guest is now emailed and has no manage link yet gets one.
 */
export async function outboxOf(ctx: BookingContext, current: ReservationRow, set: Partial<ReservationRow>, o: { expiredUnpaid?: boolean; releases?: boolean; customer?: CustomerPlan | undefined }) {
  const settings = resolveSettings(ctx.property.settings);
  const after = { ...current, ...set, ...(o.customer && { customerSnapshot: repo.customerSnapshot(o.customer) }) } as ReservationRow;
  const afterFacts = factsOf(after);
  if (!current.manageTokenHash && ctx.linkSecret && emailsGuest(afterFacts, settings)) {
    const link = await newLink(ctx.linkSecret, "manage");
    Object.assign(set, { manageNonce: link.nonce, manageTokenHash: link.hash });
  }
  const plan = planMessages({ before: factsOf(current), after: afterFacts, expiredUnpaid: o.expiredUnpaid, actor: ctx.actor, settings, propertyEmail: ctx.property.email, version: current.version + 1, now: now() });
  const offer = o.releases ? await planOffer(ctx, current.startDate, current.id) : undefined;
  const leavesWaiting = current.status === "WAITING" && after.status !== "WAITING";
  const closeOffer: repo.OutboxWrites["closeOffer"] = leavesWaiting ? (HOLDING.has(after.status as ReservationStatus) ? "claimed" : "expired") : undefined;
  return { ...plan, offer, closeOffer };
}
