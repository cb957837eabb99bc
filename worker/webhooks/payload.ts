/**
 * The body of a webhook: `{id, type, created_at, property_id, actor, data: {reservation,
 * previous_attributes?}}`, `actor` who made the change ({kind, id, name}, its name read at the
 * first attempt). The reservation is shown as GET /reservations/{id} shows it, from
 * the row the outbox trigger copied at the change (its customer's details included), so a late
 * delivery still tells what happened then, not what the reservation has become since. Only the
 * names of its service, room and tables are read at the first attempt.
 */

import { z } from "zod";
import { resolveSettings } from "../../shared/schemas";
import { actorOf } from "../audit/actor";
import { namedActors } from "../audit/actors.repo";
import type { ControlDb, Db } from "../env";
import { loadRelated, type Related, type ReservationRow } from "../reservations/reservations.repo";
import { toReservationDto } from "../reservations/reservations.schemas";
import { type EventRow, fixPayloadStatement, propertySettings } from "./webhooks.repo";

/** The trigger's json_object copy of a reservations row, as the row drizzle would read. */
function rowFromSnapshot(json: string): ReservationRow {
  const raw = JSON.parse(json) as Record<string, unknown>;
  const flag = (v: unknown) => v === 1 || v === true;
  return {
    ...raw,
    waitingList: flag(raw.waitingList),
    overridePacing: flag(raw.overridePacing),
    tableIds: (raw.tableIds as number[] | null) ?? [],
  } as ReservationRow;
}

/** The customer's details as a snapshot holds them: its text, or the object the trigger's json() made of it. */
const SnapshotCustomer = z.object({
  first_name: z.string().nullable().default(null),
  last_name: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  phone: z.string().nullable().default(null),
});

/** The related records, with the row's customer as its snapshot recorded it (when it did). */
function withSnapshotCustomer(related: Related, row: ReservationRow): Related {
  const raw: unknown = row.customerSnapshot;
  if (row.customerId === null || !raw) return related;
  const parsed = SnapshotCustomer.safeParse(typeof raw === "string" ? JSON.parse(raw) : raw);
  if (!parsed.success) return related;
  const c = parsed.data;
  const known = related.customers.get(row.customerId);
  const customer = {
    ...known!,
    id: row.customerId,
    firstName: c.first_name,
    lastName: c.last_name,
    email: c.email,
    phone: c.phone,
  };
  return { ...related, customers: new Map([[row.customerId, customer]]) };
}

/** Top-level fields whose value differs, with their value before (null where the field was absent). */
function previousAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key] ?? null;
  }
  return out;
}

/** Where payloads are built from: the property's shard, and the control database for actors' names. */
export interface PayloadSources {
  db: Db;
  d1: D1Database;
  control: ControlDb;
}

/** The bodies of events of one property, on one read of its settings, related records and actors. */
async function buildPayloads(
  src: Omit<PayloadSources, "d1">,
  propertyId: number,
  events: EventRow[],
): Promise<Map<number, string>> {
  const { db } = src;
  const actors = await namedActors(
    src.control,
    propertyId,
    events.flatMap((e) => (e.actor ? [e.actor] : [])),
  );
  const tz = resolveSettings(await propertySettings(db, propertyId)).timezone;
  const rows = events.map((e) => ({
    event: e,
    now: rowFromSnapshot(e.snapshot),
    before: e.previous ? rowFromSnapshot(e.previous) : undefined,
  }));
  const related = await loadRelated(
    db,
    propertyId,
    rows.flatMap((r) => (r.before ? [r.now, r.before] : [r.now])),
  );
  const out = new Map<number, string>();
  for (const { event, now, before } of rows) {
    const reservation = toReservationDto(now, withSnapshotCustomer(related, now), tz, "start_day");
    const data: Record<string, unknown> = { reservation };
    if (before)
      data.previous_attributes = previousAttributes(
        toReservationDto(before, withSnapshotCustomer(related, before), tz, "start_day"),
        reservation,
      );
    out.set(
      event.id,
      JSON.stringify({
        id: event.uid,
        type: event.type,
        created_at: event.createdAt,
        property_id: event.propertyId,
        actor: event.actor ? actorOf(event.actor, actors) : null,
        data,
      }),
    );
  }
  return out;
}

/**
 * The events' bodies, built once: the first attempt fixes each, every retry and replay reuses it.
 * Those still to build are built per property and fixed in one round trip; by event id, the body
 * or why there is none (an erasure rewrote the event meanwhile: the next attempt builds it again).
 */
export async function fixedPayloads(
  src: PayloadSources,
  events: EventRow[],
): Promise<Map<number, string | Error>> {
  const { d1 } = src;
  const out = new Map<number, string | Error>();
  const todo = new Map<number, EventRow[]>();
  for (const e of new Map(events.map((e) => [e.id, e])).values()) {
    if (e.payload) out.set(e.id, e.payload);
    else todo.set(e.propertyId, [...(todo.get(e.propertyId) ?? []), e]);
  }
  if (!todo.size) return out;
  const built = await Promise.all(
    [...todo].map(([propertyId, list]) =>
      buildPayloads(src, propertyId, list).catch((err: unknown) => err as Error),
    ),
  );
  const pending = [...todo.values()].flatMap((list, i) => list.map((e) => ({ e, body: built[i]! })));
  for (const { e, body } of pending) if (body instanceof Error) out.set(e.id, body);
  const fixing = pending.filter(
    (p): p is { e: EventRow; body: Map<number, string> } => !(p.body instanceof Error),
  );
  if (!fixing.length) return out;
  const results = await d1.batch(
    fixing.map(({ e, body }) => fixPayloadStatement(d1, e.id, body.get(e.id)!, e.snapshot)),
  );
  fixing.forEach(({ e }, i) => {
    const kept = (results[i]!.results[0] as { payload: string } | undefined)?.payload;
    out.set(
      e.id,
      kept ??
        new Error(
          "the event was rewritten (an erasure) while its body was built; the next attempt builds it again",
        ),
    );
  });
  return out;
}
