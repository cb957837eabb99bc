/** Waiting-list offers in a property's shard: written with the change that frees a table. */
import { and, asc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { reservations, waitlistOffers } from "../db/shard.schema";
import type { Db } from "../env";
import { localMinutes } from "../lib/localtime";
import { insertMessageIfChanged } from "../messages/messages.repo";
import type { PlannedMessage } from "../messages/types";
import { reservationFields } from "../reservations/guest.repo";

type ReservationRow = typeof reservations.$inferSelect;

export type OfferRow = typeof waitlistOffers.$inferSelect;

export interface NewOffer {
  reservationId: number;
  nonce: string;
  tokenHash: string;
  expiresAt: string;
  /** the start offered (local minutes) */
  startMin: number;
}

/** The offer; a party offered already is not offered again (the trigger waitlist_offers_once skips the row). */
export function insertOffer(db: Db, propertyId: number, o: NewOffer) {
  return db.insert(waitlistOffers).values({ propertyId, ...o });
}

/** Closes the reservation's open offer (it was claimed, or the party left the waiting list otherwise). */
export function closeOpenOffer(db: Db, reservationId: number, state: "claimed" | "expired", at: string) {
  return db
    .update(waitlistOffers)
    .set({ state, closedAt: at })
    .where(and(eq(waitlistOffers.reservationId, reservationId), eq(waitlistOffers.state, "open")));
}

/**
 * The WAITING parties of a property on one day, who asked first first, that were never offered a
 * table (an offer is made once: a party that let one pass stays on the list for the restaurant).
 */
export async function waitingNeverOffered(
  db: Db,
  propertyId: number,
  date: string,
  limit = 50,
): Promise<ReservationRow[]> {
  return waitingFrom(db, propertyId, localMinutes(date), limit);
}

/**
 * The same parties on the day of reservation `reservationId`, found by its id: a statement for
 * the request's first round trip, before the reservation itself has been read.
 */
export function waitingOnDayOf(db: Db, propertyId: number, reservationId: number, limit = 50) {
  // local minutes are whole days of 1,440 since the epoch plus the time of day (lib/localtime)
  const day = sql<number>`(SELECT (r.start_min / 1440) * 1440 FROM reservations r WHERE r.id = ${reservationId})`;
  return waitingFrom(db, propertyId, day, limit);
}

function waitingFrom(db: Db, propertyId: number, day: number | SQL<number>, limit: number) {
  return db
    .select(reservationFields)
    .from(reservations)
    .where(
      and(
        eq(reservations.propertyId, propertyId),
        // the property's start index: that day's reservations
        gte(reservations.startMin, day),
        lt(reservations.startMin, typeof day === "number" ? day + 1440 : sql`${day} + 1440`),
        eq(reservations.status, "WAITING"),
        sql`NOT EXISTS (SELECT 1 FROM ${waitlistOffers} o WHERE o.reservation_id = ${reservations.id})`,
      ),
    )
    .orderBy(asc(reservations.id))
    .limit(limit);
}

export async function findOfferByTokenHash(db: Db, propertyId: number, tokenHash: string) {
  const rows = await db
    .select({ offer: waitlistOffers, reservation: reservationFields })
    .from(waitlistOffers)
    .innerJoin(reservations, eq(reservations.id, waitlistOffers.reservationId))
    .where(and(eq(waitlistOffers.propertyId, propertyId), eq(waitlistOffers.tokenHash, tokenHash)))
    .limit(1);
  return rows[0];
}

/** Open offers whose time ran out, oldest first (the cron passes each to the next party). */
export async function lapsedOffers(db: Db, now: string, limit: number): Promise<OfferRow[]> {
  return db
    .select()
    .from(waitlistOffers)
    .where(and(eq(waitlistOffers.state, "open"), lt(waitlistOffers.expiresAt, now)))
    .orderBy(asc(waitlistOffers.expiresAt))
    .limit(limit);
}

/**
 * Closes an open offer and, only if this call closed it, makes the next one with its email: one
 * batch, so two closings of one offer (the cron and a decline at once) pass it on once. A party
 * offered meanwhile by a change that freed a table is not offered again (waitlist_offers_once).
 */
export async function closeAndPass(
  d1: D1Database | D1DatabaseSession,
  offerId: number,
  state: "declined" | "expired",
  at: string,
  propertyId: number,
  next?: { offer: NewOffer; message: PlannedMessage },
): Promise<boolean> {
  const close = d1
    .prepare("UPDATE waitlist_offers SET state = ?2, closed_at = ?3 WHERE id = ?1 AND state = 'open'")
    .bind(offerId, state, at);
  const pass = next
    ? [
        d1
          .prepare(
            "INSERT INTO waitlist_offers (property_id, reservation_id, nonce, token_hash, expires_at, start_min, created_at) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE changes() = 1",
          )
          .bind(
            propertyId,
            next.offer.reservationId,
            next.offer.nonce,
            next.offer.tokenHash,
            next.offer.expiresAt,
            next.offer.startMin,
            at,
          ),
        insertMessageIfChanged(d1, propertyId, next.message),
      ]
    : [];
  const [closed] = await d1.batch([close, ...pass]);
  return (closed!.meta.changes ?? 0) === 1;
}

/** Drops closed offers closed before `before`. */
export async function purgeOffers(d1: D1Database, before: string, limit: number): Promise<number> {
  const r = await d1
    .prepare(
      "DELETE FROM waitlist_offers WHERE id IN (SELECT id FROM waitlist_offers WHERE state <> 'open' AND closed_at < ?1 ORDER BY id LIMIT ?2)",
    )
    .bind(before, limit)
    .run();
  return r.meta.changes ?? 0;
}
