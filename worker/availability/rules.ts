/**
 * The availability engine's vocabulary and its rules that need no state: stays, service days
 * (a service may run past midnight), grids, closures over a stay, pacing intervals and the best
 * choice. Pure: no Hono, no drizzle; engine.ts applies them.
 *
 * Times are local minutes (minutes since 1970-01-01 00:00 of the property's wall clock).
 */
import type { PaymentPolicy } from "../../shared/payment";
import type { Settings } from "../../shared/schemas";
import { addDays, fromLocalMinutes, isoWeekday, localMinutes } from "../lib/localtime";

export type EngineSettings = Pick<
  Settings,
  | "timezone"
  | "average_stay"
  | "turn_times"
  | "slot_interval"
  | "min_notice"
  | "max_days_ahead"
  | "max_online_pax"
> &
  Partial<Pick<Settings, "max_days_ahead_staff">>;

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
  /** first bookable start; an end_hour earlier than it runs past midnight */
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
  /** what a booking pays through Stripe (the engine itself ignores it) */
  payment?: PaymentPolicy | null;
  /** pacing: the interval (default 15) and its limits (null or absent: none) */
  pacingInterval?: number;
  maxCoversPerInterval?: number | null;
  maxPartiesPerInterval?: number | null;
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

/** The statuses of a party that will arrive, which pacing counts (a staff block is no arrival). */
export const ARRIVING = ["PREPAY", "ACCEPTED", "CONFIRMED"] as const;

/** A party that will arrive (ARRIVING), for pacing. */
export interface Arrival {
  reservationId: number;
  serviceId: number;
  startMin: number;
  pax: number;
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
 * on the service's grid, within notice and the booking window, always paced. Staff
 * (PLATFORM_ADMIN): also offline tables and services, any minute within the service's
 * hours, no notice, up to max_days_ahead_staff, paced unless they override it.
 */
export type Mode = "online" | "staff";

/** Why a time cannot be booked; the routes map each to the reason phrase the API documents. */
export type Refusal =
  | "service_is_not_available" // the service does not run that day
  | "service_not_available" // the service or party size is not open to this channel
  | "booking_slot_not_available" // off the grid, past, too soon, too far ahead, closed, paced out, or a skipped DST time
  | "room_capacity_exceeded" // no table (or the tables asked for) can seat the party
  | "table_not_available"; // tables fit, but none is free

/** Why a time of the grid is unavailable, in the words of staff screens (the slots' `reason`). */
export const UNAVAILABLE = ["full", "pacing", "closed", "notice", "window", "party_size"] as const;
export type Unavailable = (typeof UNAVAILABLE)[number];

/** A time of a slot listing: what the engine answers for it. */
export interface SlotDetail {
  hour: string;
  disabled: boolean;
  free_tables: number;
  /** why the time cannot be booked (absent when it can) */
  reason?: Unavailable;
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
  /** the calendar date of the start (the service day is derived from the start and the service) */
  date: string;
  start: number;
  pax: number;
  stay?: number | undefined;
  roomId?: number | undefined;
  tableIds?: number[] | undefined;
  /** the reservation being moved: its own holds and arrival do not count against it */
  ignoreReservation?: number | undefined;
  /** a retry after losing a table to another booking: see bestChoice */
  spread?: number | undefined;
}

export type Decision =
  | { ok: true; tables: EngineTable[]; stay: number }
  | { ok: false; refusal: Refusal; detail: string; why?: Unavailable | undefined };

/** A refusal, as the engine answers it. */
export const refuse = (refusal: Refusal, why: Unavailable | undefined, detail: string): Decision => ({
  ok: false,
  refusal,
  why,
  detail,
});

/** No stay may end after 9999-12-31 (dates have four digits): the first minute of year 10000. */
export const END_OF_TIME = localMinutes("9999-12-31") + 1440;
export const LAST_DATE = "9999-12-31";

/** A date, or 9999-12-31 when it would pass it (dates compare as strings only while they have four-digit years). */
export const capDate = (date: string) => (date.length > 10 || date > LAST_DATE ? LAST_DATE : date);

/** `count` days from `first`, none past 9999-12-31 (a listing never shows year 10000). */
export function listedDays(first: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(first, i)).filter(
    (d) => d.length === 10 && d <= LAST_DATE,
  );
}

