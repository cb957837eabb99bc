/**
 * What every reservation write shares: the day it decides on, the refusals the database may
 * answer its batch with (and which of them are worth deciding again), the holds a decision
 * takes, and the checks of a place the caller named.
 */
import type { ReservationStatus } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability, type EngineService, type EngineTable, type Refusal } from "../availability/engine";
import { ApiError, invalidField } from "../errors";
import { now } from "../lib/time";
import type { BookingContext } from "./context";
import type { MachineState } from "./machine";
import type { HoldSpan, ReservationRow } from "./reservations.repo";
import * as repo from "./reservations.repo";

const ATTEMPTS = 3;
/**
 * A table the engine chose and another booking took meanwhile is decided again on fresh data,
 * where that table now shows as held: each retry makes progress, so many parallel bookings of
 * one time fill every free table instead of giving up after ATTEMPTS rounds.
 */
const TABLE_ATTEMPTS = 25;

/** One day of a property as the engine decides on it: the catalog, its holds and arrivals. */
export type LoadedDay = Awaited<ReturnType<typeof loadAvailability>>;

/** The day `date`, read fresh from the database when a write was refused on older data. */
export function loadDay(ctx: BookingContext, date: string, fresh: boolean): Promise<LoadedDay> {
  return loadAvailability(ctx.db, ctx.property, date, date, { fresh });
}

export function engineOf(day: LoadedDay, withArrivals = true): Availability {
  return new Availability(day.catalog, day.holds, now(), withArrivals ? day.arrivals : undefined);
}

/**
 * The engine's refusal as the API answers it; `reason` and `table_ids` (extension members) let a
 * client say it in its own words, naming the tables.
 */
export function refusal(
  code: Refusal,
  detail: string,
  more: { why?: string | undefined; tableIds?: number[] | undefined } = {},
): ApiError {
  const extensions = {
    ...(more.why && { reason: more.why }),
    ...(more.tableIds?.length && { table_ids: more.tableIds }),
  };
  return new ApiError(code, detail, Object.keys(extensions).length ? { extensions } : {});
}

/**
 * A group holds itself and each member, so a group and its members block each other. Each
 * hold spans the wall clock the stay covers (Availability.span: a clock-change night's stay
 * reaches its real end), as the engine's free-table check reads it.
 */
export function holdSpans(
  engine: Availability,
  tables: EngineTable[],
  start: number,
  stay: number,
): HoldSpan[] {
  const ids = new Set<number>();
  for (const t of tables) for (const id of [t.id, ...t.memberIds]) ids.add(id);
  const { from, to } = engine.span(start, stay);
  return [...ids].map((tableId) => ({ tableId, startMin: from, endMin: to }));
}

export function machineState(r: ReservationRow): MachineState {
  return {
    status: r.status as ReservationStatus,
    checkedIn: r.checkinDate !== null,
    checkedOut: r.checkoutDate !== null,
    checkinPrev: r.checkinPrevStatus as ReservationStatus | null,
    checkoutPrev: r.checkoutPrevStatus as ReservationStatus | null,
    noShow: r.status === "EXPIRED" && r.statusReason === "no_show",
  };
}

/** How many times each kind of refusal has sent a write back to be decided again. */
export interface Tries {
  table: number;
  other: number;
}
export const newTries = (): Tries => ({ table: 0, other: 0 });

/** Says what the guest can do, and nothing about which bookings, of whom, count. */
export function guestLimitReached(): ApiError {
  return new ApiError(
    "guest_booking_limit",
    "this email or phone already holds as many upcoming online bookings at this restaurant as it takes from one guest; cancel one, or call the restaurant",
  );
}

/**
 * What a write the database refused becomes: the table taken by another booking is final
 * when the caller named the tables (else decided again, up to TABLE_ATTEMPTS); a row,
 * customer or catalog changed meanwhile is decided again on fresh data, up to ATTEMPTS, then
 * 503. Returning means: try again.
 */
export function settle(
  err: unknown,
  tries: Tries,
  o: { tablesNamed?: boolean; noTable?: "resource_not_available" | "table_not_available" },
): void {
  const conflict = repo.writeConflict(err);
  if (!conflict) throw err;
  if (conflict === "service_gone")
    throw new ApiError("service_not_found", "the service was deleted a moment ago");
  if (conflict === "guest_booking_limit") throw guestLimitReached();
  if (conflict === "pacing_full")
    throw new ApiError(
      "booking_slot_not_available",
      "pacing: other parties reached the service's limit for this interval a moment ago",
    );
  if (conflict === "table_not_available") {
    if (o.tablesNamed || ++tries.table >= TABLE_ATTEMPTS)
      throw new ApiError(
        o.noTable ?? "table_not_available",
        "the table was taken by another booking a moment ago",
      );
    return;
  }
  if (++tries.other >= ATTEMPTS) {
    throw new ApiError(
      "service_unavailable",
      "the reservation is being changed by other requests; retry shortly",
      { headers: { "Retry-After": "1" } },
    );
  }
}

export function findService(services: EngineService[], id: number): EngineService {
  const service = services.find((s) => s.id === id);
  if (!service) throw new ApiError("service_not_found", `service ${id} does not exist in this property`);
  return service;
}

/**
 * room_id and table_ids must name live rooms and tables of the property; the tables given
 * share one room (room_id's, when given), and a group never comes with its own members.
 */
export function checkPlace(a: Availability, roomId: number | undefined, tableIds: number[] | undefined) {
  if (roomId !== undefined && !a.catalog.rooms.some((r) => r.id === roomId))
    throw new ApiError("room_not_found", `room ${roomId} does not exist in this property`);
  const tables = (tableIds ?? []).map((id) => a.catalog.tables.find((t) => t.id === id) ?? tableGone(id));
  const room = roomId ?? tables[0]?.roomId;
  for (const t of tables) {
    if (t.roomId !== room)
      throw withIds(
        invalidField(
          "table_ids",
          `table ${t.id} is in room ${t.roomId}, not in room ${room}: a party sits in one room`,
        ),
        { reason: "other_room", table_ids: [t.id], room_ids: [t.roomId, room!] },
      );
    const member = t.memberIds.find((m) => tableIds!.includes(m));
    if (member !== undefined)
      throw withIds(invalidField("table_ids", `table ${member} is already part of group ${t.id}`), {
        reason: "group_member",
        table_ids: [member, t.id],
      });
  }
}

/** The same refusal with extension members naming what it is about. */
function withIds(err: ApiError, extensions: Record<string, string | number[]>): ApiError {
  return new ApiError(err.code, err.detail, { ...err.options, extensions });
}

function tableGone(id: number): never {
  throw new ApiError("table_not_found", `table ${id} does not exist in this property`);
}

/** 404 when the id is unknown or belongs to a stranger; 403 when it belongs to another of the client's properties. */
export async function requireReservation(ctx: BookingContext, id: number): Promise<ReservationRow> {
  const preloaded = ctx.preloaded?.(id);
  const row = preloaded ? preloaded.row : await repo.getReservation(ctx.db, id);
  if (row && row.propertyId === ctx.property.id) return row;
  const other = await ctx.locateElsewhere?.(id);
  if (other !== undefined)
    throw new ApiError(
      "reservation_not_available",
      `reservation ${id} belongs to property ${other}, not to property ${ctx.property.id}`,
    );
  throw new ApiError("reservation_not_found", `reservation ${id} does not exist in this property`);
}
