/**
 * The availability engine. Pure: it takes a property's catalog, the holds on its tables, the
 * arrivals that pacing counts and the time now, and answers which tables are free, which times
 * can be booked (and why not) and which table fits a party best. No Hono, no drizzle: the routes
 * load the data and the same rules decide what the slot listing shows and what a booking may
 * take. The rules without state live in rules.ts.
 *
 * Times are local minutes (minutes since 1970-01-01 00:00 of the property's wall clock).
 */
import {
  addDays,
  fromLocalMinutes,
  isTransitionDay,
  localTimeExists,
  wallSpan,
  zonedParts,
} from "../lib/localtime";
import {
  type Arrival,
  bestChoice,
  type Catalog,
  capDate,
  closureCovers,
  type DayServiceSlots,
  type DaySlots,
  type Decision,
  END_OF_TIME,
  type EngineClosure,
  type EngineRoom,
  type EngineService,
  type EngineTable,
  firstFrom,
  type Hold,
  heldOnGrid,
  type Mode,
  paced,
  pacingBucket,
  pastMidnight,
  type Refusal,
  refuse,
  serviceDayOf,
  serviceGrid,
  serviceRunsOn,
  serviceSpan,
  stayMinutes,
  type TableRequest,
  type Unavailable,
} from "./rules";

export * from "./rules";

interface Verdict {
  refusal: Refusal;
  detail: string;
  why?: Unavailable;
}

