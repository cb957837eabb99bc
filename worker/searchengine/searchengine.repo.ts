/**
 * The search engine's SQL, in one shard: its merchants (properties with the switch on), its
 * bookings (reservations it made, by id, token or user), and the switch with its reserved
 * notification subscription.
 */
import { and, asc, eq, isNotNull, isNull, ne, notInArray, sql } from "drizzle-orm";
import type { ReservationStatus } from "../../shared/schemas";
import { properties, reservationHistory, reservations, webhookSubscriptions } from "../db/shard.schema";
import type { Db, PropertyRow } from "../env";
import { nowIso } from "../lib/clock";
import { reservationFields } from "../reservations/guest.repo";
import type { ReservationRow } from "../reservations/reservations.repo";

/** The webhook type of the reserved subscription whose deliveries go to the notification API. */
export const SEARCHENGINE_EVENT = "SEARCHENGINE_BOOKING";
const FINAL_SQL: ReservationStatus[] = ["CANCELLED", "EXPIRED", "REJECTED"];

/**
 * Turns the switch on or off, in one batch. On: the reserved subscription exists (made once,
 * enabled again if a 410 had disabled it). Off: it stays, so a booking the search engine already
 * made is still reported when the restaurant moves or cancels it.
 */
export async function setSwitch(db: Db, propertyId: number, enabled: boolean): Promise<void> {
  const at = nowIso();
  const flip = db
    .update(properties)
    .set({ searchengineEnabled: enabled, updatedAt: at })
    .where(eq(properties.id, propertyId));
  if (!enabled) {
    await flip;
    return;
  }
  const s = webhookSubscriptions;
  const live = and(eq(s.propertyId, propertyId), eq(s.webhookType, SEARCHENGINE_EVENT), isNull(s.deletedAt));
  await db.batch([
    flip,
    // At most one live per property (a partial unique index): a second switch-on adds nothing.
    db
      .insert(s)
      .values({
        clientId: 0,
        propertyId,
        endpoint: "searchengine:notification",
        webhookType: SEARCHENGINE_EVENT,
        secret: "",
      })
      .onConflictDoNothing(),
    db
      .update(s)
      .set({ disabledAt: null, disabledReason: null, updatedAt: at })
      .where(and(live, isNotNull(s.disabledAt))),
  ]);
}

/** The property's booking made with this CreateBooking idempotency token, if any. */
export async function bookingByToken(
  db: Db,
  propertyId: number,
  token: string,
): Promise<ReservationRow | undefined> {
  return (
    await db
      .select(reservationFields)
      .from(reservations)
      .where(and(eq(reservations.propertyId, propertyId), eq(reservations.searchengineToken, token)))
      .limit(1)
  )[0];
}

/** Whether the user already holds a live booking of this service at this start (SLOT_ALREADY_BOOKED_BY_USER). */
export async function userBooked(
  db: Db,
  propertyId: number,
  userId: string,
  serviceId: number,
  startMin: number,
): Promise<boolean> {
  const r = reservations;
  const rows = await db
    .select({ id: r.id })
    .from(r)
    .where(
      and(
        eq(r.searchengineUserId, userId),
        eq(r.propertyId, propertyId),
        eq(r.serviceId, serviceId),
        eq(r.startMin, startMin),
        notInArray(r.status, FINAL_SQL),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** A reservation with what its property says about it: the merchant id and the zone's settings. */
export type BookingRow = ReservationRow & { merchantId: string; settings: unknown };

const withProperty = {
  row: reservationFields,
  merchantId: properties.publicKey,
  settings: properties.settings,
};
const flatten = (rows: { row: ReservationRow; merchantId: string; settings: unknown }[]): BookingRow[] =>
  rows.map((x) => ({ ...x.row, merchantId: x.merchantId, settings: x.settings }));

/** The search-engine booking `id` in this shard (reservations the search engine did not make are not its). */
export async function bookingById(db: Db, id: number): Promise<BookingRow | undefined> {
  const rows = await db
    .select(withProperty)
    .from(reservations)
    .innerJoin(properties, eq(properties.id, reservations.propertyId))
    .where(and(eq(reservations.id, id), isNotNull(reservations.searchengineUserId)))
    .limit(1);
  return flatten(rows)[0];
}

/** Every booking of a search-engine user in this shard, oldest first (ListBookings has no pages: capped). */
export async function bookingsOfUser(db: Db, userId: string, limit = 1000): Promise<BookingRow[]> {
  const rows = await db
    .select(withProperty)
    .from(reservations)
    .innerJoin(properties, eq(properties.id, reservations.propertyId))
    .where(eq(reservations.searchengineUserId, userId))
    .orderBy(asc(reservations.id))
    .limit(limit);
  return flatten(rows);
}

/** The user of each booking as the search engine gave it, kept by the "created" history entry. */
export async function typedUsers(db: Db, ids: number[]): Promise<Map<number, Record<string, string | null>>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: reservationHistory.reservationId, changes: reservationHistory.changes })
    .from(reservationHistory)
    .where(
      and(
        sql`${reservationHistory.reservationId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        eq(reservationHistory.action, "created"),
      ),
    );
  const out = new Map<number, Record<string, string | null>>();
  for (const r of rows) {
    const after = r.changes?.customer?.[1];
    if (after && typeof after === "object") out.set(r.id, after as Record<string, string | null>);
  }
  return out;
}

/** Which of these EXPIRED bookings expired unpaid (the cron's expiry), not as a no-show. */
export async function expiredUnpaid(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: reservationHistory.reservationId })
    .from(reservationHistory)
    .where(
      and(
        sql`${reservationHistory.reservationId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        eq(reservationHistory.action, "expired_unpaid"),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** Properties of this shard with the switch on (all, or the one of public key `only`), not sandboxes, not deleted, not a move's incoming copy. */
export async function merchantRows(db: Db, only?: string): Promise<PropertyRow[]> {
  const p = properties;
  return db
    .select()
    .from(p)
    .where(
      and(
        eq(p.searchengineEnabled, true),
        eq(p.sandbox, false),
        isNull(p.deletedAt),
        ne(p.shardState, "arriving"),
        only === undefined ? undefined : eq(p.publicKey, only),
      ),
    )
    .orderBy(asc(p.id));
}
