/**
 * What a reservation's change leaves in the outbox (its messages, the webhook deliveries its
 * triggers write, a waiting list's offer) is taken in the change's own batch, one write round
 * trip less than the request's dispatch taking it after the answer. It plans last, so its
 * statements follow, and see, every row the others write. What it took goes to the context's
 * `outbox`, for the request to attempt once it has answered (dispatchAfterWrite).
 *
 * The API's changes give their context an outbox; the restaurant's booking desk does not: its
 * commits are the restaurant's one-at-a-time path, and a heavier batch there made every booking
 * wait longer (measured: POST p50 up by a fifth), so a booking's request takes its rows after it.
 */
import { takeDueWithWrite } from "../outbox/dispatch";
import type { ReservationReaction } from "./reactions";

export const outboxReaction: ReservationReaction = {
  name: "the outbox",
  planLast: true,
  async plan(change) {
    return change.ctx.outbox ? takeDueWithWrite(change.ctx.db, change.after.propertyId) : [];
  },
  committed(change, _row, answered) {
    if (answered.length) change.ctx.outbox?.took(answered);
  },
};