/** "HH:MM:00" of every minute of a day, built once: a listing names hundreds of times. */
const HOURS = Array.from(
  { length: 1440 },
  (_, m) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00`,
);
const hourOf = (minute: number) => HOURS[((minute % 1440) + 1440) % 1440]!;

const DEFAULT_STAFF_DAYS = 730;

/** The engine over one catalog, one set of holds, the arrivals pacing counts and one "now". */
export class Availability {
  private readonly holdsByTable = new Map<number, Hold[]>();
  private readonly blockersByTable = new Map<number, Hold[]>();
  private longestHold = 0;
  private readonly rooms = new Map<number, EngineRoom>();
  private readonly transitionDays = new Map<number, boolean>();
  /** per service, sorted by start */
  private readonly arrivals = new Map<number, Arrival[]>();
  /** local minutes now, the earliest online start (now + min_notice), and the last bookable dates */
  readonly now: number;
  readonly earliestOnline: number;
  readonly today: string;
  readonly lastDate: string;
  readonly lastStaffDate: string;

  constructor(
    readonly catalog: Catalog,
    holds: Hold[],
    nowUtc: number,
    arrivals: Arrival[] = [],
  ) {
    for (const h of holds) {
      const list = this.holdsByTable.get(h.tableId);
      if (list) list.push(h);
      else this.holdsByTable.set(h.tableId, [h]);
      this.longestHold = Math.max(this.longestHold, h.endMin - h.startMin);
    }
    // Sorted by start, so isFree and pacing look only at what is near the time asked for.
    for (const list of this.holdsByTable.values()) list.sort((a, b) => a.startMin - b.startMin);
    for (const a of arrivals) {
      const list = this.arrivals.get(a.serviceId);
      if (list) list.push(a);
      else this.arrivals.set(a.serviceId, [a]);
    }
    for (const list of this.arrivals.values()) list.sort((a, b) => a.startMin - b.startMin);
    for (const r of catalog.rooms) this.rooms.set(r.id, r);
    const { settings } = catalog;
    const here = zonedParts(settings.timezone, nowUtc);
    this.now = here.minutes;
    this.today = here.date;
    this.earliestOnline = zonedParts(settings.timezone, nowUtc + settings.min_notice * 60000).minutes;
    this.lastDate = capDate(addDays(here.date, settings.max_days_ahead));
    this.lastStaffDate = capDate(addDays(here.date, settings.max_days_ahead_staff ?? DEFAULT_STAFF_DAYS));
  }

  /**
   * Free for a party of `stay` minutes at `start`: every hold r on the table, on a group
   * holding it (groups hold their members too) or on one of its members satisfies
   * start >= r.end or start + stay <= r.start. Stays are half-open, [start, start + stay): a
   * party leaving at 21:00 and one arriving at 21:00 share the table, in either order.
   */
  isFree(table: EngineTable, start: number, stay: number, ignoreReservation?: number): boolean {
    const list = this.blockers(table);
    // The wall clock the stay covers (a clock change makes it longer or shorter than `stay`).
    const { from, to } = this.span(start, stay);
    // Only holds starting after from - longestHold can still run at `from`.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.startMin <= from - this.longestHold) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.length; i++) {
      const h = list[i]!;
      if (h.startMin >= to) break;
      if (ignoreReservation !== undefined && h.reservationId === ignoreReservation) continue;
      if (from < h.endMin && h.startMin < to) return false;
    }
    return true;
  }

  /** The local minutes a stay of `stay` real minutes from `start` holds (wallSpan; plain arithmetic away from a clock change). */
  span(start: number, stay: number): { from: number; to: number; end: number } {
    if (!this.transitionDay(start) && !this.transitionDay(start + stay))
      return { from: start, to: start + stay, end: start + stay };
    return wallSpan(this.catalog.settings.timezone, start, stay);
  }

  /**
   * Which starts of a service day's grid the table's holds (its members' too) block for `stay`
   * minutes: 1 where held (written into `into` when given). `plain`: no clock change on the grid
   * (gridIsPlain), so a stay's span is plain arithmetic and the holds are marked hold by hold.
   */
  private heldOnGrid(
    table: EngineTable,
    grid: readonly number[],
    step: number,
    stay: number,
    plain: boolean,
    into?: Uint8Array,
  ): Uint8Array {
    if (plain)
      return heldOnGrid(this.blockers(table), this.longestHold, grid[0] ?? 0, step, grid.length, stay, into);
    // a clock change inside the grid: each start's stay covers its own wall-clock span
    return Uint8Array.from(grid, (start) => (this.isFree(table, start, stay) ? 0 : 1));
  }

  private gridIsPlain(grid: readonly number[], stay: number): boolean {
    const last = grid[grid.length - 1] ?? 0;
    return !this.transitionDay(grid[0] ?? 0) && !this.transitionDay(last) && !this.transitionDay(last + stay);
  }

  /** The holds on the table and, for a group, its members', by start: one list per table, built once per engine. */
  private blockers(table: EngineTable): Hold[] {
    let list = this.blockersByTable.get(table.id);
    if (!list) {
      // a single table's own list as it is (sorted already); a group's merged with its members'
      list = table.isGroup
        ? [table.id, ...table.memberIds]
            .flatMap((id) => this.holdsByTable.get(id) ?? [])
            .sort((a, b) => a.startMin - b.startMin)
        : (this.holdsByTable.get(table.id) ?? []);
      this.blockersByTable.set(table.id, list);
    }
    return list;
  }

  /**
   * Whether a closure closes the table to a party of `stay` minutes at `start` (its service
   * day from the service; `date`, the calendar date, when none is named).
   */
  isClosed(table: EngineTable, date: string, start: number, serviceId?: number, stay = 1): boolean {
    const service =
      serviceId === undefined ? undefined : this.catalog.services.find((s) => s.id === serviceId);
    const day = service ? serviceDayOf(service, start) : date;
    return this.catalog.closures.some((c) => closureCovers(c, day, start, stay, table, serviceId));
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
  private exists(minute: number): boolean {
    return !this.transitionDay(minute) || localTimeExists(this.catalog.settings.timezone, minute);
  }

  /** Whether the zone's offset may change on the local date of `minute` (isTransitionDay, kept per day). */
  private transitionDay(minute: number): boolean {
    const day = Math.floor(minute / 1440);
    let dst = this.transitionDays.get(day);
    if (dst === undefined) {
      dst = isTransitionDay(this.catalog.settings.timezone, fromLocalMinutes(minute).date);
      this.transitionDays.set(day, dst);
    }
    return dst;
  }

  /**
   * The rules of the time itself, before any table: the service runs that service day, the
   * time is on its grid (staff: within its hours), exists, is not past, respects notice and
   * the booking window (staff: max_days_ahead_staff), ends by 9999-12-31, and the party size
   * is open to the channel. `date` is the start's calendar date, kept for the callers' sake.
   */
  checkTime(
    service: EngineService,
    _date: string,
    start: number,
    pax: number,
    mode: Mode,
    stay = 0,
  ): Refusal | undefined {
    return this.timeVerdict(service, start, pax, mode, stay)?.refusal;
  }

  timeVerdict(service: EngineService, start: number, pax: number, mode: Mode, stay = 0): Verdict | undefined {
    const day = serviceDayOf(service, start);
    if (!serviceRunsOn(service, day))
      return { refusal: "service_is_not_available", detail: "the service does not run on this day" };
    if (mode === "online" && !service.online)
      return { refusal: "service_not_available", detail: "the service does not take online bookings" };
    const online = mode === "online" ? this.catalog.settings.max_online_pax : Infinity;
    if (pax < service.paxMin || pax > Math.min(service.paxMax ?? Infinity, online)) {
      return {
        refusal: "service_not_available",
        why: "party_size",
        detail: "the service does not take this party size through this channel",
      };
    }
    const [first, last] = serviceSpan(service, day);
    if (start < first || start > last || !this.exists(start))
      return slot("this time is outside the service's hours, or skipped by a clock change");
    if (start + stay >= END_OF_TIME) return slot("no stay may end after 9999-12-31", "window");
    const held = this.span(start, stay);
    if (held.to - held.from > 1440)
      return slot("a stay may not cover more than a day of the wall clock (a clock change adds an hour)");
    if (mode === "online") {
      const step = service.slotInterval ?? this.catalog.settings.slot_interval;
      if ((start - first) % step !== 0) return slot("this time is not on the service's grid");
      if (day > this.lastDate)
        return slot(`bookings open ${this.catalog.settings.max_days_ahead} days ahead`, "window");
      if (start < this.now || start < this.earliestOnline)
        return slot("this time is past or inside the notice", "notice");
      return undefined;
    }
    if (day > this.lastStaffDate)
      return slot(
        `staff may book up to ${this.catalog.settings.max_days_ahead_staff ?? DEFAULT_STAFF_DAYS} days ahead`,
        "window",
      );
    // Staff skip notice and may record a walk-in earlier today (or of last night's service still
    // running past midnight), but not rewrite past days.
    const stillRunning = pastMidnight(service) && day === addDays(this.today, -1) && this.now <= last;
    if (day < this.today && !stillRunning) return slot("this day is past", "notice");
    return undefined;
  }

  /** Whether the service's pacing takes this party at `start` (the reservation being moved aside). */
  pacingAllows(service: EngineService, start: number, pax: number, ignoreReservation?: number): boolean {
    if (!paced(service)) return true;
    const from = pacingBucket(service, start);
    const to = from + (service.pacingInterval ?? 15);
    const list = this.arrivals.get(service.id) ?? [];
    let covers = 0;
    let parties = 0;
    for (let i = firstFrom(list, from); i < list.length && list[i]!.startMin < to; i++) {
      if (list[i]!.reservationId === ignoreReservation) continue;
      covers += list[i]!.pax;
      parties++;
    }
    const { maxCoversPerInterval: covMax, maxPartiesPerInterval: partyMax } = service;
    return (covMax == null || covers + pax <= covMax) && (partyMax == null || parties + 1 <= partyMax);
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
        !this.isClosed(t, o.date, o.start, o.serviceId, o.stay),
    );
  }

  /**
   * Everything a booking needs: the time rules, the tables (see decideTables), then pacing,
   * which online bookings always obey and staff unless they override it.
   */
  decide(
    o: TableRequest & { service: EngineService; mode: Mode; overridePacing?: boolean | undefined },
  ): Decision {
    const stay = o.stay ?? stayMinutes(o.pax, this.catalog.settings, o.service);
    const verdict = this.timeVerdict(o.service, o.start, o.pax, o.mode, stay);
    if (verdict) return { ok: false, ...verdict };
    const decision = this.decideTables({ ...o, stay, serviceId: o.service.id });
    if (!decision.ok || (o.mode === "staff" && o.overridePacing)) return decision;
    return this.pacingAllows(o.service, o.start, o.pax, o.ignoreReservation)
      ? decision
      : pacingRefusal(o.service, o.start);
  }

  /**
   * The tables of a party whose time is already accepted. With `tableIds` the party takes
   * exactly those tables (their seats add up); without, the best choice is picked.
   */
  decideTables(o: TableRequest & { stay: number; mode: Mode; serviceId?: number | undefined }): Decision {
    const { stay } = o;
    const usable = this.usableTables(o.mode, o.roomId);
    const closed = (t: EngineTable) => this.isClosed(t, o.date, o.start, o.serviceId, stay);
    if (o.tableIds?.length) return this.decideAskedTables(o, usable, closed);
    const fitting = usable.filter((t) => t.guestsMin <= o.pax && o.pax <= t.guestsMax);
    if (!fitting.length)
      return refuse(
        "room_capacity_exceeded",
        "party_size",
        `no table ${o.roomId ? "in this room " : ""}seats a party of ${o.pax}`,
      );
    const open = fitting.filter((t) => !closed(t));
    if (!open.length) return refuse("booking_slot_not_available", "closed", "a closure covers this stay");
    const free = open.filter((t) => this.isFree(t, o.start, stay, o.ignoreReservation));
    const best = bestChoice(free, o.pax, o.spread);
    if (!best)
      return refuse("table_not_available", "full", `every table that seats ${o.pax} is held at this time`);
    return { ok: true, tables: [best], stay };
  }

  /** The party takes exactly the tables it asked for: they exist for its channel, seat it, are open and free. */
  private decideAskedTables(
    o: TableRequest & { stay: number; mode: Mode; tableIds?: number[] | undefined },
    usable: EngineTable[],
    closed: (t: EngineTable) => boolean,
  ): Decision {
    const asked = o.tableIds ?? [];
    const chosen = asked.map((id) => usable.find((t) => t.id === id));
    const missing = asked.filter((_, i) => !chosen[i]);
    if (missing.length) {
      const where = o.roomId ? " in this room" : "";
      return refuse(
        "table_not_available",
        "full",
        `table ${missing.join(", ")} cannot be booked by this channel${where}`,
      );
    }
    const tables = chosen as EngineTable[];
    const seats = tables.reduce((sum, t) => sum + t.guestsMax, 0);
    if (o.pax > seats)
      return refuse(
        "room_capacity_exceeded",
        "party_size",
        `the tables seat ${seats}, the party is ${o.pax}`,
      );
    // Online guests respect guests_min, as the best choice does; staff may seat anyone anywhere.
    const smallest = Math.min(...tables.map((t) => t.guestsMin));
    if (o.mode === "online" && o.pax < smallest)
      return refuse(
        "table_not_available",
        "party_size",
        `the tables asked for take parties of ${smallest} or more`,
      );
    if (tables.some(closed))
      return refuse(
        "booking_slot_not_available",
        "closed",
        "a closure covers this stay for the tables asked for",
      );
    const busy = tables.filter((t) => !this.isFree(t, o.start, o.stay, o.ignoreReservation));
    if (busy.length)
      return refuse(
        "table_not_available",
        "full",
        `table ${busy.map((t) => t.id).join(", ")} is held at this time`,
      );
    return { ok: true, tables, stay: o.stay };
  }

  /**
   * The slot listing of one service day: its times past midnight included.
   * `outOfOrder` false: closures are ignored and nothing is disabled; true: a time is
   * disabled when every table is closed to the party's stay, and closed tables neither count
   * as free nor make a time available. Each unavailable time says why (`reason`).
   */
  daySlots(date: string, pax: number, services: EngineService[], outOfOrder: boolean): DaySlots {
    // The hot path of /bookings/slots: what does not depend on the time is worked out once
    // per day and service. It must agree with decide() (a property-based test holds them).
    const usable = this.usableTables("online");
    const day: DayContext = {
      date,
      pax,
      usable,
      fitting: usable.filter((t) => t.guestsMin <= pax && pax <= t.guestsMax),
      // hours close calendar dates: a stay of a day's last times reaches two dates on
      closures: outOfOrder
        ? this.catalog.closures.filter((c) => c.endDate >= date && c.startDate <= addDays(date, 2))
        : [],
    };
    const available_services = services
      .filter((s) => serviceRunsOn(s, date))
      .map((s) => this.serviceSlots(s, day));
    return { day: date, available_services };
  }

  private serviceSlots(service: EngineService, d: DayContext): DayServiceSlots {
    const { settings } = this.catalog;
    const stay = stayMinutes(d.pax, settings, service);
    const partyFits =
      service.online &&
      d.pax >= service.paxMin &&
      d.pax <= Math.min(service.paxMax ?? Infinity, settings.max_online_pax);
    const closedAt = (t: EngineTable, start: number) =>
      d.closures.some((c) => closureCovers(c, d.date, start, stay, t, service.id));
    const entry: DayServiceSlots = { id: service.id, title: service.name, available_slots: [], slots: [] };
    const grid = serviceGrid(service, d.date, settings);
    const holds = this.gridHolds(grid, service.slotInterval ?? settings.slot_interval, stay);
    for (let k = 0; k < grid.length; k++) {
      const start = grid[k]!;
      if (!this.exists(start)) continue;
      const disabled =
        d.closures.length > 0 && d.usable.length > 0 && d.usable.every((t) => closedAt(t, start));
      // In decide()'s order: the party size, the window, the notice, then the tables.
      let reason: Unavailable | undefined = !partyFits
        ? "party_size"
        : d.date > this.lastDate || start + stay >= END_OF_TIME
          ? "window"
          : start < this.now || start < this.earliestOnline
            ? "notice"
            : !d.fitting.length
              ? "party_size"
              : disabled
                ? "closed"
                : undefined;
      let free = 0;
      if (!reason) {
        const open = d.closures.length ? d.fitting.filter((t) => !closedAt(t, start)) : d.fitting;
        if (open === d.fitting) free = holds.free(open)[k] ?? 0;
        else for (const t of open) if (!holds.held(t)[k]) free++;
        reason = !open.length
          ? "closed"
          : !free
            ? "full"
            : this.pacingAllows(service, start, d.pax)
              ? undefined
              : "pacing";
      }
      const hour = hourOf(start);
      // built field by field, in the answer's order (a spread costs more, 850 times a week)
      const slotEntry: DayServiceSlots["slots"][number] = { hour, disabled, free_tables: free };
      if (reason) slotEntry.reason = reason;
      entry.slots.push(slotEntry);
      if (!reason) entry.available_slots.push(hour);
    }
    return entry;
  }

  /**
   * A service day's grid and the tables' holds on it, worked out when first needed: `held`, one
   * table's held starts (kept per table); `free`, how many of the tables are free at each start
   * (without closures every time counts the same tables: they are counted once for the grid).
   */
  private gridHolds(grid: number[], step: number, stay: number) {
    const plain = this.gridIsPlain(grid, stay);
    const heldByTable = new Map<EngineTable, Uint8Array>();
    let free: Int32Array | undefined;
    return {
      held: (t: EngineTable) => {
        let h = heldByTable.get(t);
        if (!h) {
          h = this.heldOnGrid(t, grid, step, stay, plain);
          heldByTable.set(t, h);
        }
        return h;
      },
      free: (tables: EngineTable[]) => {
        if (free) return free;
        free = new Int32Array(grid.length).fill(tables.length);
        // one buffer for every table: nothing kept per table
        const scratch = new Uint8Array(grid.length);
        for (const t of tables) {
          const h = this.heldOnGrid(t, grid, step, stay, plain, scratch);
          for (let k = 0; k < h.length; k++) free[k]! -= h[k]!;
        }
        return free;
      },
    };
  }
}

interface DayContext {
  date: string;
  pax: number;
  usable: EngineTable[];
  fitting: EngineTable[];
  closures: EngineClosure[];
}

function slot(detail: string, why?: Unavailable): Verdict {
  return { refusal: "booking_slot_not_available", detail, ...(why && { why }) };
}

/** The refusal of a party the service's pacing does not take at `start`, naming the limits and the interval. */
export function pacingRefusal(service: EngineService, start: number): Decision & { ok: false } {
  const from = pacingBucket(service, start);
  const limits = [
    service.maxCoversPerInterval != null ? `${service.maxCoversPerInterval} covers` : "",
    service.maxPartiesPerInterval != null ? `${service.maxPartiesPerInterval} parties` : "",
  ].filter(Boolean);
  const detail = `pacing: the kitchen takes at most ${limits.join(" and ")} starting between ${hourOf(from).slice(0, 5)} and ${hourOf(from + (service.pacingInterval ?? 15)).slice(0, 5)}`;
  return { ok: false, refusal: "booking_slot_not_available", why: "pacing", detail };
}
