/**
 * Reservations in D1. Every write that takes tables is one batch: the reservation row,
 * its holds and its history entry. The database itself refuses a hold that overlaps
 * another (trigger `reservation_tables_no_overlap`) and a write based on a stale read
 * (trigger `reservations_version_check`); either aborts the whole batch.
 */

import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { ReservationStatus } from "../../shared/schemas";
import { ARRIVING } from "../availability/rules";
import {
  customers,
  diningTables,
  type Guest,
  guestBookingChecks,
  reservations,
  reservationTables,
  rooms,
  services,
} from "../db/shard.schema";
import type { Db } from "../env";
import { abortReason } from "../errors";
import { batch, type Statement } from "../lib/d1";
import { inChunks } from "../properties/catalog.repo";
import { type CustomerPlan, customerDetailsChange, customerSnapshot } from "./customer-plan.repo";
import { phoneMatches, reservationFields, storedGuest } from "./guest.repo";
import { type HistoryEntry, insertHistory } from "./history.repo";

export * from "./customer-plan.repo";
export type { HistoryEntry, HistoryRow } from "./history.repo";
export { listHistory } from "./history.repo";

export type ReservationRow = typeof reservations.$inferSelect;

/** A table held over a span, as written to reservation_tables. */
export interface HoldSpan {
  tableId: number;
  startMin: number;
  endMin: number;
}

/**
 * Why a batch was refused by the database: a table taken, the service's pacing reached, the row
 * changed, a customer created (or merged away) meanwhile, or the guest's online bookings at their limit.
 */
export type WriteConflict =
  | "table_not_available"
  | "pacing_full"
  | "reservation_changed"
  | "customer_changed"
  | "service_gone"
  | "catalog_changed"
  | "guest_booking_limit";

/** The trigger's RAISE message, wherever drizzle and D1 wrapped it. */
export function writeConflict(err: unknown): WriteConflict | undefined {
  const reason = abortReason(err, [
    "table_not_available",
    "pacing_full",
    "reservation_changed",
    "customers.property_id, customers.email",
    // a customer merged away between the read and the write (rooms, tables and services are only ever soft-deleted)
    "FOREIGN KEY constraint failed",
    "service_not_found",
    "catalog_changed",
    "guest_booking_limit",
  ] as const);
  if (reason === "customers.property_id, customers.email" || reason === "FOREIGN KEY constraint failed")
    return "customer_changed";
  if (reason === "service_not_found") return "service_gone";
  return reason;
}

export async function getReservation(db: Db, id: number): Promise<ReservationRow | undefined> {
  return (await reservationQuery(db, id))[0];
}

/** The statement of getReservation, for a batch: its result is an array of at most one row. */
export function reservationQuery(db: Db, id: number) {
  return db.select(reservationFields).from(reservations).where(eq(reservations.id, id)).limit(1);
}

/** The property a reservation id belongs to in this shard, if any. */
export async function reservationOwner(db: Db, id: number): Promise<number | undefined> {
  return (
    await db
      .select({ propertyId: reservations.propertyId })
      .from(reservations)
      .where(eq(reservations.id, id))
      .limit(1)
  )[0]?.propertyId;
}

// ---------- writes ----------

type NewReservation = Omit<typeof reservations.$inferInsert, "id" | "createdAt" | "updatedAt" | "version">;

// The ids AUTOINCREMENT just gave in this batch (a batch runs alone): the tables' sequences, not
// max(id), which spans every property of the shard and rows a move brought from another range.
const justInserted = sql`(SELECT seq FROM sqlite_sequence WHERE name = 'reservations')`;
/** The id of the reservation a batch inserts, for the statements that follow it in the same batch. */
export const NEW_RESERVATION_ID: SQL = justInserted;
const customerJustInserted = sql`(SELECT seq FROM sqlite_sequence WHERE name = 'customers')`;

/**
 * The statements that write a booking's customer, and the id the reservation takes: a new
 * customer inserted in the batch, or a known one, updated only when its details change.
 */
