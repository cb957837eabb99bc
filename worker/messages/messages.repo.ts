/**
 * The messages outbox in a property's shard: rows written with the change they tell of (as
 * statements for the change's own batch), then due, leased, sent and closed by the delivery.
 */
import { and, asc, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { messages } from "../db/shard.schema";
import type { Db } from "../env";
import { randomToken } from "../lib/crypto";
import { takeDueFrom } from "../outbox/outbox.repo";
import type { TakeDue } from "../outbox/senders";
import type { InviteSnapshot, Locale, PlannedMessage, ResetSnapshot } from "./types";

export type MessageRow = typeof messages.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The inserts of planned messages, for the batch of their change. `reservationId` is the changed
 * reservation's id (or, for a reservation inserted in the same batch, the SQL that reads it).
 */
export function insertMessages(
  db: Db,
  propertyId: number,
  reservationId: number | SQL,
  planned: PlannedMessage[],
) {
  return planned.map((m) =>
    db.insert(messages).values({
      uid: `msg_${randomToken("", 18)}`,
      propertyId,
      reservationId: (m.reservationId ?? reservationId) as number,
      template: m.template,
      recipient: m.recipient,
      toAddress: m.to,
      locale: m.locale,
      sequence: m.sequence,
      snapshot: JSON.stringify(m.snapshot),
      nextAttemptAt: iso(m.dueAt),
    }),
  );
}

/** A message about the restaurant's console accounts (a password reset, a staff invitation): no reservation. */
export async function insertAccountMessage(
  db: Db,
  m: {
    propertyId: number;
    template: "password_reset" | "staff_invite";
    to: string;
    locale: Locale;
    snapshot: ResetSnapshot | InviteSnapshot;
    dueAt: number;
  },
): Promise<void> {
  await db.insert(messages).values({
    uid: `msg_${randomToken("", 18)}`,
    propertyId: m.propertyId,
    reservationId: null,
    template: m.template,
    recipient: "restaurant",
    toAddress: m.to,
    locale: m.locale,
    snapshot: JSON.stringify(m.snapshot),
    nextAttemptAt: iso(m.dueAt),
  });
}

/**
 * One planned message, inserted only if the statement before it in the batch changed exactly one
 * row (SQLite's changes()): a message that exists only if its offer was made.
 */
export function insertMessageIfChanged(
  d1: D1Database | D1DatabaseSession,
  propertyId: number,
  m: PlannedMessage,
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO messages (uid, property_id, reservation_id, template, recipient, to_address, locale, sequence, snapshot, next_attempt_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 WHERE changes() = 1`,
    )
    .bind(
      `msg_${randomToken("", 18)}`,
      propertyId,
      m.reservationId ?? null,
      m.template,
      m.recipient,
      m.to,
      m.locale,
      m.sequence,
      JSON.stringify(m.snapshot),
      iso(m.dueAt),
    );
}

/** The reservation's reminder still to come goes (the reservation moved, or stopped holding). */
export function dropReminder(db: Db, reservationId: number) {
  return db
    .update(messages)
    .set({ state: "cancelled", lastError: "the reservation changed: this reminder is no longer due" })
    .where(
      and(
        eq(messages.reservationId, reservationId),
        eq(messages.template, "reminder"),
        eq(messages.state, "pending"),
      ),
    );
}

/**
 * A guest's erasure (customers/customers.repo.ts, in its batch): the messages of their reservations
 * lose the guest's address, the guest and notes of their snapshot and the MIME (a message no longer
 * pending keeps none: messages_body_done); those not sent yet are not sent at all (a lease already
 * taken may still send its copy).
 */
export function eraseMessages(db: Db, reservationIds: SQLWrapper) {
  return [
    db
      .update(messages)
      .set({ state: "cancelled", lastError: "the guest's personal data was erased" })
      .where(and(inArray(messages.reservationId, reservationIds), eq(messages.state, "pending"))),
    db
      .update(messages)
      .set({
        toAddress: sql`CASE WHEN ${messages.recipient} = 'guest' THEN '' ELSE ${messages.toAddress} END`,
        snapshot: sql`json_remove(${messages.snapshot}, '$.guest', '$.notes')`,
      })
      .where(inArray(messages.reservationId, reservationIds)),
  ];
}

export async function listMessages(db: Db, reservationId: number): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(eq(messages.reservationId, reservationId))
    .orderBy(asc(messages.id));
}

// ---------- delivery ----------

/**
 * The statement that marks up to `limit` due messages as queued now and answers them; those a
 * queue message is on its way for are skipped. `propertyId`: only that property's.
 */
export const takeDue = (db: Db, o: TakeDue) => takeDueFrom(db, messages, o, o.now);

export async function markQueued(d1: D1Database, id: number, at: string): Promise<void> {
  await d1.prepare("UPDATE messages SET queued_at = ?2 WHERE id = ?1").bind(id, at).run();
}

export interface MessageFinish {
  state: "pending" | "sent" | "failed" | "cancelled";
  error?: string | null | undefined;
  /** pending: when to try again */
  nextAttemptAt?: string | undefined;
  tried: boolean;
  /**
   * pending: the MIME this attempt sent, kept for the retries (the first one kept wins). A message
   * sent at its first attempt never writes it.
   */
  raw?: string | undefined;
}

/**
 * Closes attempts, all in one round trip. The MIME stays only while a retry may need the very
 * same bytes (pending): once sent, failed or cancelled the trigger messages_body_done deletes it
 * (about 5 KB). A message cancelled while its attempt ran (its guest's data erased, its reminder
 * no longer due) stays cancelled, unless the attempt did send it. Answers, from the same round
 * trip, the messages that waited for these (nextInLine).
 */
export async function finishMessages(
  d1: D1Database,
  finished: { id: number; finish: MessageFinish }[],
  at: string,
): Promise<number[]> {
  const groups = finished.map(({ id, finish }) => [...closing(d1, id, finish, at), nextInLine(d1, id, at)]);
  const answered = await d1.batch(groups.flat());
  const next = new Set<number>();
  let end = 0;
  for (const group of groups) {
    end += group.length;
    const waiting = answered[end - 1]!.results[0] as { id: number } | undefined;
    if (waiting) next.add(waiting.id);
  }
  return [...next];
}

/** The statements that close one attempt: the MIME kept (a retry to come), then the row. */
function closing(d1: D1Database, id: number, o: MessageFinish, at: string): D1PreparedStatement[] {
  const close = d1
    .prepare(
      `UPDATE messages SET state = ?2, attempts = attempts + ?3, last_error = ?4, lease_until = NULL,
         sent_at = CASE WHEN ?2 = 'sent' THEN ?5 ELSE sent_at END,
         next_attempt_at = coalesce(?6, next_attempt_at), queued_at = coalesce(?6, queued_at)
       WHERE id = ?1 AND (state = 'pending' OR ?2 = 'sent')`,
    )
    .bind(id, o.state, o.tried ? 1 : 0, o.error ?? null, at, o.nextAttemptAt ?? null);
  if (o.raw === undefined || o.state !== "pending") return [close];
  // Kept before the close: a message cancelled meanwhile (an erasure of the guest's data) keeps none.
  const keep = d1
    .prepare(
      `INSERT INTO message_bodies (message_id, raw) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM messages WHERE id = ?1 AND state = 'pending')
       ON CONFLICT (message_id) DO NOTHING`,
    )
    .bind(id, o.raw);
  return [keep, close];
}

/**
 * The message that waited for this one: the next of the same reservation to the same recipient,
 * due, untried and free (leaseStatement holds it back while this one is untried).
 */
const nextInLine = (d1: D1Database, id: number, now: string) =>
  d1
    .prepare(
      `SELECT n.id FROM messages m JOIN messages n ON n.reservation_id = m.reservation_id AND n.recipient = m.recipient AND n.id > m.id
       WHERE m.id = ?1 AND n.state = 'pending' AND n.attempts = 0 AND n.next_attempt_at <= ?2 AND (n.lease_until IS NULL OR n.lease_until < ?2)
       ORDER BY n.id LIMIT 1`,
    )
    .bind(id, now);

/** Drops sent, failed and cancelled messages written before `before`, at most `limit` a call. */
export async function purgeMessages(d1: D1Database, before: string, limit: number): Promise<number> {
  const r = await d1
    .prepare(
      "DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE state <> 'pending' AND created_at < ?1 ORDER BY id LIMIT ?2)",
    )
    .bind(before, limit)
    .run();
  return r.meta.changes ?? 0;
}
