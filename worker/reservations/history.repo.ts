/**
 * A reservation's history as stored (CONTRACT 6: who, when, what). A change of status is kept
 * once, in from_status and to_status, not again in `changes`: about 30 bytes an entry, kept for
 * good. listHistory puts it back, so the API shows `changes` as the write made them.
 */
import { asc, eq } from "drizzle-orm";
import { reservationHistory } from "../db/shard.schema";
import type { Db } from "../env";
import type { ReservationStatus } from "../../shared/schemas";

export type HistoryRow = typeof reservationHistory.$inferSelect;

export interface HistoryEntry {
  actor: string;
  action: string;
  fromStatus: ReservationStatus | null;
  toStatus: ReservationStatus | null;
  changes: Record<string, [unknown, unknown]>;
}

/** The entry's changes without the status change its from_status and to_status already say. */
function storedChanges(e: HistoryEntry): HistoryEntry["changes"] {
  const { status, ...rest } = e.changes;
  return status && status[0] === e.fromStatus && status[1] === e.toStatus ? rest : e.changes;
}

/** The statement that writes a history entry (`reservationId` may be the SQL of the id just inserted). */
export function insertHistory(db: Db, reservationId: number, entry: HistoryEntry) {
  return db.insert(reservationHistory).values({ reservationId, ...entry, changes: storedChanges(entry) });
}

/** The changes as written: the status change first, as the write put it, when the entry has one. */
function shownChanges(h: HistoryRow): HistoryRow["changes"] {
  if (h.fromStatus === h.toStatus || "status" in h.changes) return h.changes;
  return { status: [h.fromStatus, h.toStatus], ...h.changes };
}

export async function listHistory(db: Db, reservationId: number): Promise<HistoryRow[]> {
  const rows = await db.select().from(reservationHistory).where(eq(reservationHistory.reservationId, reservationId)).orderBy(asc(reservationHistory.id));
  return rows.map((h) => ({ ...h, changes: shownChanges(h) }));
}
