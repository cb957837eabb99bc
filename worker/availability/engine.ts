/**
 * The availability engine (CONTRACT 5). Pure: it takes a property's catalog, the holds on
 * its tables and the time now, and answers which tables are free, which times can be
 * booked and which table fits a party best. No Hono, no drizzle: the routes load the data
 * and the same rules decide what the slot listing shows and what a booking may take.
 *
 * Times are local minutes (minutes since 1970-01-01 00:00 of the property's wall clock).
 */
import type { Settings } from "../../shared/schemas";
import { addDays, isoWeekday, isTransitionDay, localMinutes, localTimeExists, zonedParts } from "../lib/localtime";

export type EngineSettings = Pick<
  Settings,
  "timezone" | "average_stay" | "turn_times" | "slot_interval" | "min_notice" | "max_days_ahead" | "max_online_pax"
>;

export interface EngineRoom {
  id: number;
  name: string;
  bookable: boolean;
}

export interface EngineTable {
  id: number;
  roomId: number;
  name: string;
  guestsMin: number;
  guestsMax: number;
  bookable: boolean;
  online: boolean;
  isGroup: boolean;
  memberIds: number[];
}

export interface EngineService {
  id: number;
  name: string;
  weekdays: number[];
  startHour: string;
  endHour: string;
  slotInterval: number | null;
  averageStay: number | null;
  paxMin: number;
  paxMax: number | null;
  online: boolean;
  enabled: boolean;
  validFrom: string | null;
  validTo: string | null;
  /** minutes to pay; set: new reservations start PREPAY (the engine itself ignores it) */
  prepaymentWindow?: number | null;
}

export interface EngineClosure {
  startDate: string;
  endDate: string;
  startHour: string | null;
  endHour: string | null;
  roomIds: number[] | null;
  tableIds: number[] | null;
  serviceIds: number[] | null;
}

/** One held table over [startMin, endMin); a group reservation holds the group and each member. */
export interface Hold {
  /** absent where nothing is set aside (slot listings never ignore a reservation) */
  reservationId?: number;
  tableId: number;
  startMin: number;
  endMin: number;
}

export interface Catalog {
  settings: EngineSettings;
  rooms: EngineRoom[];
  tables: EngineTable[];
  services: EngineService[];
  closures: EngineClosure[];
}

/**
 * Who books. Online (booking engine, search engine): online tables and services only,
 * on the service's grid, within notice and the booking window. Staff (PLATFORM_ADMIN):
 * also offline tables and services, any minute within the service's hours, no notice.
 */
export type Mode = "online" | "staff";

/** Why a time cannot be booked; the routes map each to SPEC's reason. */
export type Refusal =
  | "service_is_not_available" // the service does not run that day
  | "service_not_available" // the service or party size is not open to this channel
  | "booking_slot_not_available" // off the grid, past, too soon, too far ahead, closed, or a skipped DST time
  | "room_capacity_exceeded" // no table (or the tables asked for) can seat the party
  | "table_not_available"; // tables fit, but none is free

/** Stay of a party: the first turn_times rule with pax <= max_pax, else the service's average_stay, else the property's. */
export function stayMinutes(pax: number, settings: Pick<EngineSettings, "turn_times" | "average_stay">, service?: Pick<EngineService, "averageStay">): number {
  const rule = settings.turn_times.find((r) => pax <= r.max_pax);
  return rule?.minutes ?? service?.averageStay ?? settings.average_stay;
}

/** Does this service run on this date (weekday, validity, enabled)? */
export function serviceRunsOn(service: EngineService, date: string): boolean {
  if (!service.enabled) return false;
  if (service.validFrom && date < service.validFrom) return false;
  if (service.validTo && date > service.validTo) return false;
  return service.weekdays.includes(isoWeekday(date));
}

/** The service's start times of a day as local minutes: start_hour to end_hour, every slot_interval. */
export function serviceGrid(service: EngineService, date: string, settings: Pick<EngineSettings, "slot_interval">): number[] {
  const first = localMinutes(date, service.startHour);
  const last = localMinutes(date, service.endHour);
  const step = service.slotInterval ?? settings.slot_interval;
  const out: number[] = [];
  for (let t = first; t <= last; t += step) out.push(t);
  return out;
}