function customerStatements(db: Db, propertyId: number, plan: CustomerPlan | undefined) {
  if (!plan) return { statements: [], customerId: undefined };
  const { existing, fields, locale } = plan;
  if (!existing)
    return {
      statements: [db.insert(customers).values({ propertyId, ...fields, locale })],
      customerId: customerJustInserted,
    };
  return {
    statements: customerDetailsChange(plan)
      ? [
          db
            .update(customers)
            .set({ ...fields, locale })
            .where(eq(customers.id, existing.id)),
        ]
      : [],
    customerId: existing.id,
  };
}

/** The guest a write stores: leaning on the customer the batch names where that record says the same (guest.repo.ts). */
const keptGuest = (guest: Guest | null | undefined, customerId: number | SQL | undefined) =>
  guest && customerId !== undefined ? storedGuest(guest, customerId) : guest;

/** An online booking's per-guest limit: the guest as typed, the property's local minutes now and the most it may hold. */
export interface GuestLimit {
  email: string | null;
  phone: string | null;
  nowMin: number;
  maxBookings: number;
}

/**
 * The guard of an online booking, first in its batch: its trigger aborts the batch with
 * "guest_booking_limit" when the guest already holds the most bookings allowed; the row goes
 * again in the same batch (migrations/shard, guest_booking_checks_limit).
 */
function guestLimitStatements(db: Db, propertyId: number, limit: GuestLimit | undefined) {
  if (!limit) return [];
  return [
    db.insert(guestBookingChecks).values({ propertyId, ...limit }),
    db.delete(guestBookingChecks).where(eq(guestBookingChecks.propertyId, propertyId)),
  ];
}

/**
 * Inserts a reservation, its customer, its holds, its history and what follows it (the
 * reactions' statements) in one batch, behind the guest's limit for an online booking.
 * `followed`: what the statements of `follow` answered.
 */
export async function insertReservation(
  db: Db,
  row: Omit<NewReservation, "customerId">,
  customer: CustomerPlan | undefined,
  holds: HoldSpan[],
  history: HistoryEntry,
  follow: Statement[],
  o: { limit?: GuestLimit | undefined; names?: CatalogNames | undefined } = {},
): Promise<{ row: ReservationRow; related: Related | undefined; followed: unknown[] }> {
  const c = customerStatements(db, row.propertyId, customer);
  const guard = guestLimitStatements(db, row.propertyId, o.limit);
  // The customer the answer names, read last in the same batch: it sees the rows just written.
  const reads = o.names
    ? customerQueries(db, row.propertyId, c.customerId === undefined ? [] : [c.customerId])
    : [];
  const results = await batch(db, [
    ...guard,
    ...c.statements,
    db
      .insert(reservations)
      .values({
        ...row,
        guest: keptGuest(row.guest, c.customerId),
        customerId: c.customerId ?? null,
        customerSnapshot: customer ? customerSnapshot(customer) : null,
        changedBy: history.actor,
      })
      .returning(),
    ...holds.map((h) => db.insert(reservationTables).values({ reservationId: justInserted, ...h })),
    insertHistory(db, justInserted, history),
    ...follow,
    ...reads,
  ]);
  const inserted = (results[guard.length + c.statements.length] as ReservationRow[])[0]!;
  const related = o.names
    ? {
        ...o.names,
        // a mixed batch's answers are known by their place: the two reads are last
        ...customersOf(results.at(-2) as CustomerRows[0], results.at(-1) as CustomerRows[1]),
      }
    : undefined;
  const followed = results.slice(
    results.length - reads.length - follow.length,
    results.length - reads.length,
  );
  return { row: { ...inserted, guest: row.guest ?? null }, related, followed };
}

/**
 * Updates a reservation read at `version`, and its customer when given, replacing its holds
 * when `holds` is given (an empty list releases them), with a history entry and what follows
 * it, in one batch; `followed`: what the statements of `follow` answered.
 */
