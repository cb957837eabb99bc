/**
 * A property's customers in its shard: search, counts from their reservations, updates, merges
 * and erasure. A merge and an erasure are each one batch, so no reservation is left pointing at a
 * customer merged away, and no copy of erased personal data survives in the reservations, their
 * history, their webhook outbox or what the erasure's caller adds (their emails).
 */

import { and, asc, eq, gt, inArray, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import {
  customers,
  reservationHistory,
  reservations,
  webhookEventBodies,
  webhookEvents,
} from "../db/shard.schema";
import type { Db } from "../env";
import { abortReason } from "../errors";
import type { Statement } from "../lib/d1";
import { nowIso } from "../lib/time";
import { inChunks } from "../properties/catalog.repo";
import { GUEST_WRITTEN_OUT, phoneMatches } from "../reservations/guest.repo";
import { nextSeq } from "../reservations/history.repo";
import { VISIT } from "../reservations/reservations.repo";

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerFields = Partial<
  Omit<typeof customers.$inferInsert, "id" | "propertyId" | "createdAt" | "erasedAt">
>;

export interface CustomerCounts {
  visits: number;
  no_shows: number;
  cancellations: number;
  covers: number;
  last_visit: string | null;
}

export const NO_COUNTS: CustomerCounts = {
  visits: 0,
  no_shows: 0,
  cancellations: 0,
  covers: 0,
  last_visit: null,
};

/** Case-insensitive for ASCII on both sides (SQLite's lower), and no LIKE: no pattern length limit, no wildcards to escape. */
function matches(search: string): SQL {
  const hit = (column: SQL) => sql`instr(lower(${column}), lower(${search})) > 0`;
  return sql`(${hit(sql`coalesce(${customers.firstName}, '') || ' ' || coalesce(${customers.lastName}, '')`)}
    OR ${hit(sql`coalesce(${customers.lastName}, '') || ' ' || coalesce(${customers.firstName}, '')`)}
    OR ${hit(sql`coalesce(${customers.email}, '')`)}
    OR ${phoneMatches(sql`${customers.phone}`, search) ?? sql`instr(coalesce(${customers.phone}, ''), ${search}) > 0`})`;
}

/** A page of the property's customers by id, optionally those whose name, email or phone contains `search`. */
export async function listCustomers(
  db: Db,
  propertyId: number,
  limit: number,
  afterId = 0,
  search?: string,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(
      and(
        eq(customers.propertyId, propertyId),
        gt(customers.id, afterId),
        search ? matches(search) : undefined,
      ),
    )
    .orderBy(asc(customers.id))
    .limit(limit + 1);
}

export async function getCustomer(db: Db, propertyId: number, id: number): Promise<CustomerRow | undefined> {
  return (
    await db
      .select()
      .from(customers)
      .where(and(eq(customers.id, id), eq(customers.propertyId, propertyId)))
      .limit(1)
  )[0];
}

/** The property's customer with this email, if any (emails are unique per property). */
export async function customerByEmail(
  db: Db,
  propertyId: number,
  email: string,
): Promise<CustomerRow | undefined> {
  return (
    await db
      .select()
      .from(customers)
      .where(and(eq(customers.propertyId, propertyId), eq(customers.email, email)))
      .limit(1)
  )[0];
}

/** Visits, no-shows, cancellations, covers and last visit of each customer, from their reservations. */
export async function customerCounts(db: Db, ids: number[]): Promise<Map<number, CustomerCounts>> {
  const rows = await inChunks(ids, (chunk) =>
    db
      .select({
        id: sql<number>`${reservations.customerId}`,
        visits: sql<number>`sum(CASE WHEN ${VISIT} THEN 1 ELSE 0 END)`,
        no_shows: sql<number>`sum(CASE WHEN ${reservations.status} = 'EXPIRED' AND ${reservations.statusReason} = 'no_show' THEN 1 ELSE 0 END)`,
        cancellations: sql<number>`sum(CASE WHEN ${reservations.status} = 'CANCELLED' THEN 1 ELSE 0 END)`,
        covers: sql<number>`sum(CASE WHEN ${VISIT} THEN ${reservations.pax} ELSE 0 END)`,
        last_visit: sql<string | null>`max(CASE WHEN ${VISIT} THEN ${reservations.startDate} END)`,
      })
      .from(reservations)
      .where(inArray(reservations.customerId, chunk))
      .groupBy(reservations.customerId),
  );
  return new Map(rows.map(({ id, ...counts }) => [id, counts]));
}

/**
 * A history entry for each reservation of a customer, in the batch that changes them all (so a
 * reservation booked meanwhile is not missed). drizzle's insert-from-select takes every column of
 * reservation_history in order: reservation_id, seq (the next), at, actor, action, from_status, to_status, changes.
 */
function historyOf(db: Db, customerId: number, actor: string, action: string, changes: string) {
  return db
    .insert(reservationHistory)
    .select(
      sql`SELECT id, ${nextSeq(sql`reservations.id`)}, ${Date.parse(nowIso())}, ${actor}, ${action}, NULL, NULL, ${changes} FROM reservations WHERE customer_id = ${customerId}`,
    );
}

/** Undefined when the customer is gone (merged away meanwhile). */
export async function updateCustomer(
  db: Db,
  id: number,
  fields: CustomerFields,
): Promise<CustomerRow | undefined> {
  if (!Object.keys(fields).length)
    return (await db.select().from(customers).where(eq(customers.id, id)).limit(1))[0];
  return (await db.update(customers).set(fields).where(eq(customers.id, id)).returning())[0];
}

/**
 * Moves every reservation of `source` to `into` (each with a history entry and, through the
 * outbox trigger, its RESERVATION_UPDATED event), removes `source` and gives `into` what the
 * merge adds, in one batch. A reservation changed meanwhile keeps its optimistic lock: its
 * version moves on, so a write based on the old one is refused and decided again. Undefined when
 * either customer went meanwhile (erased or merged away): nothing is written then.
 */
export async function mergeCustomers(
  db: Db,
  source: CustomerRow,
  into: CustomerRow,
  fields: CustomerFields,
  actor: string,
): Promise<CustomerRow | undefined> {
  const changes = JSON.stringify({ customer_id: [source.id, into.id] });
  const batch = db.batch([
    historyOf(db, source.id, actor, "customer_merged", changes),
    db
      .update(reservations)
      // a guest who leaned on the source's record keeps its details, not those of `into`
      .set({
        customerId: into.id,
        guest: GUEST_WRITTEN_OUT,
        changedBy: actor,
        version: sql`${reservations.version} + 1`,
      })
      // not once the source is erased: its reservations stay, and its delete below then fails
      .where(
        and(
          eq(reservations.customerId, source.id),
          sql`(SELECT erased_at FROM customers WHERE id = ${source.id}) IS NULL`,
        ),
      ),
    // first, so that its email is free for `into`
    db.delete(customers).where(eq(customers.id, source.id)),
    db.update(customers).set(fields).where(eq(customers.id, into.id)).returning(),
  ]);
  const results = await batch.catch((err: unknown) => {
    if (abortReason(err, ["FOREIGN KEY constraint failed"] as const)) return undefined;
    throw err;
  });
  return results?.[3][0];
}

// What of a reservation is personal: its guest, the customer's details it copied, and the words
// of the guest and the staff about them; in the outbox's snapshots under the row's own names.
const PERSONAL_HISTORY = ["$.customer", "$.notes", "$.special_request", "$.allergies"]
  .map((p) => `'${p}'`)
  .join(", ");
const PERSONAL_SNAPSHOT = ["$.customerSnapshot", "$.guest", "$.notes", "$.specialRequest", "$.allergies"]
  .map((p) => `'${p}'`)
  .join(", ");

/** What the reservations of an erased customer keep of them: nothing personal. */
const ERASED_RESERVATION = {
  guest: null,
  customerSnapshot: null,
  notes: null,
  specialRequest: null,
  allergies: null,
};

/** What an erased customer record keeps: nothing personal. */
const ERASED_CUSTOMER = {
  firstName: null,
  lastName: null,
  email: null,
  phone: null,
  locale: null,
  tags: [],
  allergies: null,
  notes: null,
  marketingConsent: false,
  banned: false,
};

/**
 * Erases a customer's personal data and keeps the reservations, anonymised: the customer row
 * keeps its id (the reservations' counts stay whole) without names, contacts, notes or consent;
 * each reservation loses its guest, notes, special request and allergies (its
 * RESERVATION_UPDATED event says so), and their history and outbox snapshots lose them too.
 * Events not yet sent are rebuilt from the scrubbed snapshot: erasure wins over the
 * same-bytes-on-retry rule. `alsoScrub` adds, at the batch's end, the statements that scrub other
 * copies of the reservations' data (their emails), given the SQL that selects their ids.
 */
export async function eraseCustomer(
  db: Db,
  id: number,
  actor: string,
  alsoScrub: (reservationIds: SQLWrapper) => Statement[],
): Promise<void> {
  const at = nowIso();
  const theirs = db.select({ id: reservations.id }).from(reservations).where(eq(reservations.customerId, id));
  await db.batch([
    historyOf(db, id, actor, "customer_erased", "{}"),
    // The record is erased before the reservations, so their update shows the guest gone (its
    // event says so); one that leaned on the record has it written out first (no change, no event).
    db
      .update(reservations)
      .set({ guest: GUEST_WRITTEN_OUT, changedBy: actor })
      .where(and(eq(reservations.customerId, id), isNull(reservations.guest))),
    db
      .update(customers)
      .set({ ...ERASED_CUSTOMER, erasedAt: at })
      .where(eq(customers.id, id)),
    db
      .update(reservations)
      .set({ ...ERASED_RESERVATION, changedBy: actor, version: sql`${reservations.version} + 1` })
      .where(eq(reservations.customerId, id)),
    // after the update above, whose own events carried the data as it was
    db
      .update(webhookEventBodies)
      .set({
        snapshot: sql.raw(`json_remove(snapshot, ${PERSONAL_SNAPSHOT})`),
        previous: sql.raw(
          `CASE WHEN previous IS NULL THEN NULL ELSE json_remove(previous, ${PERSONAL_SNAPSHOT}) END`,
        ),
        payload: null,
      })
      .where(
        inArray(
          webhookEventBodies.eventId,
          db
            .select({ id: webhookEvents.id })
            .from(webhookEvents)
            .where(inArray(webhookEvents.reservationId, theirs)),
        ),
      ),
    db
      .update(reservationHistory)
      .set({ changes: sql.raw(`json_remove(changes, ${PERSONAL_HISTORY})`) })
      .where(inArray(reservationHistory.reservationId, theirs)),
    ...alsoScrub(theirs),
  ]);
}
