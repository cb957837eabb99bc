/**
 * Subscriptions, events, deliveries and attempts in a property's shard. A client reads and
 * writes only its own subscriptions, on properties the directory still grants it (passed in as
 * `propertyIds`: grants live in the control database).
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import {
  properties,
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../db/shard.schema";
import type { Db } from "../env";
import { nowIso } from "../lib/time";
import { takeDueFrom } from "../outbox/outbox.repo";
import type { TakeDue } from "../outbox/senders";
import { inChunks } from "../properties/catalog.repo";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type EventRow = typeof webhookEvents.$inferSelect;

const s = webhookSubscriptions;
/** The client's live subscriptions on these properties (one bound parameter, however many). */
const owned = (clientId: number, propertyIds: number[]) =>
  and(
    eq(s.clientId, clientId),
    isNull(s.deletedAt),
    sql`${s.propertyId} IN (SELECT value FROM json_each(${JSON.stringify(propertyIds)}))`,
  );

export async function listSubscriptions(
  db: Db,
  clientId: number,
  propertyIds: number[],
  limit: number,
  afterId = 0,
): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(s)
    .where(and(owned(clientId, propertyIds), gt(s.id, afterId)))
    .orderBy(asc(s.id))
    .limit(limit + 1);
}

export async function findSubscription(
  db: Db,
  clientId: number,
  propertyIds: number[],
  id: number,
): Promise<SubscriptionRow | undefined> {
  return (
    await db
      .select()
      .from(s)
      .where(and(owned(clientId, propertyIds), eq(s.id, id)))
      .limit(1)
  )[0];
}

/** A client's live subscriptions of one property to one endpoint: they share one signing secret. */
const sameEndpoint = (clientId: number, propertyId: number, endpoint: string) =>
  and(eq(s.clientId, clientId), eq(s.propertyId, propertyId), eq(s.endpoint, endpoint), isNull(s.deletedAt));

/** `column` of the oldest live subscription of the client and property to `endpoint` (NULL if none). */
const ofEndpoint = (
  column: "secret" | "previous_secret" | "previous_secret_expires_at",
  clientId: number,
  propertyId: number,
  endpoint: string,
) =>
  sql`(SELECT ${sql.raw(column)} FROM webhook_subscriptions WHERE client_id = ${clientId} AND property_id = ${propertyId} AND endpoint = ${endpoint} AND deleted_at IS NULL ORDER BY id LIMIT 1)`;

/**
 * A new subscription; at an endpoint the client already subscribed for this property, it takes
 * that endpoint's secret (and rotation window), in the same statement: `secret` is for a new endpoint.
 */
export async function insertSubscription(
  db: Db,
  row: { clientId: number; propertyId: number; endpoint: string; webhookType: string; secret: string },
): Promise<SubscriptionRow> {
  const { clientId, propertyId, endpoint } = row;
  const values = {
    ...row,
    secret: sql`coalesce(${ofEndpoint("secret", clientId, propertyId, endpoint)}, ${row.secret})`,
    previousSecret: ofEndpoint("previous_secret", clientId, propertyId, endpoint),
    previousSecretExpiresAt: ofEndpoint("previous_secret_expires_at", clientId, propertyId, endpoint),
  };
  return (await db.insert(s).values(values).returning())[0]!;
}

/** The secret (and rotation window) of the client's other live subscription at `endpoint`, if any. */
export async function endpointSecret(
  db: Db,
  clientId: number,
  propertyId: number,
  endpoint: string,
  exceptId: number,
) {
  const [other] = await db
    .select({
      secret: s.secret,
      previousSecret: s.previousSecret,
      previousSecretExpiresAt: s.previousSecretExpiresAt,
    })
    .from(s)
    .where(and(sameEndpoint(clientId, propertyId, endpoint), sql`${s.id} <> ${exceptId}`))
    .orderBy(asc(s.id))
    .limit(1);
  return other;
}

/**
 * A new secret for every live subscription of the client and property at `row`'s endpoint; the
 * one they shared signs alongside it until `previousExpiresAt` (none: it stops at once).
 */
