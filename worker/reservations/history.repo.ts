/**
 * A reservation's history as stored (who, when, what), each fact once, kept for good:
 * a change of status is in from_status and to_status, not again in `changes` (about 30 bytes an
 * entry); a check-in's or check-out's time is the entry's own `at`, not again as checkin_date or
 * checkout_date (about 48). listHistory puts both back, so the API shows `changes` as written.
 */
import { asc, eq, type SQL, sql } from "drizzle-orm";
import type { ReservationStatus } from "../../shared/schemas";
import { reservationHistory } from "../db/shard.schema";
import type { Db } from "../env";
import { toLocalDateTime } from "../lib/localtime";

export type HistoryRow = typeof reservationHistory.$inferSelect;

export interface HistoryEntry {
  actor: string;
  action: string;
  fromStatus: ReservationStatus | null;
  toStatus: ReservationStatus | null;
  changes: Record<string, [unknown, unknown]>;
  /** when (ISO, UTC); the database's clock if absent. A check-in or check-out gives its own time. */
  at?: string;
}

/** Actions whose field is set to the entry's own time: [null, that time] is not stored again. */
const STAMPED: Record<string, string> = { checkin: "checkin_date", checkout: "checkout_date" };

/** The entry's changes without the status change its from_status and to_status already say. */
function storedChanges(e: HistoryEntry): HistoryEntry["changes"] {
  const { status, ...rest } = e.changes;
  const out = status && status[0] === e.fromStatus && status[1] === e.toStatus ? rest : { ...e.changes };
  const stamped = STAMPED[e.action];
  if (e.at && stamped && out[stamped]?.[0] === null) delete out[stamped];
  return out;
}

/** The number the next entry of a reservation takes (its entries are 1, 2, ...; a batch runs alone). */
export const nextSeq = (reservationId: number | SQL) =>
  sql<number>`(SELECT coalesce(max(h.seq), 0) + 1 FROM reservation_history h WHERE h.reservation_id = ${reservationId})`;

/** The statement that writes a history entry (`reservationId` may be the SQL of the id just inserted). */
export function insertHistory(db: Db, reservationId: number | SQL, entry: HistoryEntry) {
  return db
    .insert(reservationHistory)
    .values({ reservationId, seq: nextSeq(reservationId), ...entry, changes: storedChanges(entry) });
}

/** The changes as written: the status change first, the stamped time last (reservations/history.ts's order). */
function shownChanges(h: HistoryRow, timeZone: string): HistoryRow["changes"] {
  const out: HistoryRow["changes"] =
    h.fromStatus === h.toStatus || "status" in h.changes
      ? { ...h.changes }
      : { status: [h.fromStatus, h.toStatus], ...h.changes };
  const stamped = STAMPED[h.action];
  if (stamped && !(stamped in out)) out[stamped] = [null, toLocalDateTime(timeZone, h.at, true)];
  return out;
}

/** A reservation's history in order, `changes` as written (local times in `timeZone`, the property's). */
export async function listHistory(db: Db, reservationId: number, timeZone: string): Promise<HistoryRow[]> {
  const rows = await db
    .select()
    .from(reservationHistory)
    .where(eq(reservationHistory.reservationId, reservationId))
    .orderBy(asc(reservationHistory.seq));
  return rows.map((h) => ({ ...h, changes: shownChanges(h, timeZone) }));
}