export async function changeReservation(
  db: Db,
  current: ReservationRow,
  set: Partial<NewReservation>,
  customer: CustomerPlan | undefined,
  holds: HoldSpan[] | undefined,
  history: HistoryEntry,
  follow: Statement[],
): Promise<{ row: ReservationRow; followed: unknown[] }> {
  const c = customerStatements(db, current.propertyId, customer);
  const results = await batch(db, [
    ...c.statements,
    db
      .update(reservations)
      .set({
        ...set,
        ...("guest" in set && { guest: keptGuest(set.guest, c.customerId) }),
        ...(c.customerId !== undefined && { customerId: c.customerId }),
        ...(customer && { customerSnapshot: customerSnapshot(customer) }),
        changedBy: history.actor,
        version: current.version + 1,
      })
      .where(eq(reservations.id, current.id))
      .returning(),
    ...(holds ? [db.delete(reservationTables).where(eq(reservationTables.reservationId, current.id))] : []),
    ...(holds ?? []).map((h) => db.insert(reservationTables).values({ reservationId: current.id, ...h })),
    insertHistory(db, current.id, history),
    ...follow,
  ]);
  const changed = (results[c.statements.length] as ReservationRow[])[0]!;
  const followed = results.slice(results.length - follow.length);
  return { row: { ...changed, guest: "guest" in set ? (set.guest ?? null) : current.guest }, followed };
}

/**
 * PREPAY reservations whose payment window closed, oldest due first, for the cron to expire
 * through the state machine (reservations/expiry.ts). Checked-in guests are not due: the
 * machine refuses to expire them, and the index range skips them. Paying through Stripe, an
 * ACCEPTED one still owing (a waiting party given a table) is due too; a payment made clears the
 * window, so paid bookings are not in the index range.
 */
export async function dueUnpaid(
  db: Db,
  at: string,
  limit: number,
  /** true: those paying through Stripe (worker/payments asks Stripe first); false: the others */
  stripe = false,
): Promise<ReservationRow[]> {
  return db
    .select(reservationFields)
    .from(reservations)
    .where(
      and(
        stripe
          ? or(
              eq(reservations.status, "PREPAY"),
              and(
                eq(reservations.status, "ACCEPTED"),
                sql`json_extract(${reservations.payment}, '$.status') IN ('requires_payment', 'failed')`,
              ),
            )
          : eq(reservations.status, "PREPAY"),
        isNotNull(reservations.paymentDueAt),
        lt(reservations.paymentDueAt, at),
        isNull(reservations.checkinDate),
        stripe ? isNotNull(reservations.payment) : isNull(reservations.payment),
      ),
    )
    .orderBy(asc(reservations.paymentDueAt))
    .limit(limit);
}

/** Where the cron looks for no-shows in one property: starts in [fromMin, toMin) of its own clock. */
export interface NoShowWindow {
  propertyId: number;
  fromMin: number;
  toMin: number;
}

/**
 * Reservations that would arrive (PREPAY, ACCEPTED, CONFIRMED), not checked in, starting inside
 * each property's window, oldest first, for the cron to expire as no-shows (reservations/noshow.ts).
 * One statement per property, in one batch, each an index range of reservations_property_start_idx.
 */
export async function dueNoShows(db: Db, windows: NoShowWindow[], limit: number): Promise<ReservationRow[]> {
  if (!windows.length) return [];
  const queries = windows.map((w) =>
    db
      .select(reservationFields)
      .from(reservations)
      .where(
        and(
          eq(reservations.propertyId, w.propertyId),
          gte(reservations.startMin, w.fromMin),
          lt(reservations.startMin, w.toMin),
          inArray(reservations.status, [...ARRIVING]),
          isNull(reservations.checkinDate),
        ),
      )
      .orderBy(asc(reservations.startMin))
      .limit(limit),
  );
  const results = await batch(db, queries);
  return results
    .flat()
    .sort((a, b) => a.startMin - b.startMin)
    .slice(0, limit);
}

// ---------- reads ----------