export async function rotateEndpointSecret(
  db: Db,
  row: SubscriptionRow,
  secret: string,
  previousExpiresAt: string | null,
): Promise<SubscriptionRow> {
  await db
    .update(s)
    .set({
      secret,
      previousSecret: previousExpiresAt ? sql`${sql.raw('"secret"')}` : null,
      previousSecretExpiresAt: previousExpiresAt,
      updatedAt: nowIso(),
    })
    .where(sameEndpoint(row.clientId, row.propertyId, row.endpoint));
  return (await db.select().from(s).where(eq(s.id, row.id)).limit(1))[0]!;
}

export async function updateSubscription(
  db: Db,
  id: number,
  set: Partial<SubscriptionRow>,
): Promise<SubscriptionRow> {
  return (
    await db
      .update(s)
      .set({ ...set, updatedAt: nowIso() })
      .where(eq(s.id, id))
      .returning()
  )[0]!;
}

/** Ends a client's subscriptions on a property (a grant revoked); their pending deliveries fail. */
export async function deleteClientSubscriptions(
  d1: D1Database,
  clientId: number,
  propertyId: number,
  at: string,
): Promise<number> {
  const [, deleted] = await d1.batch([
    d1
      .prepare(
        `UPDATE webhook_deliveries SET state = 'failed', last_error = 'subscription deleted', lease_until = NULL
         WHERE state = 'pending' AND subscription_id IN (SELECT id FROM webhook_subscriptions WHERE client_id = ?1 AND property_id = ?2 AND deleted_at IS NULL)`,
      )
      .bind(clientId, propertyId),
    d1
      .prepare(
        "UPDATE webhook_subscriptions SET deleted_at = ?3, updated_at = ?3 WHERE client_id = ?1 AND property_id = ?2 AND deleted_at IS NULL",
      )
      .bind(clientId, propertyId, at),
  ]);
  return deleted!.meta.changes ?? 0;
}

const d = webhookDeliveries;

/** An event's webhook-id: 'msg_' and its id, unless it kept the random one of before (shard.schema.ts). */
const WEBHOOK_ID = (e: string) => `coalesce(nullif(${e}.uid, ''), 'msg_' || ${e}.id)`;

export async function listDeliveries(
  db: Db,
  subscriptionId: number,
  limit: number,
  beforeId: number | undefined,
  state: DeliveryRow["state"] | undefined,
) {
  const where = [eq(d.subscriptionId, subscriptionId)];
  if (beforeId !== undefined) where.push(lt(d.id, beforeId));
  if (state) where.push(eq(d.state, state));
  const rows = await db
    .select({
      delivery: d,
      event: {
        uid: sql<string>`${sql.raw(WEBHOOK_ID("webhook_events"))}`,
        type: webhookEvents.type,
        reservationId: webhookEvents.reservationId,
        createdAt: webhookEvents.createdAt,
      },
    })
    .from(d)
    .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
    .where(and(...where))
    .orderBy(desc(d.id))
    .limit(limit + 1);
  const ids = rows.slice(0, limit).map((r) => r.delivery.id);
  const attempts = await inChunks(ids, (chunk) =>
    db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, chunk))
      .orderBy(asc(webhookAttempts.id)),
  );
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return rows.map((r) => ({ ...r, attempts: byDelivery.get(r.delivery.id) ?? [] }));
}
export type DeliveryListItem = Awaited<ReturnType<typeof listDeliveries>>[number];

/** A failed delivery starts a new round of the retry schedule, with the same webhook-id and body. */
export async function replayDelivery(
  db: Db,
  subscriptionId: number,
  id: number,
): Promise<"replayed" | "not_found" | "not_failed"> {
  const [row] = await db
    .select({ state: d.state })
    .from(d)
    .where(and(eq(d.id, id), eq(d.subscriptionId, subscriptionId)))
    .limit(1);
  if (!row) return "not_found";
  const updated = await db
    .update(d)
    .set({
      state: "pending",
      cycleAttempts: 0,
      nextAttemptAt: nowIso(),
      queuedAt: null,
      leaseUntil: null,
      lastError: null,
    })
    .where(and(eq(d.id, id), eq(d.state, "failed")))
    .returning({ id: d.id });
  return updated.length ? "replayed" : "not_failed";
}

// ---------- delivery (webhooks/delivery.ts) ----------

/** What a consumer holds while it attempts a delivery. */
export interface ClaimedDelivery {
  id: number;
  event_id: number;
  subscription_id: number;
  property_id: number;
  attempts: number;
  cycle_attempts: number;
}

