/**
 * Reservations in D1. Every write that takes tables is one batch: the reservation row,
 * its holds and its history entry. The database itself refuses a hold that overlaps
 * another (trigger `reservation_tables_no_overlap`) and a write based on a stale read
 * (trigger `reservations_version_check`); either aborts the whole batch.
 */
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { customers, diningTables, reservationHistory, reservations, reservationTables, rooms, services } from "../db/schema";
import type { Db } from "../env";
import { inChunks } from "../properties/catalog.repo";
import { abortReason } from "../lib/d1";
import { nowIso } from "../lib/time";
import type { ReservationStatus } from "../../shared/schemas";

export type ReservationRow = typeof reservations.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type HistoryRow = typeof reservationHistory.$inferSelect;

/** A table held over a span, as written to reservation_tables. */
export interface HoldSpan {
  tableId: number;
  startMin: number;
  endMin: number;
}

export interface HistoryEntry {
  actor: string;
  action: string;
  fromStatus: ReservationStatus | null;
  toStatus: ReservationStatus | null;
  changes: Record<string, [unknown, unknown]>;
}

/** Why a batch was refused by the database. */
export type WriteConflict = "table_not_available" | "reservation_changed";

/** The trigger's RAISE message, wherever drizzle and D1 wrapped it. */
export function writeConflict(err: unknown): WriteConflict | undefined {
  return abortReason(err, ["table_not_available", "reservation_changed"] as const);
}

export async function getReservation(db: Db, id: number): Promise<ReservationRow | undefined> {
  return (await db.select().from(reservations).where(eq(reservations.id, id)).limit(1))[0];
}

// ---------- customers ----------

export interface CustomerInput {
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
}

export async function getCustomer(db: Db, propertyId: number, id: number) {
  return (await db.select().from(customers).where(and(eq(customers.id, id), eq(customers.propertyId, propertyId))).limit(1))[0];
}

/** The property's customer with this email, else with this phone (CONTRACT 6). */
export async function findCustomer(db: Db, propertyId: number, input: CustomerInput): Promise<CustomerRow | undefined> {
  if (input.email) {
    const byEmail = await db
      .select()
      .from(customers)
      .where(and(eq(customers.propertyId, propertyId), eq(customers.email, input.email.toLowerCase())))
      .orderBy(asc(customers.id))
      .limit(1);
    if (byEmail[0]) return byEmail[0];
  }
  if (input.phone) {
    const byPhone = await db
      .select()
      .from(customers)
      .where(and(eq(customers.propertyId, propertyId), eq(customers.phone, input.phone)))
      .orderBy(asc(customers.id))
      .limit(1);
    if (byPhone[0]) return byPhone[0];
  }
  return undefined;
}

/**
 * Answers the customer row for a booking: a new customer is created; a known one gets the
 * details it lacks, and with `overwrite` (staff) the details given replace its own. Online
 * guests never overwrite: an email alone must not let one guest rename another.
 */
export async function saveCustomer(db: Db, propertyId: number, input: CustomerInput, existing?: CustomerRow, overwrite = false): Promise<CustomerRow> {
  const email = input.email?.toLowerCase();
  const pick = <T>(given: T | undefined, known: T | null | undefined) => (overwrite ? (given ?? known) : (known ?? given)) ?? null;
  const fields = {
    firstName: pick(input.first_name, existing?.firstName),
    lastName: pick(input.last_name, existing?.lastName),
    email: pick(email, existing?.email),
    phone: pick(input.phone, existing?.phone),
  };
  if (existing) {
    const same = fields.firstName === existing.firstName && fields.lastName === existing.lastName && fields.email === existing.email && fields.phone === existing.phone;
    if (same) return existing;
    return (await db.update(customers).set(fields).where(eq(customers.id, existing.id)).returning())[0]!;
  }
  return (await db.insert(customers).values({ propertyId, ...fields }).returning())[0]!;
}

// ---------- writes ----------

type NewReservation = Omit<typeof reservations.$inferInsert, "id" | "createdAt" | "updatedAt" | "version">;

const justInserted = sql`(SELECT max(id) FROM reservations)` as unknown as number;

/**
 * Inserts a reservation, its holds and its history in one batch. AUTOINCREMENT makes the
 * new row the highest id, and a batch runs alone, so the holds can name it.
 */
export async function insertReservation(db: Db, row: NewReservation, holds: HoldSpan[], history: HistoryEntry): Promise<ReservationRow> {
  const [inserted] = await db.batch([
    db.insert(reservations).values(row).returning(),
    ...holds.map((h) => db.insert(reservationTables).values({ reservationId: justInserted, ...h })),
    db.insert(reservationHistory).values({ reservationId: justInserted, ...history }),
  ]);
  return inserted[0]!;
}

/**
 * Updates a reservation read at `version`, replacing its holds when `holds` is given
 * (an empty list releases them), with a history entry, in one batch.
 */
export async function changeReservation(
  db: Db,
  id: number,
  version: number,
  set: Partial<NewReservation>,
  holds: HoldSpan[] | undefined,
  history: HistoryEntry,
): Promise<ReservationRow> {
  const [updated] = await db.batch([
    db
      .update(reservations)
      .set({ ...set, version: version + 1, updatedAt: nowIso() })
      .where(eq(reservations.id, id))
      .returning(),
    ...(holds ? [db.delete(reservationTables).where(eq(reservationTables.reservationId, id))] : []),
    ...(holds ?? []).map((h) => db.insert(reservationTables).values({ reservationId: id, ...h })),
    db.insert(reservationHistory).values({ reservationId: id, ...history }),
  ]);
  return updated[0]!;
}