export interface ListFilters {
  /** absent: any day (a guest's reservations) */
  fromMin?: number | undefined;
  toMin?: number | undefined;
  startHour?: string | undefined;
  statuses?: ReservationStatus[] | undefined;
  serviceIds?: number[] | undefined;
  roomIds?: number[] | undefined;
  textSearch?: string | undefined;
  customerId?: number | undefined;
  incomingFrom?: number | undefined;
  arrived?: boolean | undefined;
  departed?: boolean | undefined;
  after?: { s: number; id: number } | undefined;
}

const HOLDING_SQL = sql`('PREPAY', 'ACCEPTED', 'CONFIRMED', 'OUTOFORDER')`;

export async function listReservations(
  db: Db,
  propertyId: number,
  f: ListFilters,
  limit: number,
): Promise<ReservationRow[]> {
  const r = reservations;
  const where: (SQL | undefined)[] = [eq(r.propertyId, propertyId)];
  if (f.fromMin !== undefined) where.push(gte(r.startMin, f.fromMin));
  if (f.toMin !== undefined) where.push(lt(r.startMin, f.toMin));
  if (f.startHour) where.push(gte(r.startHour, f.startHour));
  if (f.statuses?.length) where.push(inArray(r.status, f.statuses));
  if (f.serviceIds?.length) where.push(inArray(r.serviceId, f.serviceIds));
  if (f.roomIds?.length) where.push(inArray(r.roomId, f.roomIds));
  if (f.customerId !== undefined) where.push(eq(r.customerId, f.customerId));
  if (f.textSearch)
    where.push(
      sql`${r.customerId} IN (SELECT id FROM customers c WHERE c.property_id = ${propertyId} AND ${customerMatches(f.textSearch)})`,
    );
  if (f.incomingFrom !== undefined)
    where.push(sql`${r.status} IN ${HOLDING_SQL}`, isNull(r.checkinDate), gte(r.startMin, f.incomingFrom));
  if (f.arrived) where.push(isNotNull(r.checkinDate), isNull(r.checkoutDate));
  if (f.departed) where.push(isNotNull(r.checkoutDate));
  if (f.after)
    where.push(or(gt(r.startMin, f.after.s), and(eq(r.startMin, f.after.s), gt(r.id, f.after.id))));
  return db
    .select(reservationFields)
    .from(r)
    .where(and(...where))
    .orderBy(asc(r.startMin), asc(r.id))
    .limit(limit + 1);
}

/** SQLite's lower() folds ASCII only; a needle is folded the same way, so both sides agree. */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
const titleCase = (s: string) =>
  s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());

/**
 * text_search: the name ("first last"), the email or the phone contains the text, ASCII letters
 * in any case. instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes (the text may be 100
 * characters, up to 400 bytes), and `%` or `_` are plain characters to instr. SQLite cannot fold
 * letters beyond ASCII (no ICU), so the text is also tried in lower case, capitals and Title Case:
 * "élodie" finds Élodie and ÉLODIE, four instr() per customer of the property, no index needed.
 */
function customerMatches(text: string): SQL {
  const name = sql`lower(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, ''))`;
  const needles = [
    ...new Set([text, text.toLowerCase(), text.toUpperCase(), titleCase(text)].map(asciiLower)),
  ];
  const email = sql`instr(lower(coalesce(c.email, '')), ${asciiLower(text)}) > 0`;
  const phone = phoneMatches(sql`c.phone`, text) ?? sql`instr(coalesce(c.phone, ''), ${text}) > 0`;
  return sql`(${sql.join([...needles.map((n) => sql`instr(${name}, ${n}) > 0`), email, phone], sql` OR `)})`;
}

/** A visit: a party that came (checked in) and was not cancelled or refused afterwards. */
export const VISIT = sql`${reservations.checkinDate} IS NOT NULL AND ${reservations.status} NOT IN ('CANCELLED', 'REJECTED')`;

