/**
 * Messages follow every change of a reservation: planMessages decides which (pure), this writes
 * them in the change's own batch, drops a reminder no longer due, and gives a guest who is now
 * emailed a manage link the messages can carry.
 */
import { resolveSettings } from "../../shared/schemas";
import { now } from "../lib/clock";
import type { ReservationChange, ReservationReaction } from "../reservations/reactions";
import { factsOf } from "./facts";
import { newLink } from "./links";
import { dropReminder, insertMessages } from "./messages.repo";
import { emailsGuest, planMessages } from "./plan";

export const messagesReaction: ReservationReaction = {
  name: "messages",
  async amend({ ctx, after }: ReservationChange) {
    if (after.manageTokenHash || !ctx.linkSecret) return {};
    if (!emailsGuest(factsOf(after), resolveSettings(ctx.property.settings))) return {};
    const link = await newLink(ctx.linkSecret, "manage");
    return { manageNonce: link.nonce, manageTokenHash: link.hash };
  },
  async plan(change: ReservationChange) {
    const { ctx, before, after, reservationId } = change;
    const plan = planMessages({
      before: before && factsOf(before),
      after: factsOf(after),
      // an unpaid booking's expiry is a cancellation to tell; a no-show's is not
      expiredUnpaid: change.action === "expired_unpaid",
      actor: ctx.actor,
      settings: resolveSettings(ctx.property.settings),
      propertyEmail: ctx.property.email,
      version: change.version,
      now: now(),
    });
    // The old reminder goes before the new messages come (a moved reservation gets a new one).
    const drop =
      plan.dropReminder && typeof reservationId === "number" ? [dropReminder(ctx.db, reservationId)] : [];
    return [...drop, ...insertMessages(ctx.db, ctx.property.id, reservationId, plan.messages)];
  },
};
