/**
 * What a reservation's change does to its money, registered with the reservations' reactions
 * (worker/wiring.ts): a booking that must pay gets its pay link (the manage link's token) even when
 * it emails nobody, so an integrator can hand it over; a booking that closes settles at Stripe once
 * written: an unpaid intent cancelled, a cancellation's refund (in full when the restaurant cancels,
 * by the refund rule when the guest does).
 */

import type { ReservationStatus } from "../../shared/schemas";
import { config } from "../config";
import { currentBackground } from "../lib/background";
import { newLink } from "../messages/links";
import { FINAL } from "../reservations/machine";
import type { ReservationReaction } from "../reservations/reactions";
import { GUEST } from "./actor";
import { settleClosed } from "./money";

const closed = (s: string | undefined) => s !== undefined && FINAL.has(s as ReservationStatus);

export const paymentsReaction: ReservationReaction = {
  name: "payments",
  async amend({ ctx, after, action }) {
    if (action !== "created" || !after.payment || after.manageTokenHash || !ctx.linkSecret) return {};
    const link = await newLink(ctx.linkSecret, "manage");
    return { manageNonce: link.nonce, manageTokenHash: link.hash };
  },
  committed(change, row) {
    if (!row.payment || !change.before || closed(change.before.status) || !closed(row.status)) return;
    const background = currentBackground();
    if (!background) return;
    const byGuest = change.ctx.actor === GUEST || change.ctx.actor === "searchengine";
    background.waitUntil(
      settleClosed(change.ctx, config(background.env).stripe, row, byGuest).catch((err: unknown) =>
        console.error(
          JSON.stringify({
            level: "error",
            where: "payments: settling a closed booking",
            reservation: row.id,
            message: String(err),
          }),
        ),
      ),
    );
  },
};
