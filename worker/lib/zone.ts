/**
 * A time zone's wall clock and UTC offsets, from the runtime's own zone data (Intl). Pure.
 * Instants are epoch ms; "local minutes" count minutes since 1970-01-01 00:00 of the zone's
 * own clock, as reservation times are stored.
 */

// Building an Intl.DateTimeFormat costs far more than using one: one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface WallClock {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM:SS */
  hour: string;
  /** local minutes of the date and hour (seconds dropped) */
  minutes: number;
}

/** The wall-clock date and time at `instant` in `timeZone` (now: pass the clock's `now()`). */
export function zonedParts(timeZone: string, instant: Date | number): WallClock {
  const p: Record<string, string> = {
    year: "00",
    month: "00",
    day: "00",
    hour: "00",
    minute: "00",
    second: "00",
  };
  for (const part of formatter(timeZone).formatToParts(instant))
    if (part.type in p) p[part.type] = part.value;
  const minutes =
    Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) / 60000;
  return { date: `${p.year}-${p.month}-${p.day}`, hour: `${p.hour}:${p.minute}:${p.second}`, minutes };
}

/** The zone's UTC offset in minutes at a UTC instant: local minutes minus UTC minutes. */
export function zoneOffset(timeZone: string, utcMs: number): number {
  return zonedParts(timeZone, utcMs).minutes - Math.floor(utcMs / 60000);
}

/** The UTC instant (ms) of local minutes in `timeZone`; a skipped local time maps past the gap. */
export function localToUtc(timeZone: string, local: number): number {
  const first = local - zoneOffset(timeZone, local * 60000);
  const second = local - zoneOffset(timeZone, first * 60000);
  return second * 60000;
}

/**
 * Whether local minutes exist in the zone: on a spring-forward day the skipped hour does
 * not (02:30 on the last Sunday of March in Europe/Rome).
 */
export function localTimeExists(timeZone: string, local: number): boolean {
  const first = local - zoneOffset(timeZone, local * 60000);
  if (zonedParts(timeZone, first * 60000).minutes === local) return true;
  const second = local - zoneOffset(timeZone, first * 60000);
  return zonedParts(timeZone, second * 60000).minutes === local;
}

export interface Transition {
  /** the first UTC instant (ms, to the minute) of the new offset */
  at: number;
  from: number;
  to: number;
}

const HALF_DAY = 43_200_000;

/** The zone's offset changes between two instants, to the minute (a half-day scan, then bisection). */
export function transitions(timeZone: string, fromMs: number, toMs: number): Transition[] {
  const out: Transition[] = [];
  let t = fromMs;
  let offset = zoneOffset(timeZone, t);
  while (t < toMs) {
    const next = Math.min(t + HALF_DAY, toMs);
    const o = zoneOffset(timeZone, next);
    if (o !== offset) {
      out.push({ at: firstMinuteOf(timeZone, offset, t, next), from: offset, to: o });
      offset = o;
    }
    t = next;
  }
  return out;
}

/** The first minute after `lo` whose offset is no longer `offset`, found by bisection up to `hi`. */
function firstMinuteOf(timeZone: string, offset: number, lo: number, hi: number): number {
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (zoneOffset(timeZone, mid) === offset) lo = mid;
    else hi = mid;
  }
  return hi;
}
