/**
 * A message held for its attempt: the lease an attempt takes, or a write's own take of its
 * property's due messages, which holds them in the same statement. Either answers each message
 * held with what writing it needs, so a write's request starts at the send, one round trip
 * sooner than taking the lease on its own.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { messages } from "../db/shard.schema";
import type { Db } from "../env";
import { batch } from "../lib/d1";
import type { TakeDue } from "../outbox/senders";

const m = messages;

export interface ClaimedMessage {
  id: number;
  property_id: number;
  attempts: number;
}

/** A message's row as its attempt finds it, whether it got the lease or not. */
export interface MessageState {
  state: string;
  next_attempt_at: string;
  lease_until: string | null;
  property_id: number;
}

/** One message's lease: taken (with what writing it needs), or not, with the row as it is. */
export type Lease =
  | { id: number; claimed: ClaimedMessage; context: SendContext }
  | { id: number; claimed: undefined; state: MessageState | undefined };

/**
 * Whether an attempt may hold a message now: due, nobody holds it, and no earlier message of its
 * reservation to the same recipient is due and untried (a guest reads the confirmation before
 * the cancellation; that one's attempt sends this one after it).
 */
const leasable = (now: string) =>
  and(
    eq(m.state, "pending"),
    lte(m.nextAttemptAt, now),
    or(isNull(m.leaseUntil), lt(m.leaseUntil, now)),
    sql`NOT EXISTS (SELECT 1 FROM messages p WHERE p.reservation_id = ${m.reservationId} AND p.recipient = ${m.recipient} AND p.id < ${m.id}
      AND p.state = 'pending' AND p.attempts = 0 AND p.next_attempt_at <= ${now})`,
  );

/**
 * Leases messages `ids` until `leaseUntil`, each if it is leasable. One round trip for all: each
 * lease comes with what writing its message needs, and one not taken with the row, which says why.
 */
export async function leaseMessages(
  db: Db,
  ids: number[],
  now: string,
  leaseUntil: string,
): Promise<Lease[]> {
  const statements = ids.flatMap((id) => [
    db
      .update(m)
      .set({ leaseUntil })
      .where(and(eq(m.id, id), leasable(now)))
      .returning(HELD),
    db
      .select({
        state: m.state,
        next_attempt_at: m.nextAttemptAt,
        lease_until: m.leaseUntil,
        property_id: m.propertyId,
      })
      .from(m)
      .where(eq(m.id, id)),
  ]);
  const answered = await batch(db, statements);
  return ids.map(
    (id, i) =>
      heldLeases(answered[2 * i])[0] ?? {
        id,
        claimed: undefined,
        state: (answered[2 * i + 1] as MessageState[])[0],
      },
  );
}

/**
 * A write's take: marks up to `o.limit` of the property's due messages as queued now and leased
 * until `leaseUntil`, each only if it is leasable; answers them with their context. A due message
 * it cannot hold stays as it is: the one before it calls it once closed, the attempt holding it
 * closes it, and a lease that runs out leaves it to the sweeper.
 */
export function takeHeld(db: Db, o: TakeDue, leaseUntil: string) {
  const due = db
    .select({ id: m.id })
    .from(m)
    .where(
      and(
        leasable(o.now),
        or(isNull(m.queuedAt), lt(m.queuedAt, o.graceBefore)),
        o.propertyId === undefined ? undefined : eq(m.propertyId, o.propertyId),
      ),
    )
    .orderBy(asc(m.id))
    .limit(o.limit);
  return db.update(m).set({ queuedAt: o.now, leaseUntil }).where(inArray(m.id, due)).returning(HELD);
}

// Written out, not through drizzle's columns: each names the updated row as "messages" (the
// tables of its subqueries have columns of the same names).
const HELD = {
  id: m.id,
  property_id: m.propertyId,
  attempts: m.attempts,
  message:
    sql<string>`json_object('id', messages.id, 'uid', messages.uid, 'property_id', messages.property_id, 'reservation_id', messages.reservation_id,
    'template', messages.template, 'recipient', messages.recipient, 'to_address', messages.to_address, 'locale', messages.locale,
    'sequence', messages.sequence, 'snapshot', messages.snapshot, 'created_at', messages.created_at,
    'raw', (SELECT b.raw FROM message_bodies b WHERE b.message_id = messages.id))`.as("message"),
  property: sql<
    string | null
  >`(SELECT json_object('id', p.id, 'public_key', p.public_key, 'name', p.name, 'email', p.email, 'phone', p.phone,
    'website', p.website, 'position', p.position, 'settings', p.settings, 'deleted_at', p.deleted_at) FROM properties p WHERE p.id = messages.property_id)`.as(
    "property",
  ),
  reservation: sql<
    string | null
  >`(SELECT json_object('id', r.id, 'status', r.status, 'start_date', r.start_date, 'start_hour', r.start_hour,
    'manage_nonce', r.manage_nonce, 'manage_token_hash', r.manage_token_hash, 'special_request', r.special_request, 'occasion', r.occasion,
    'allergies', r.allergies, 'tables', (SELECT group_concat(t.name, ', ') FROM json_each(r.table_ids) j JOIN dining_tables t ON t.id = j.value))
    FROM reservations r WHERE r.id = messages.reservation_id)`.as("reservation"),
  service_name: sql<
    string | null
  >`(SELECT s.name FROM services s WHERE s.id = json_extract(messages.snapshot, '$.service_id'))`.as(
    "service_name",
  ),
  offer: sql<
    string | null
  >`(SELECT json_object('nonce', o.nonce, 'token_hash', o.token_hash, 'state', o.state) FROM waitlist_offers o
    WHERE o.reservation_id = messages.reservation_id AND o.nonce = json_extract(messages.snapshot, '$.offer.nonce'))`.as(
    "offer",
  ),
};

type HeldRow = ClaimedMessage & {
  message: string;
  property: string | null;
  reservation: string | null;
  service_name: string | null;
  offer: string | null;
};

interface SentReservation {
  id: number;
  status: string;
  start_date: string;
  start_hour: string;
  manage_nonce: string | null;
  manage_token_hash: string | null;
  special_request: string | null;
  occasion: string | null;
  allergies: string | null;
  /** the tables given, by name */
  tables: string | null;
}

const parsed = <T>(json: string | null): T | undefined =>
  json === null ? undefined : (JSON.parse(json) as T);

/** What a lease or takeHeld answered, as the leases an attempt takes, oldest first. */
export function heldLeases(answered: unknown): Lease[] {
  return [...(answered as HeldRow[])]
    .sort((a, b) => a.id - b.id)
    .map((row) => ({
      id: row.id,
      claimed: { id: row.id, property_id: row.property_id, attempts: row.attempts },
      context: contextOf(row),
    }));
}

function contextOf(row: HeldRow) {
  const r = parsed<SentReservation>(row.reservation);
  return {
    message: parsed<Record<string, unknown>>(row.message),
    property: parsed<Record<string, unknown>>(row.property),
    reservation: r,
    /** what the guest told the restaurant and the tables given, as they are now (the restaurant's notice goes at once) */
    request: r && {
      specialRequest: r.special_request,
      occasion: r.occasion,
      allergies: r.allergies,
      tables: r.tables,
    },
    serviceName: row.service_name,
    offer: parsed<{ nonce: string; token_hash: string; state: string }>(row.offer),
  };
}

/** What writing a message needs, as its lease reads it. */
export type SendContext = ReturnType<typeof contextOf>;