/** Stay of a party: the first turn_times rule with pax <= max_pax, else the service's average_stay, else the property's. */
export function stayMinutes(
  pax: number,
  settings: Pick<EngineSettings, "turn_times" | "average_stay">,
  service?: Pick<EngineService, "averageStay">,
): number {
  const rule = settings.turn_times.find((r) => pax <= r.max_pax);
  return rule?.minutes ?? service?.averageStay ?? settings.average_stay;
}

/** A service whose last start is earlier in the day than its first runs past midnight. */
export const pastMidnight = (s: Pick<EngineService, "startHour" | "endHour">) => s.endHour < s.startHour;

/**
 * The service day a start belongs to: its calendar date, or the day before for
 * the part of a service past midnight. Weekdays, validity, closures and the listing go by it.
 */
export function serviceDayOf(service: Pick<EngineService, "startHour" | "endHour">, start: number): string {
  const { date, hour } = fromLocalMinutes(start);
  return pastMidnight(service) && hour <= service.endHour ? addDays(date, -1) : date;
}

/** Does this service run on this service day (weekday, validity, enabled)? */
export function serviceRunsOn(service: EngineService, date: string): boolean {
  if (!service.enabled) return false;
  if (service.validFrom && date < service.validFrom) return false;
  if (service.validTo && date > service.validTo) return false;
  return service.weekdays.includes(isoWeekday(date));
}

/** Minutes a clock change can add to a stay's wall-clock span: two hours, the widest shift any zone makes. */
const CLOCK_SHIFT = 120;

/**
 * How far past the start of a service day's date a party listed that day can hold a table: the
 * latest last start of the services (past midnight too), plus the longest stay the settings or a
 * service give, plus a clock change. A hold starting later blocks nothing a listing shows.
 */
export function listingReach(
  settings: Pick<EngineSettings, "turn_times" | "average_stay">,
  services: Pick<EngineService, "startHour" | "endHour" | "averageStay">[],
): number {
  const longest = Math.max(
    settings.average_stay,
    ...settings.turn_times.map((r) => r.minutes),
    ...services.map((s) => s.averageStay ?? 0),
  );
  const lastStart = Math.max(0, ...services.map((s) => serviceSpan(s, "1970-01-01")[1]));
  return lastStart + longest + CLOCK_SHIFT;
}

/** The first and the last start of a service day, in local minutes. */
export function serviceSpan(
  service: Pick<EngineService, "startHour" | "endHour">,
  date: string,
): [number, number] {
  return [
    localMinutes(date, service.startHour),
    localMinutes(date, service.endHour) + (pastMidnight(service) ? 1440 : 0),
  ];
}

/** The service's start times of a service day: start_hour to end_hour (past midnight too), every slot_interval. */
export function serviceGrid(
  service: EngineService,
  date: string,
  settings: Pick<EngineSettings, "slot_interval">,
): number[] {
  const [first, last] = serviceSpan(service, date);
  const step = service.slotInterval ?? settings.slot_interval;
  const out: number[] = [];
  for (let t = first; t <= last; t += step) out.push(t);
  return out;
}

/**
 * Does the closure close this table, for this service, to a party of `stay` minutes starting
 * at `start` on `serviceDay`? Whole days close those service days (a late service's hours past
 * midnight included, the previous night's party finishing into them not); hours close
 * [start_hour, end_hour) of each calendar date in the range (end_hour 24:00: to the end of the
 * day, its last minute included), or, when end_hour is not after start_hour, each night from
 * start_hour to end_hour of the next date, end_date being the last night's morning. They refuse
 * a party whose stay overlaps them, not only one that starts inside.
 */
export function closureCovers(
  c: EngineClosure,
  serviceDay: string,
  start: number,
  stay: number,
  table: EngineTable,
  serviceId: number | undefined,
): boolean {
  if (c.roomIds && !c.roomIds.includes(table.roomId)) return false;
  // Closing one table closes the groups it belongs to; closing a group closes only the group.
  if (c.tableIds && !c.tableIds.includes(table.id) && !table.memberIds.some((m) => c.tableIds!.includes(m)))
    return false;
  if (c.serviceIds && (serviceId === undefined || !c.serviceIds.includes(serviceId))) return false;
  if (!c.startHour || !c.endHour) return serviceDay >= c.startDate && serviceDay <= c.endDate;
  const b = bounds(c);
  const end = start + Math.max(stay, 1);
  // A stay is at most a day and a window at most a day: only the windows opening on the day
  // before the stay's start up to the day of its last minute can meet it.
  const first = Math.max(Math.floor(start / 1440) - 1, b.firstDay);
  const last = Math.min(Math.floor((end - 1) / 1440), b.lastOpening);
  for (let day = first; day <= last; day++) {
    if (start < day * 1440 + b.to && end > day * 1440 + b.from) return true;
  }
  return false;
}

