/** The audit log's rows (db/shard.schema.ts auditLog): written, read a page at a time, dropped after 13 months. */
import { and, desc, eq, gte, like, lt, sql } from "drizzle-orm";
import { auditLog, properties, reservationHistory } from "../db/shard.schema";
import type { Db } from "../env";
import type { Statement } from "../lib/d1";

export type AuditRow = typeof auditLog.$inferSelect;

/** What a change records (the reservations' changes are recorded by a trigger from their history). */
export interface AuditEntry {
  propertyId: number;
  actor: string;
  action: string;
  subject: string;
  subjectId: number | null;
  fields?: string[] | undefined;
}

export function insertAudit(db: Db, entry: AuditEntry): Statement {
  return db.insert(auditLog).values({ ...entry, fields: entry.fields?.length ? entry.fields : null });
}

export interface AuditQuery {
  propertyId: number;
  /** ISO instants: from inclusive, to exclusive */
  from?: string | undefined;
  to?: string | undefined;
  actor?: { exact: string } | { prefix: string } | undefined;
  /** the last row of the previous page */
  after?: { at: number; id: number } | undefined;
  limit: number;
}

/** A page of a property's rows, newest first, with a reservation row's history entry (its statuses and changes). */
export async function listAudit(db: Db, q: AuditQuery) {
  const actor = q.actor;
  return db
    .select({
      row: auditLog,
      atMs: sql<number>`${auditLog.at}`,
      fromStatus: reservationHistory.fromStatus,
      toStatus: reservationHistory.toStatus,
      changes: reservationHistory.changes,
    })
    .from(auditLog)
    .leftJoin(
      reservationHistory,
      and(
        eq(auditLog.subject, "reservation"),
        eq(reservationHistory.reservationId, auditLog.subjectId),
        eq(reservationHistory.seq, auditLog.ref),
      ),
    )
    .where(
      and(
        eq(auditLog.propertyId, q.propertyId),
        q.from ? gte(auditLog.at, q.from) : undefined,
        q.to ? lt(auditLog.at, q.to) : undefined,
        actor && "exact" in actor ? eq(auditLog.actor, actor.exact) : undefined,
        actor && "prefix" in actor ? like(auditLog.actor, `${actor.prefix}%`) : undefined,
        q.after ? sql`(${auditLog.at}, ${auditLog.id}) < (${q.after.at}, ${q.after.id})` : undefined,
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(q.limit + 1);
}

/**
 * Drops rows older than `before` (ISO), at most `limit`: through each property's index range, so
 * the purge reads only what it drops.
 */
export async function purgeAudit(db: Db, before: string, limit: number): Promise<void> {
  const ms = Date.parse(before);
  await db
    .delete(auditLog)
    .where(
      sql`${auditLog.id} IN (SELECT a.id FROM ${properties} p JOIN ${auditLog} a ON a.property_id = p.id AND a.at < ${ms} LIMIT ${limit})`,
    );
}
