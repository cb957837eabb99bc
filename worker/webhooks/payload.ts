/**
 * The body of a webhook: `{id, type, created_at, property_id, data: {reservation,
 * previous_attributes?}}`. The reservation is shown as GET /reservations/{id} shows it, from
 * the row the outbox trigger copied at the change (its customer's details included), so a late
 * delivery still tells what happened then, not what the reservation has become since. Only the
 * names of its service, room and tables are read at the first attempt.
 */
import type { Db } from "../env";
import { resolveSettings } from "../../shared/schemas";
import { loadRelated, type Related, type ReservationRow } from "../reservations/reservations.repo";
import { toReservationDto } from "../reservations/reservations.schemas";
import { type EventRow, fixPayload, propertySettings } from "./webhooks.repo";

/** The trigger's json_object copy of a reservations row, as the row drizzle would read. */
function rowFromSnapshot(json: string): ReservationRow {
  const raw = JSON.parse(json) as Record<string, unknown>;
  const flag = (v: unknown) => v === 1 || v === true;
  return { ...raw, waitingList: flag(raw.waitingList), overridePacing: flag(raw.overridePacing), tableIds: (raw.tableIds as number[] | null) ?? [] } as ReservationRow;
}

/** The related records, with the row's customer as its snapshot recorded it (when it did). */
function withSnapshotCustomer(related: Related, row: ReservationRow): Related {
  if (row.customerId === null || !row.customerSnapshot) return related;
  const c = row.customerSnapshot as unknown as { first_name: string | null; last_name: string | null; email: string | null; phone: string | null };
  const known = related.customers.get(row.customerId);
  const customer = { ...known!, id: row.customerId, firstName: c.first_name, lastName: c.last_name, email: c.email, phone: c.phone };
  return { ...related, customers: new Map([[row.customerId, customer]]) };
}

/** Top-level fields whose value differs, with their value before (null where the field was absent). */
function previousAttributes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key] ?? null;
  }
  return out;
}

export async function buildPayload(db: Db, event: EventRow): Promise<string> {
  const tz = resolveSettings(await propertySettings(db, event.propertyId)).timezone;
  const now = rowFromSnapshot(event.snapshot);
  const before = event.previous ? rowFromSnapshot(event.previous) : undefined;
  const related = await loadRelated(db, event.propertyId, before ? [now, before] : [now]);
  const reservation = toReservationDto(now, withSnapshotCustomer(related, now), tz, "start_day");
  const data: Record<string, unknown> = { reservation };
  if (before) data.previous_attributes = previousAttributes(toReservationDto(before, withSnapshotCustomer(related, before), tz, "start_day"), reservation);
  return JSON.stringify({ id: event.uid, type: event.type, created_at: event.createdAt, property_id: event.propertyId, data });
}

/** The event's body, built once: the first attempt fixes it, every retry and replay reuses it. */
export async function fixedPayload(db: Db, d1: D1Database, event: EventRow): Promise<string> {
  if (event.payload) return event.payload;
  const fixed = await fixPayload(d1, event.id, await buildPayload(db, event), event.snapshot);
  if (fixed === undefined) throw new Error("the event was rewritten (an erasure) while its body was built; the next attempt builds it again");
  return fixed;
}
