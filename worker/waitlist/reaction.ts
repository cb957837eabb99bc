/**
 * Waiting-list offers follow a reservation's change: a party leaving the list closes its open
 * offer (claimed when it now holds a table), and a change that frees tables offers them to the
 * party that asked first and now fits, with its email, in the same batch.
 */
import type { ReservationStatus } from "../../shared/schemas";
import { nowIso } from "../lib/clock";
import type { Statement } from "../lib/d1";
import { insertMessages } from "../messages/messages.repo";
import { HOLDING } from "../reservations/machine";
import type { ReservationChange, ReservationReaction } from "../reservations/reactions";
import type { ReservationRow } from "../reservations/reservations.repo";
import { planOffer } from "./offers";
import { closeOpenOffer, insertOffer, waitingOnDayOf } from "./offers.repo";

export const waitlistReaction: ReservationReaction = {
  name: "waiting-list offers",
  // the day's waiting parties, read with the reservation by a request that may free its tables
  preload: (db, propertyId, reservationId) => [waitingOnDayOf(db, propertyId, reservationId)],
  async plan({ ctx, before, after, releasesTables }: ReservationChange, preloaded?: readonly unknown[]) {
    if (!before) return [];
    const out: Statement[] = [];
    if (before.status === "WAITING" && after.status !== "WAITING") {
      out.push(
        closeOpenOffer(
          ctx.db,
          before.id,
          HOLDING.has(after.status as ReservationStatus) ? "claimed" : "expired",
          nowIso(),
        ),
      );
    }
    const offer = releasesTables
      ? await planOffer(ctx, before.startDate, before.id, preloaded?.[0] as ReservationRow[] | undefined)
      : undefined;
    if (offer)
      out.push(
        insertOffer(ctx.db, ctx.property.id, offer.offer),
        ...insertMessages(ctx.db, ctx.property.id, before.id, [offer.message]),
      );
    return out;
  },
};