/** Each customer's visits (those with none are absent), on the index by customer. */
function visitsOf(db: Db, customerIds: number[] | SQL) {
  return db
    .select({
      id: sql<number>`${reservations.customerId}`,
      visits: sql<number>`sum(CASE WHEN ${VISIT} THEN 1 ELSE 0 END)`,
    })
    .from(reservations)
    .where(inArray(reservations.customerId, customerIds))
    .groupBy(reservations.customerId);
}

/**
 * The statements of what a page of reservations names: services, rooms and tables (deleted ones
 * too), and the customers given (ids, or the SQL of one inserted in the same batch) with their visits.
 */
function relatedQueries(db: Db, propertyId: number, customerIds: number[]) {
  return [
    db
      .select({ id: services.id, name: services.name })
      .from(services)
      .where(eq(services.propertyId, propertyId)),
    db.select({ id: rooms.id, name: rooms.name }).from(rooms).where(eq(rooms.propertyId, propertyId)),
    db.select(NAMED_TABLE).from(diningTables).where(eq(diningTables.propertyId, propertyId)),
    ...customerQueries(db, propertyId, customerIds),
  ] as const;
}

/** The customers given (ids, or none) with their visits. */
function customerQueries(db: Db, propertyId: number, customerIds: (number | SQL)[]) {
  // a customer inserted in the same batch is named by the SQL that reads its id
  const ids = sql`(${sql.join(
    (customerIds.length ? customerIds : [0]).map((id) => sql`${id}`),
    sql`, `,
  )})`;
  return [
    db
      .select()
      .from(customers)
      .where(and(eq(customers.propertyId, propertyId), inArray(customers.id, ids))),
    visitsOf(db, ids),
  ] as const;
}

/** What an answer shows of a table. */
const NAMED_TABLE = {
  id: diningTables.id,
  name: diningTables.name,
  bookable: diningTables.bookable,
  online: diningTables.online,
  isGroup: diningTables.isGroup,
  roomId: diningTables.roomId,
};

type Rows<Q extends readonly unknown[]> = { -readonly [K in keyof Q]: Awaited<Q[K]> };
type CustomerRows = Rows<ReturnType<typeof customerQueries>>;
type RelatedRows = Rows<ReturnType<typeof relatedQueries>>;

const customersOf = (customerRows: CustomerRows[0], visitRows: CustomerRows[1]) => ({
  customers: new Map(customerRows.map((c) => [c.id, c])),
  visits: new Map(visitRows.map((v) => [v.id, v.visits])),
});

function relatedOf([serviceRows, roomRows, tableRows, customerRows, visitRows]: RelatedRows) {
  return {
    ...customersOf(customerRows, visitRows),
    services: new Map(serviceRows.map((s) => [s.id, s])),
    rooms: new Map(roomRows.map((r) => [r.id, r])),
    tables: new Map(tableRows.map((t) => [t.id, t])),
  };
}

/** What the response of a page of reservations names: customers, services, rooms and tables (deleted ones too). */
export async function loadRelated(db: Db, propertyId: number, rows: ReservationRow[]) {
  const customerIds = [...new Set(rows.map((r) => r.customerId).filter((id): id is number => id !== null))];
  // The first 90 customers come in the same round trip (D1 binds at most 100 parameters);
  // only a page with more needs another.
  const [first, rest] = [customerIds.slice(0, 90), customerIds.slice(90)];
  const [serviceRows, roomRows, tableRows, firstCustomers, firstVisits] = await db.batch(
    relatedQueries(db, propertyId, first),
  );
  const customerRows = [
    ...firstCustomers,
    ...(await inChunks(rest, (chunk) => db.select().from(customers).where(inArray(customers.id, chunk)))),
  ];
  const visitRows = [...firstVisits, ...(await inChunks(rest, (chunk) => visitsOf(db, chunk)))];
  return relatedOf([serviceRows, roomRows, tableRows, customerRows, visitRows]);
}
export type Related = ReturnType<typeof relatedOf>;
/**
 * What a new reservation's answer names of the catalog it was decided on: its service, room and
 * tables. That catalog is the committed one (the insert is refused when catalog_version moved).
 */
export type CatalogNames = Pick<Related, "services" | "rooms" | "tables">;
