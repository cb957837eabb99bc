/**
 * A request about one reservation (/reservations/{id} and the paths under it) reads that row in
 * the round trip of its property's row, so the request's first requireReservation answers
 * without a round trip of its own; a request that may change it reads, in the same trip, what the
 * change's reactions would read (the day's waiting parties, for a freed table's offer). The row is
 * taken once: a change retried after a conflict reads it, and the rest, afresh.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { Preload } from "../properties/binding";
import { type Follow, keepPreloads, reactionPreloads } from "./reactions";
import { type ReservationRow, reservationQuery } from "./reservations.repo";

/** The id, and one word after it (/history, /checkin, /messages...); anything else reads as before. */
const ONE_RESERVATION = /\/reservations\/(\d{1,15})(?:\/[a-z_]+)?$/;

/** What a request read with its property row: the reservation of `id`, or none by that id in the shard. */
interface Kept {
  id: number;
  row: ReservationRow | undefined;
}

const kept = new WeakMap<Context<AppEnv>, Kept>();

/** The preload of a request whose path names one reservation; undefined for any other. */
export function reservationPreload(c: Context<AppEnv>): Preload | undefined {
  const id = Number(ONE_RESERVATION.exec(c.req.path)?.[1]);
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  // a request that may change the reservation also reads what its reactions would read then
  const changes = c.req.method !== "GET" && c.req.method !== "HEAD";
  let follow: Follow | undefined;
  return {
    statements: (db, propertyId) => {
      follow = changes ? reactionPreloads(db, propertyId, id) : undefined;
      return [reservationQuery(db, id), ...(follow?.statements ?? [])];
    },
    keep: ([rows, ...more]) => {
      const row = (rows as ReservationRow[] | undefined)?.[0];
      if (row && follow) keepPreloads(row, follow, more);
      kept.set(c, { id, row });
    },
  };
}

/** The request's preloaded reservation `id`, once; undefined when it read none by that id or gave it already. */
export function takePreloaded(c: Context<AppEnv>): (id: number) => Kept | undefined {
  return (id) => {
    const k = kept.get(c);
    if (k?.id !== id) return undefined;
    kept.delete(c);
    return k;
  };
}