/** Does the closure cover this table of this room, for this service, at this local time? */
export function closureCovers(c: EngineClosure, date: string, minute: number, table: EngineTable, serviceId: number | undefined): boolean {
  if (date < c.startDate || date > c.endDate) return false;
  if (c.startHour && c.endHour) {
    const from = localMinutes(date, c.startHour);
    const to = localMinutes(date, c.endHour);
    if (minute < from || minute >= to) return false;
  }
  if (c.roomIds && !c.roomIds.includes(table.roomId)) return false;
  // Closing one table closes the groups it belongs to; closing a group closes only the group.
  if (c.tableIds && !c.tableIds.includes(table.id) && !table.memberIds.some((m) => c.tableIds!.includes(m))) return false;
  if (c.serviceIds && (serviceId === undefined || !c.serviceIds.includes(serviceId))) return false;
  return true;
}

/**
 * Best choice: a single table before a group, then fewest empty seats, then lowest id.
 * `spread` (0 <= spread < 1) replaces "lowest id" by a pick among the tables that tie on the
 * first two: bookings racing for one time, each retrying with its own spread, then land on
 * different equally good tables instead of all losing the same one again.
 */
export function bestChoice<T extends Pick<EngineTable, "id" | "isGroup" | "guestsMax">>(tables: T[], pax: number, spread?: number): T | undefined {
  const key = (t: T) => [Number(t.isGroup), t.guestsMax - pax, t.id] as const;
  let best: T | undefined;
  for (const t of tables) {
    if (!best) {
      best = t;
      continue;
    }
    const [a, b] = [key(t), key(best)];
    if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) best = t;
  }
  if (!best || spread === undefined) return best;
  const ties = tables.filter((t) => Number(t.isGroup) === Number(best.isGroup) && t.guestsMax === best.guestsMax).sort((a, b) => a.id - b.id);
  return ties[Math.floor(spread * ties.length)] ?? best;
}

export interface SlotDetail {
  hour: string;
  disabled: boolean;
  free_tables: number;
}

export interface DayServiceSlots {
  id: number;
  title: string;
  available_slots: string[];
  slots: SlotDetail[];
}

export interface DaySlots {
  day: string;
  available_services: DayServiceSlots[];
}

export interface TableRequest {
  date: string;
  start: number;
  pax: number;
  stay?: number | undefined;
  roomId?: number | undefined;
  tableIds?: number[] | undefined;
  /** the reservation being moved: its own holds do not block it */
  ignoreReservation?: number | undefined;
  /** a retry after losing a table to another booking: see bestChoice */
  spread?: number | undefined;
}

export type Decision = { ok: true; tables: EngineTable[]; stay: number } | { ok: false; refusal: Refusal; detail: string };