/**
 * The statement that marks up to `limit` due deliveries as queued now and answers them (with their
 * property, which the queue's message carries); `propertyId`: only that property's. Due: a first attempt at once (the schedule starts at 0),
 * whatever clock stamped it; a retry once its time came. Skips those a message is on its way for.
 */
export const takeDue = (db: Db, o: TakeDue) =>
  takeDueFrom(db, webhookDeliveries, o, sql`max(${o.now}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

/**
 * Leases those of deliveries `ids` that are due, that nobody else holds, and that have no earlier
 * delivery of the same reservation to the same endpoint (any of the property's subscriptions to
 * it: RESERVATION_CREATED before RESERVATION_UPDATED) still untried, until `leaseUntil`; answers
 * the leased ones, in one statement however many.
 */
export async function leaseDeliveries(
  d1: D1Database,
  ids: number[],
  now: string,
  leaseUntil: string,
): Promise<ClaimedDelivery[]> {
  const { results } = await d1
    .prepare(
      `UPDATE webhook_deliveries AS d SET lease_until = ?2
       WHERE d.id IN (SELECT value FROM json_each(?1)) AND d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < ?3)
         AND (d.next_attempt_at <= ?3 OR d.cycle_attempts = 0)
         AND NOT EXISTS (
           SELECT 1 FROM webhook_deliveries p
           WHERE p.subscription_id IN (
               SELECT s.id FROM webhook_subscriptions s, webhook_subscriptions mine
               WHERE mine.id = d.subscription_id AND s.property_id = mine.property_id AND s.endpoint = mine.endpoint)
             AND p.reservation_id = d.reservation_id AND p.id < d.id
             AND p.state = 'pending' AND p.cycle_attempts = 0)
       RETURNING id, event_id, subscription_id, property_id, attempts, cycle_attempts`,
    )
    .bind(JSON.stringify(ids), leaseUntil, now)
    .all<ClaimedDelivery>();
  return results.sort((a, b) => a.id - b.id);
}

/** Of deliveries `ids`, those still pending that no live lease holds (the others are done, or being tried elsewhere). */
export async function unheld(d1: D1Database, ids: number[], now: string): Promise<number[]> {
  const { results } = await d1
    .prepare(
      "SELECT id FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?1)) AND state = 'pending' AND (lease_until IS NULL OR lease_until < ?2)",
    )
    .bind(JSON.stringify(ids), now)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

export async function deliveryState(d1: D1Database, id: number) {
  return d1
    .prepare(
      "SELECT state, next_attempt_at, lease_until, cycle_attempts, property_id FROM webhook_deliveries WHERE id = ?",
    )
    .bind(id)
    .first<{
      state: string;
      next_attempt_at: string;
      lease_until: string | null;
      cycle_attempts: number;
      property_id: number;
    }>();
}

export async function markQueued(d1: D1Database, id: number, at: string): Promise<void> {
  await d1.prepare("UPDATE webhook_deliveries SET queued_at = ?2 WHERE id = ?1").bind(id, at).run();
}

export interface SendTarget {
  sub:
    | {
        endpoint: string;
        webhook_type: string;
        secret: string;
        previous_secret: string | null;
        previous_secret_expires_at: string | null;
        disabled_at: string | null;
        deleted_at: string | null;
      }
    | undefined;
  event: EventRow;
  sandbox: boolean;
}

type Subscription = NonNullable<SendTarget["sub"]> & { id: number; sandbox: number | null };

/**
 * The subscription, the event and whether the property is a sandbox of each claimed delivery, in
 * one round trip however many: by delivery id, its target or why it has none (an event without
 * its body, an invariant broken: the attempt counts as failed on our side, delivery.ts).
 */
export async function sendTargets(
  d1: D1Database,
  claimed: ClaimedDelivery[],
): Promise<Map<number, SendTarget | Error>> {
  const ids = (key: "subscription_id" | "event_id") =>
    JSON.stringify([...new Set(claimed.map((c) => c[key]))]);
  const [subs, events] = await d1.batch([
    d1
      .prepare(
        `SELECT s.id, s.endpoint, s.webhook_type, s.secret, s.previous_secret, s.previous_secret_expires_at, s.disabled_at, s.deleted_at, p.sandbox
         FROM webhook_subscriptions s LEFT JOIN properties p ON p.id = s.property_id WHERE s.id IN (SELECT value FROM json_each(?))`,
      )
      .bind(ids("subscription_id")),
    // the body from webhook_event_bodies (an event with an undelivered delivery always has one)
    d1
      .prepare(
        `SELECT e.id, ${WEBHOOK_ID("e")} AS uid, e.property_id AS propertyId, e.reservation_id AS reservationId, e.type, b.snapshot, b.previous, b.payload, e.actor, e.created_at AS createdAt
         FROM webhook_events e LEFT JOIN webhook_event_bodies b ON b.event_id = e.id WHERE e.id IN (SELECT value FROM json_each(?))`,
      )
      .bind(ids("event_id")),
  ]);
  const subById = new Map((subs!.results as Subscription[]).map((r) => [r.id, r]));
  const eventById = new Map((events!.results as EventRow[]).map((r) => [r.id, r]));
  const out = new Map<number, SendTarget | Error>();
  for (const c of claimed) {
    const event = eventById.get(c.event_id);
    if (!event?.snapshot) {
      out.set(c.id, new Error(`webhook event ${c.event_id} has no body`));
      continue;
    }
    const found = subById.get(c.subscription_id);
    const { id: _id, sandbox, ...sub } = found ?? { id: 0, sandbox: null };
    out.set(c.id, { sub: found ? (sub as SendTarget["sub"]) : undefined, event, sandbox: sandbox === 1 });
  }
  return out;
}

/** The settings of the event's property, for the time zone its body is written in (undefined: no such property). */
export async function propertySettings(db: Db, propertyId: number): Promise<unknown> {
  const [property] = await db
    .select({ settings: properties.settings })
    .from(properties)
    .where(eq(properties.id, propertyId))
    .limit(1);
  return property?.settings;
}

/**
 * The body fixed by the first attempt: whichever attempt wrote it first wins. Only while the
 * event still holds the snapshot the body was built from: a customer's erasure rewrites it, and
 * a body built from the old one must never be kept (undefined: build again).
 */
export async function fixPayload(
  d1: D1Database,
  eventId: number,
  built: string,
  from: string,
): Promise<string | undefined> {
  const row = await fixPayloadStatement(d1, eventId, built, from).first<{ payload: string }>();
  return row?.payload;
}

/** fixPayload as a statement, for a batch: its result's one row holds the kept body (none: build again). */
export function fixPayloadStatement(
  d1: D1Database,
  eventId: number,
  built: string,
  from: string,
): D1PreparedStatement {
  return d1
    .prepare(
      "UPDATE webhook_event_bodies SET payload = coalesce(payload, ?2) WHERE event_id = ?1 AND snapshot = ?3 RETURNING payload",
    )
    .bind(eventId, built, from);
}

export interface AttemptRecord {
  at: string;
  status: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
}

export function recordAttempt(d1: D1Database, deliveryId: number, a: AttemptRecord): D1PreparedStatement {
  return d1
    .prepare(
      "INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_ms, error, response_excerpt) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(deliveryId, a.at, a.status, a.latencyMs, a.error, a.excerpt);
}

/** The subscription is disabled, with everything else it had pending. */
export function disableSubscription(
  d1: D1Database,
  subscriptionId: number,
  exceptDelivery: number,
  at: string,
  reason: string,
): D1PreparedStatement[] {
  return [
    d1
      .prepare(
        "UPDATE webhook_subscriptions SET disabled_at = ?2, disabled_reason = ?3, updated_at = ?2 WHERE id = ?1 AND disabled_at IS NULL",
      )
      .bind(subscriptionId, at, reason),
    d1
      .prepare(
        "UPDATE webhook_deliveries SET state = 'failed', last_error = ?3 WHERE subscription_id = ?1 AND state = 'pending' AND id <> ?2",
      )
      .bind(subscriptionId, exceptDelivery, `subscription disabled (${reason})`),
  ];
}

/** How an attempt the receiver did not accept ends: retried later, or failed. */
export interface Finish {
  state: "pending" | "failed";
  status?: number | null;
  error?: string;
  nextAttemptAt?: string;
}

/**
 * The statements that close an attempt the receiver did not accept: the delivery's new state,
 * after `also` (its attempt record, a disabled subscription) in the same batch. Accepted attempts
 * close together in deliveredStatements.
 */
export function finishStatements(
  d1: D1Database,
  id: number,
  o: Finish,
  also: D1PreparedStatement[] = [],
): D1PreparedStatement[] {
  const tried = also.length > 0;
  return [
    ...also,
    d1
      .prepare(
        `UPDATE webhook_deliveries SET state = ?2, attempts = attempts + ?3, cycle_attempts = cycle_attempts + ?3,
           last_status = coalesce(?4, last_status), last_error = ?5, lease_until = NULL,
           next_attempt_at = coalesce(?6, next_attempt_at), queued_at = coalesce(?6, queued_at)
         WHERE id = ?1`,
      )
      .bind(id, o.state, tried ? 1 : 0, o.status ?? null, o.error ?? null, o.nextAttemptAt ?? null),
  ];
}

/** A delivery's attempt that the receiver accepted (2xx), for deliveredStatements. */
export interface Delivered {
  id: number;
  status: number;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
}

/**
 * Closes deliveries whose attempt was accepted, in three statements however many (each with one
 * JSON parameter): their attempt records, their new state (no longer queued), and the bodies of
 * events that have no undelivered delivery left (snapshot, previous, payload: about 2.3 KB; only
 * failed deliveries are replayed, so nothing sends them again). The events' records stay for the log.
 */
export function deliveredStatements(
  d1: D1Database,
  rows: Delivered[],
  attemptedAt: string,
  at: string,
): D1PreparedStatement[] {
  if (!rows.length) return [];
  const list = JSON.stringify(
    rows.map((r) => ({ id: r.id, s: r.status, l: r.latencyMs, e: r.error, x: r.excerpt })),
  );
  const ids = JSON.stringify(rows.map((r) => r.id));
  return [
    d1
      .prepare(
        `INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_ms, error, response_excerpt)
         SELECT value ->> '$.id', ?2, value ->> '$.s', value ->> '$.l', value ->> '$.e', value ->> '$.x' FROM json_each(?1) ORDER BY key`,
      )
      .bind(list, attemptedAt),
    d1
      .prepare(
        `UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, cycle_attempts = cycle_attempts + 1,
           last_status = (SELECT value ->> '$.s' FROM json_each(?1) WHERE value ->> '$.id' = webhook_deliveries.id),
           last_error = NULL, lease_until = NULL, delivered_at = ?2, queued_at = NULL
         WHERE id IN (SELECT value ->> '$.id' FROM json_each(?1))`,
      )
      .bind(list, at),
    d1
      .prepare(
        `DELETE FROM webhook_event_bodies
         WHERE event_id IN (SELECT event_id FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?1)))
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.event_id = webhook_event_bodies.event_id AND x.state <> 'delivered')`,
      )
      .bind(ids),
  ];
}

// ---------- retention ----------

/**
 * Drops what has done its work, oldest first, at most `limit` deliveries per call: deliveries
 * delivered or failed before `before`, their attempts, and events left without deliveries.
 */
export async function purgeDeliveries(d1: D1Database, before: string, limit: number): Promise<number> {
  // The same rows for every deletion: the batch runs alone. Events go first, found through the
  // deliveries being dropped (no index on events by time), so foreign keys wait for the batch's end.
  const done = `SELECT id FROM webhook_deliveries WHERE (state = 'delivered' AND delivered_at < ?1) OR (state = 'failed' AND created_at < ?1) ORDER BY id LIMIT ?2`;
  const [, , , purged] = await d1.batch([
    d1.prepare("PRAGMA defer_foreign_keys = on"),
    d1
      .prepare(
        `DELETE FROM webhook_events WHERE id IN (SELECT event_id FROM webhook_deliveries WHERE id IN (${done}))
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.event_id = webhook_events.id AND x.id NOT IN (${done}))`,
      )
      .bind(before, limit),
    d1.prepare(`DELETE FROM webhook_attempts WHERE delivery_id IN (${done})`).bind(before, limit),
    d1.prepare(`DELETE FROM webhook_deliveries WHERE id IN (${done})`).bind(before, limit),
  ]);
  return purged!.meta.changes ?? 0;
}
