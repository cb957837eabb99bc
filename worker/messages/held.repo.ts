/**
 * A write's own take of its property's due messages, held for their attempt in the same statement:
 * the lease an attempt would take (free, and no earlier message to the same recipient still
 * untried), and what writing each message needs, answered by the write's batch. The request that
 * wrote them then starts at the send, one round trip sooner than taking the lease on its own.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { messages } from "../db/shard.schema";
import type { Db } from "../env";
import type { TakeDue } from "../outbox/senders";
import { type ClaimedMessage, type ContextParts, contextOf, type Lease } from "./messages.repo";

const m = messages;

/**
 * Marks up to `o.limit` of the property's due messages as queued now and leased until
 * `leaseUntil`, each only if an attempt could lease it now; answers them with their context.
 * A due message it cannot hold stays as it is: the one before it calls it once closed, and a
 * lease that runs out leaves it to the sweeper.
 */
export function takeHeld(db: Db, o: TakeDue, leaseUntil: string) {
  const due = db
    .select({ id: m.id })
    .from(m)
    .where(
      and(
        eq(m.state, "pending"),
        lte(m.nextAttemptAt, o.now),
        or(isNull(m.queuedAt), lt(m.queuedAt, o.graceBefore)),
        or(isNull(m.leaseUntil), lt(m.leaseUntil, o.now)),
        o.propertyId === undefined ? undefined : eq(m.propertyId, o.propertyId),
        sql`NOT EXISTS (SELECT 1 FROM messages p WHERE p.reservation_id = ${m.reservationId} AND p.recipient = ${m.recipient} AND p.id < ${m.id}
          AND p.state = 'pending' AND p.attempts = 0 AND p.next_attempt_at <= ${o.now})`,
      ),
    )
    .orderBy(asc(m.id))
    .limit(o.limit);
  return db.update(m).set({ queuedAt: o.now, leaseUntil }).where(inArray(m.id, due)).returning(HELD);
}

// Written out, not through drizzle's columns: each names the updated row as "messages" (the
// tables of its subquery have columns of the same names).
const HELD = {
  id: m.id,
  property_id: m.propertyId,
  attempts: m.attempts,
  message: sql<string>`json_object('id', messages.id, 'uid', messages.uid, 'property_id', messages.property_id, 'reservation_id', messages.reservation_id,
    'template', messages.template, 'recipient', messages.recipient, 'to_address', messages.to_address, 'locale', messages.locale,
    'sequence', messages.sequence, 'snapshot', messages.snapshot, 'state', messages.state, 'attempts', messages.attempts,
    'next_attempt_at', messages.next_attempt_at, 'created_at', messages.created_at,
    'raw', (SELECT b.raw FROM message_bodies b WHERE b.message_id = messages.id))`.as("message"),
  property: sql<string | null>`(SELECT json_object('id', p.id, 'public_key', p.public_key, 'name', p.name, 'email', p.email, 'phone', p.phone,
    'website', p.website, 'position', p.position, 'settings', p.settings, 'deleted_at', p.deleted_at) FROM properties p WHERE p.id = messages.property_id)`.as("property"),
  reservation: sql<string | null>`(SELECT json_object('id', r.id, 'status', r.status, 'start_date', r.start_date, 'start_hour', r.start_hour,
    'manage_nonce', r.manage_nonce, 'manage_token_hash', r.manage_token_hash, 'special_request', r.special_request, 'occasion', r.occasion,
    'allergies', r.allergies, 'tables', (SELECT group_concat(t.name, ', ') FROM json_each(r.table_ids) j JOIN dining_tables t ON t.id = j.value))
    FROM reservations r WHERE r.id = messages.reservation_id)`.as("reservation"),
  service_name: sql<string | null>`(SELECT s.name FROM services s WHERE s.id = json_extract(messages.snapshot, '$.service_id'))`.as("service_name"),
  offer: sql<string | null>`(SELECT json_object('nonce', o.nonce, 'token_hash', o.token_hash, 'state', o.state) FROM waitlist_offers o
    WHERE o.reservation_id = messages.reservation_id AND o.nonce = json_extract(messages.snapshot, '$.offer.nonce'))`.as("offer"),
};

type HeldRow = ClaimedMessage & { message: string; property: string | null; reservation: string | null; service_name: string | null; offer: string | null };

const parsed = <T>(json: string | null): T | undefined => (json === null ? undefined : (JSON.parse(json) as T));

/** What takeHeld answered, as the leases an attempt takes, oldest first. */
export function heldLeases(answered: unknown): Lease[] {
  return [...(answered as HeldRow[])]
    .sort((a, b) => a.id - b.id)
    .map((row) => ({
      id: row.id,
      claimed: { id: row.id, property_id: row.property_id, attempts: row.attempts },
      context: contextOf({
        message: parsed(row.message),
        property: parsed(row.property),
        reservation: parsed<ContextParts["reservation"]>(row.reservation),
        serviceName: row.service_name,
        offer: parsed<ContextParts["offer"]>(row.offer),
      }),
    }));
}