/**
 * PREPAY reservations whose payment window closed become EXPIRED, release their tables
 * and get a history entry, in one batch (the cron's job).
 */
export async function expireUnpaid(d1: D1Database, at = nowIso()): Promise<number[]> {
  const due = "status = 'PREPAY' AND payment_due_at IS NOT NULL AND payment_due_at < ?1";
  const [, , expired] = await d1.batch<{ id: number }>([
    d1
      .prepare(
        `INSERT INTO reservation_history (reservation_id, at, actor, action, from_status, to_status, changes)
         SELECT id, ?1, 'system', 'expired_unpaid', 'PREPAY', 'EXPIRED', '{"status":["PREPAY","EXPIRED"]}' FROM reservations WHERE ${due}`,
      )
      .bind(at),
    d1.prepare(`DELETE FROM reservation_tables WHERE reservation_id IN (SELECT id FROM reservations WHERE ${due})`).bind(at),
    d1.prepare(`UPDATE reservations SET status = 'EXPIRED', last_status_change = ?1, updated_at = ?1, version = version + 1 WHERE ${due} RETURNING id`).bind(at),
  ]);
  return expired!.results.map((r) => r.id);
}

// ---------- reads ----------

export interface ListFilters {
  fromMin: number;
  toMin?: number | undefined;
  startHour?: string | undefined;
  statuses?: ReservationStatus[] | undefined;
  serviceIds?: number[] | undefined;
  roomIds?: number[] | undefined;
  textSearch?: string | undefined;
  incomingFrom?: number | undefined;
  arrived?: boolean | undefined;
  departed?: boolean | undefined;
  after?: { s: number; id: number } | undefined;
}

const HOLDING_SQL = sql`('PREPAY', 'ACCEPTED', 'CONFIRMED', 'OUTOFORDER')`;

export async function listReservations(db: Db, propertyId: number, f: ListFilters, limit: number): Promise<ReservationRow[]> {
  const r = reservations;
  const where: (SQL | undefined)[] = [eq(r.propertyId, propertyId), gte(r.startMin, f.fromMin)];
  if (f.toMin !== undefined) where.push(lt(r.startMin, f.toMin));
  if (f.startHour) where.push(gte(r.startHour, f.startHour));
  if (f.statuses?.length) where.push(inArray(r.status, f.statuses));
  if (f.serviceIds?.length) where.push(inArray(r.serviceId, f.serviceIds));
  if (f.roomIds?.length) where.push(inArray(r.roomId, f.roomIds));
  if (f.textSearch) {
    const like = `%${f.textSearch.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push(
      sql`${r.customerId} IN (SELECT id FROM customers c WHERE c.property_id = ${propertyId} AND (
        lower(c.first_name) LIKE ${like} ESCAPE '\\' OR lower(c.last_name) LIKE ${like} ESCAPE '\\'
        OR lower(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) LIKE ${like} ESCAPE '\\'
        OR c.phone LIKE ${like} ESCAPE '\\'))`,
    );
  }
  if (f.incomingFrom !== undefined) where.push(sql`${r.status} IN ${HOLDING_SQL}`, isNull(r.checkinDate), gte(r.startMin, f.incomingFrom));
  if (f.arrived) where.push(isNotNull(r.checkinDate), isNull(r.checkoutDate));
  if (f.departed) where.push(isNotNull(r.checkoutDate));
  if (f.after) where.push(or(gt(r.startMin, f.after.s), and(eq(r.startMin, f.after.s), gt(r.id, f.after.id))));
  return db
    .select()
    .from(r)
    .where(and(...where))
    .orderBy(asc(r.startMin), asc(r.id))
    .limit(limit + 1);
}

export async function listHistory(db: Db, reservationId: number): Promise<HistoryRow[]> {
  return db.select().from(reservationHistory).where(eq(reservationHistory.reservationId, reservationId)).orderBy(asc(reservationHistory.id));
}

/** What the response of a page of reservations names: customers, services, rooms and tables (deleted ones too). */
export async function loadRelated(db: Db, propertyId: number, rows: ReservationRow[]) {
  const customerIds = [...new Set(rows.map((r) => r.customerId).filter((id): id is number => id !== null))];
  const [serviceRows, roomRows, tableRows] = await db.batch([
    db.select({ id: services.id, name: services.name }).from(services).where(eq(services.propertyId, propertyId)),
    db.select({ id: rooms.id, name: rooms.name }).from(rooms).where(eq(rooms.propertyId, propertyId)),
    db.select().from(diningTables).where(eq(diningTables.propertyId, propertyId)),
  ]);
  const customerRows = await inChunks(customerIds, (chunk) => db.select().from(customers).where(inArray(customers.id, chunk)));
  return {
    customers: new Map(customerRows.map((c) => [c.id, c])),
    services: new Map(serviceRows.map((s) => [s.id, s])),
    rooms: new Map(roomRows.map((r) => [r.id, r])),
    tables: new Map(tableRows.map((t) => [t.id, t])),
  };
}
export type Related = Awaited<ReturnType<typeof loadRelated>>;
