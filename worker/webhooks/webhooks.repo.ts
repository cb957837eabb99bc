/** Subscriptions, deliveries and attempts in D1. A client reads and writes only its own subscriptions. */
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import { properties, propertyGrants, webhookAttempts, webhookDeliveries, webhookEvents, webhookSubscriptions } from "../db/schema";
import type { Db } from "../env";
import { nowIso } from "../lib/time";
import { inChunks } from "../properties/catalog.repo";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

const s = webhookSubscriptions;
/** The client's live subscriptions on live properties it is still authorised for. */
const owned = (clientId: number) =>
  and(
    eq(s.clientId, clientId),
    isNull(s.deletedAt),
    sql`EXISTS (SELECT 1 FROM ${propertyGrants} g JOIN ${properties} p ON p.id = g.property_id WHERE g.client_id = ${clientId} AND g.property_id = ${s.propertyId} AND p.deleted_at IS NULL)`,
  );

export async function listSubscriptions(db: Db, clientId: number, limit: number, afterId = 0): Promise<SubscriptionRow[]> {
  return db.select().from(s).where(and(owned(clientId), gt(s.id, afterId))).orderBy(asc(s.id)).limit(limit + 1);
}

export async function findSubscription(db: Db, clientId: number, id: number): Promise<SubscriptionRow | undefined> {
  return (await db.select().from(s).where(and(owned(clientId), eq(s.id, id))).limit(1))[0];
}

export async function insertSubscription(db: Db, row: { clientId: number; propertyId: number; endpoint: string; webhookType: string; secret: string }): Promise<SubscriptionRow> {
  return (await db.insert(s).values(row).returning())[0]!;
}

export async function updateSubscription(db: Db, id: number, set: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
  return (await db.update(s).set({ ...set, updatedAt: nowIso() }).where(eq(s.id, id)).returning())[0]!;
}

const d = webhookDeliveries;

export async function listDeliveries(db: Db, subscriptionId: number, limit: number, beforeId: number | undefined, state: DeliveryRow["state"] | undefined) {
  const where = [eq(d.subscriptionId, subscriptionId)];
  if (beforeId !== undefined) where.push(lt(d.id, beforeId));
  if (state) where.push(eq(d.state, state));
  const rows = await db
    .select({ delivery: d, event: { uid: webhookEvents.uid, type: webhookEvents.type, reservationId: webhookEvents.reservationId, createdAt: webhookEvents.createdAt } })
    .from(d)
    .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
    .where(and(...where))
    .orderBy(desc(d.id))
    .limit(limit + 1);
  const ids = rows.slice(0, limit).map((r) => r.delivery.id);
  const attempts = await inChunks(ids, (chunk) => db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, chunk)).orderBy(asc(webhookAttempts.id)));
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return rows.map((r) => ({ ...r, attempts: byDelivery.get(r.delivery.id) ?? [] }));
}
export type DeliveryListItem = Awaited<ReturnType<typeof listDeliveries>>[number];

/** A failed delivery starts a new round of the retry schedule, with the same webhook-id and body. */
export async function replayDelivery(db: Db, subscriptionId: number, id: number): Promise<"replayed" | "not_found" | "not_failed"> {
  const [row] = await db.select({ state: d.state }).from(d).where(and(eq(d.id, id), eq(d.subscriptionId, subscriptionId))).limit(1);
  if (!row) return "not_found";
  const updated = await db
    .update(d)
    .set({ state: "pending", cycleAttempts: 0, nextAttemptAt: nowIso(), queuedAt: null, leaseUntil: null, lastError: null })
    .where(and(eq(d.id, id), eq(d.state, "failed")))
    .returning({ id: d.id });
  return updated.length ? "replayed" : "not_failed";
}
