/**
 * What a reservation's change leaves in the outbox (its messages, the webhook deliveries its
 * triggers write, a waiting list's offer) is taken in the change's own batch, one write round
 * trip less than the request's dispatch taking it after the answer. It plans last, so its
 * statements follow, and see, every row the others write. What it took goes to the context's
 * `outbox`, for the request to attempt once it has answered (dispatchAfterWrite).
 *
 * The API's changes give their context an outbox, and so does the restaurant's booking desk for
 * each booking it commits: what the commit took goes back to the booking's request with the answer.
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