/**
 * A closure's hours as minutes from the midnight of the date a window opens (`to` past 1440
 * for a window past midnight) and the day numbers of its first and last opening, worked out
 * once per closure (the listing's hot path).
 */
const closureBounds = new WeakMap<
  EngineClosure,
  { firstDay: number; lastOpening: number; from: number; to: number }
>();
function bounds(c: EngineClosure) {
  let b = closureBounds.get(c);
  if (!b) {
    const minutesOf = (hour: string | null) => localMinutes("1970-01-01", hour ?? "00:00");
    const from = minutesOf(c.startHour);
    const to = minutesOf(c.endHour);
    const overnight = c.endHour! <= c.startHour!;
    const lastDay = localMinutes(c.endDate) / 1440;
    b = {
      firstDay: localMinutes(c.startDate) / 1440,
      lastOpening: overnight ? lastDay - 1 : lastDay,
      from,
      to: overnight ? to + 1440 : to,
    };
    closureBounds.set(c, b);
  }
  return b;
}

/** The index of the first item starting at or after `from` (the list is sorted by start). */
export function firstFrom(list: readonly { startMin: number }[], from: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.startMin < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Which starts of a grid (`count` times from `first`, every `step` minutes) the holds block for a
 * party of `stay` minutes: 1 where held. The same rule as Availability.isFree (a hold [s, e)
 * blocks the starts in (s - stay, e): half-open stays, so back-to-back parties do not clash), applied hold by hold instead of time by time: a listing
 * then costs the table's holds of the day plus the grid, not a search per time.
 * `holds`: sorted by start, none longer than `longest` minutes. `into`: a buffer of `count` to
 * write into (cleared first) instead of a new one.
 */
export function heldOnGrid(
  holds: readonly Hold[],
  longest: number,
  first: number,
  step: number,
  count: number,
  stay: number,
  into?: Uint8Array,
): Uint8Array {
  const held = into ? into.fill(0) : new Uint8Array(count);
  const last = first + (count - 1) * step;
  for (
    let i = firstFrom(holds, first - longest + 1);
    i < holds.length && holds[i]!.startMin < last + stay;
    i++
  ) {
    const h = holds[i]!;
    // the first start on the grid later than h.startMin - stay
    const from = Math.max(0, Math.floor((h.startMin - stay - first) / step) + 1);
    const to = Math.min(count - 1, Math.ceil((h.endMin - first) / step) - 1);
    for (let k = from; k <= to; k++) held[k] = 1;
  }
  return held;
}

/**
 * The first minute of the pacing interval holding `start`: intervals of pacing_interval
 * minutes counted from the service's start_hour. The same arithmetic as the trigger
 * reservations_pacing_insert (migrations/shard/0003), so the engine and the database agree.
 */
export function pacingBucket(
  service: Pick<EngineService, "startHour" | "pacingInterval">,
  start: number,
): number {
  const [hh, mm] = service.startHour.split(":").map(Number) as [number, number];
  const sinceStart = (((start - (hh * 60 + mm)) % 1440) + 1440) % 1440;
  return start - (sinceStart % (service.pacingInterval ?? 15));
}

export const paced = (s: EngineService) =>
  (s.maxCoversPerInterval ?? null) !== null || (s.maxPartiesPerInterval ?? null) !== null;

/**
 * Best choice: a single table before a group, then fewest empty seats, then lowest id.
 * `spread` (0 <= spread < 1) replaces "lowest id" by a pick among the tables that tie on the
 * first two: bookings racing for one time, each retrying with its own spread, then land on
 * different equally good tables instead of all losing the same one again.
 */
export function bestChoice<T extends Pick<EngineTable, "id" | "isGroup" | "guestsMax">>(
  tables: T[],
  pax: number,
  spread?: number,
): T | undefined {
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
  const ties = tables
    .filter((t) => Number(t.isGroup) === Number(best.isGroup) && t.guestsMax === best.guestsMax)
    .sort((a, b) => a.id - b.id);
  return ties[Math.floor(spread * ties.length)] ?? best;
}