const hourOf = (minute: number) => {
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00`;
};

/** The engine over one catalog, one set of holds and one "now". */
export class Availability {
  private readonly holdsByTable = new Map<number, Hold[]>();
  private readonly blockersByTable = new Map<number, Hold[]>();
  private longestHold = 0;
  private readonly rooms = new Map<number, EngineRoom>();
  private readonly transitionDays = new Map<string, boolean>();
  /** local minutes now, the earliest online start (now + min_notice), and the last bookable date */
  readonly now: number;
  readonly earliestOnline: number;
  readonly today: string;
  readonly lastDate: string;

  constructor(
    readonly catalog: Catalog,
    holds: Hold[],
    nowUtc: number,
  ) {
    for (const h of holds) {
      const list = this.holdsByTable.get(h.tableId);
      if (list) list.push(h);
      else this.holdsByTable.set(h.tableId, [h]);
      this.longestHold = Math.max(this.longestHold, h.endMin - h.startMin);
    }
    // Sorted by start, so isFree looks only at the holds near the time asked for.
    for (const list of this.holdsByTable.values()) list.sort((a, b) => a.startMin - b.startMin);
    for (const r of catalog.rooms) this.rooms.set(r.id, r);
    const tz = catalog.settings.timezone;
    const here = zonedParts(tz, nowUtc);
    this.now = here.minutes;
    this.today = here.date;
    this.earliestOnline = zonedParts(tz, nowUtc + catalog.settings.min_notice * 60000).minutes;
    this.lastDate = addDays(here.date, catalog.settings.max_days_ahead);
  }

  /**
   * Free for a party of `stay` minutes at `start`: every hold r on the table, on a group
   * holding it (groups hold their members too) or on one of its members satisfies
   * start >= r.end or start < r.start - stay.
   */
  isFree(table: EngineTable, start: number, stay: number, ignoreReservation?: number): boolean {
    const list = this.blockers(table);
    // Only holds starting after start - longestHold can still run at `start`.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.startMin <= start - this.longestHold) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.length; i++) {
      const h = list[i]!;
      if (h.startMin > start + stay) break;
      if (ignoreReservation !== undefined && h.reservationId === ignoreReservation) continue;
      if (start < h.endMin && start + stay >= h.startMin) return false;
    }
    return true;
  }

  /** The holds on the table and, for a group, its members', by start (one list: a listing asks isFree thousands of times). */
  private blockers(table: EngineTable): Hold[] {
    let list = this.blockersByTable.get(table.id);
    if (!list) {
      const ids = table.isGroup ? [table.id, ...table.memberIds] : [table.id];
      list = ids.flatMap((id) => this.holdsByTable.get(id) ?? []);
      if (ids.length > 1) list.sort((a, b) => a.startMin - b.startMin);
      this.blockersByTable.set(table.id, list);
    }
    return list;
  }

  isClosed(table: EngineTable, date: string, start: number, serviceId?: number): boolean {
    return this.catalog.closures.some((c) => closureCovers(c, date, start, table, serviceId));
  }

  /** Tables a channel may seat people at: bookable, in a bookable room, online unless staff. */
  usableTables(mode: Mode, roomId?: number): EngineTable[] {
    return this.catalog.tables.filter(
      (t) =>
        t.bookable &&
        (this.rooms.get(t.roomId)?.bookable ?? false) &&
        (mode === "staff" || t.online) &&
        (roomId === undefined || t.roomId === roomId),
    );
  }

  /** Whether the local time exists (a spring-forward day skips an hour). */
  private exists(date: string, minute: number): boolean {
    const tz = this.catalog.settings.timezone;
    let dst = this.transitionDays.get(date);
    if (dst === undefined) {
      dst = isTransitionDay(tz, date);
      this.transitionDays.set(date, dst);
    }
    return !dst || localTimeExists(tz, minute);
  }

  /**
   * The rules of the time itself, before any table: the service runs that day, the time
   * is on its grid (staff: within its hours), exists, is not past, respects notice and the
   * booking window, and the party size is open to the channel.
   */
  checkTime(service: EngineService, date: string, start: number, pax: number, mode: Mode): Refusal | undefined {
    if (!serviceRunsOn(service, date)) return "service_is_not_available";
    if (mode === "online" && !service.online) return "service_not_available";
    if (pax < service.paxMin || (service.paxMax !== null && pax > service.paxMax)) return "service_not_available";
    if (mode === "online" && pax > this.catalog.settings.max_online_pax) return "service_not_available";
    const first = localMinutes(date, service.startHour);
    const last = localMinutes(date, service.endHour);
    if (start < first || start > last) return "booking_slot_not_available";
    if (!this.exists(date, start)) return "booking_slot_not_available";
    if (mode === "online") {
      const step = service.slotInterval ?? this.catalog.settings.slot_interval;
      if ((start - first) % step !== 0) return "booking_slot_not_available";
      if (start < this.now || start < this.earliestOnline || date > this.lastDate) return "booking_slot_not_available";
    } else if (date < this.today) {
      // Staff skip notice and window, and may record a walk-in earlier today, but not rewrite past days.
      return "booking_slot_not_available";
    }
    return undefined;
  }

  /** Tables that seat the party and are free and open at `start`. */
  freeTables(o: {
    pax: number;
    start: number;
    stay: number;
    date: string;
    mode: Mode;
    serviceId?: number;
    roomId?: number;
    ignoreReservation?: number;
  }): EngineTable[] {
    return this.usableTables(o.mode, o.roomId).filter(
      (t) =>
        t.guestsMin <= o.pax &&
        o.pax <= t.guestsMax &&
        this.isFree(t, o.start, o.stay, o.ignoreReservation) &&
        !this.isClosed(t, o.date, o.start, o.serviceId),
    );
  }

  /** Everything a booking needs: the time rules, then the tables (see decideTables). */
  decide(o: TableRequest & { service: EngineService; mode: Mode }): Decision {
    const stay = o.stay ?? stayMinutes(o.pax, this.catalog.settings, o.service);
    const timeRefusal = this.checkTime(o.service, o.date, o.start, o.pax, o.mode);
    if (timeRefusal) return { ok: false, refusal: timeRefusal, detail: TIME_DETAIL[timeRefusal] };
    return this.decideTables({ ...o, stay, serviceId: o.service.id });
  }

  /**
   * The tables of a party whose time is already accepted. With `tableIds` the party takes
   * exactly those tables (their seats add up); without, the best choice is picked.
   */
  decideTables(o: TableRequest & { stay: number; mode: Mode; serviceId?: number | undefined }): Decision {
    const { stay } = o;
    const usable = this.usableTables(o.mode, o.roomId);
    if (o.tableIds?.length) {
      const chosen = o.tableIds.map((id) => usable.find((t) => t.id === id));
      const missing = o.tableIds.filter((_, i) => !chosen[i]);
      if (missing.length) {
        return { ok: false, refusal: "table_not_available", detail: `table ${missing.join(", ")} cannot be booked by this channel${o.roomId ? " in this room" : ""}` };
      }
      const tables = chosen as EngineTable[];
      const seats = tables.reduce((sum, t) => sum + t.guestsMax, 0);
      if (o.pax > seats) return { ok: false, refusal: "room_capacity_exceeded", detail: `the tables seat ${seats}, the party is ${o.pax}` };
      // Online guests respect guests_min, as the best choice does; staff may seat anyone anywhere.
      const smallest = Math.min(...tables.map((t) => t.guestsMin));
      if (o.mode === "online" && o.pax < smallest) {
        return { ok: false, refusal: "table_not_available", detail: `the tables asked for take parties of ${smallest} or more` };
      }
      if (tables.some((t) => this.isClosed(t, o.date, o.start, o.serviceId))) {
        return { ok: false, refusal: "booking_slot_not_available", detail: "a closure covers this time for the tables asked for" };
      }
      const busy = tables.filter((t) => !this.isFree(t, o.start, stay, o.ignoreReservation));
      if (busy.length) return { ok: false, refusal: "table_not_available", detail: `table ${busy.map((t) => t.id).join(", ")} is held at this time` };
      return { ok: true, tables, stay };
    }
    const fitting = usable.filter((t) => t.guestsMin <= o.pax && o.pax <= t.guestsMax);
    if (!fitting.length) return { ok: false, refusal: "room_capacity_exceeded", detail: `no table ${o.roomId ? "in this room " : ""}seats a party of ${o.pax}` };
    const open = fitting.filter((t) => !this.isClosed(t, o.date, o.start, o.serviceId));
    if (!open.length) return { ok: false, refusal: "booking_slot_not_available", detail: "a closure covers this time" };
    const best = bestChoice(
      open.filter((t) => this.isFree(t, o.start, stay, o.ignoreReservation)),
      o.pax,
      o.spread,
    );
    if (!best) return { ok: false, refusal: "table_not_available", detail: `every table that seats ${o.pax} is held at this time` };
    return { ok: true, tables: [best], stay };
  }

  /**
   * The slot listing of one day (CONTRACT 5). `outOfOrder` false: closures are ignored and
   * nothing is disabled (SPEC); true: a time is disabled when every table is closed, and
   * closed tables neither count as free nor make a time available.
   */
  daySlots(date: string, pax: number, services: EngineService[], outOfOrder: boolean): DaySlots {
    // The hot path of /bookings/slots: what does not depend on the time is worked out once
    // per day and service. It must agree with checkTime and freeTables (a property-based
    // test holds the listing against decide()).
    const available_services: DayServiceSlots[] = [];
    const usable = this.usableTables("online");
    const fitting = usable.filter((t) => t.guestsMin <= pax && pax <= t.guestsMax);
    const closures = outOfOrder ? this.catalog.closures.filter((c) => date >= c.startDate && date <= c.endDate) : [];
    const { settings } = this.catalog;
    for (const service of services) {
      if (!serviceRunsOn(service, date)) continue;
      const stay = stayMinutes(pax, settings, service);
      const partyFits = service.online && pax >= service.paxMin && (service.paxMax === null || pax <= service.paxMax) && pax <= settings.max_online_pax;
      const inWindow = date <= this.lastDate;
      const closedAt = (t: EngineTable, start: number) => closures.some((c) => closureCovers(c, date, start, t, service.id));
      const entry: DayServiceSlots = { id: service.id, title: service.name, available_slots: [], slots: [] };
      for (const start of serviceGrid(service, date, settings)) {
        if (!this.exists(date, start)) continue;
        const disabled = closures.length > 0 && usable.length > 0 && usable.every((t) => closedAt(t, start));
        const bookable = !disabled && partyFits && inWindow && start >= this.now && start >= this.earliestOnline;
        let free = 0;
        if (bookable) for (const t of fitting) if (this.isFree(t, start, stay) && !(closures.length && closedAt(t, start))) free++;
        const hour = hourOf(start);
        entry.slots.push({ hour, disabled, free_tables: free });
        if (free > 0) entry.available_slots.push(hour);
      }
      available_services.push(entry);
    }
    return { day: date, available_services };
  }
}

const TIME_DETAIL: Record<Refusal, string> = {
  service_is_not_available: "the service does not run on this day",
  service_not_available: "the service does not take this party size through this channel",
  booking_slot_not_available: "this time cannot be booked: off the service's times, past, too soon, too far ahead or closed",
  room_capacity_exceeded: "no table seats the party",
  table_not_available: "no table is free",
};
