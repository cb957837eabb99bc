/** The statement every kind of outbox row is taken by: the tables share the columns it reads. */
import { and, asc, eq, inArray, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import type { messages, webhookDeliveries } from "../db/shard.schema";
import type { Db } from "../env";
import type { TakeDue } from "./senders";

type OutboxTable = typeof messages | typeof webhookDeliveries;

/**
 * Marks up to `limit` rows of `t` due by `dueBy` as queued now and answers them (id, property_id),
 * oldest first; those a queue message is on its way for are skipped. `propertyId`: only that property's.
 */
export function takeDueFrom(db: Db, t: OutboxTable, o: TakeDue, dueBy: SQL | string) {
  const due = db
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        eq(t.state, "pending"),
        lte(t.nextAttemptAt, dueBy),
        or(isNull(t.queuedAt), lt(t.queuedAt, o.graceBefore)),
        o.propertyId === undefined ? undefined : eq(t.propertyId, o.propertyId),
      ),
    )
    .orderBy(asc(t.id))
    .limit(o.limit);
  return db
    .update(t)
    .set({ queuedAt: o.now })
    .where(inArray(t.id, due))
    .returning({ id: t.id, property_id: t.propertyId });
}
