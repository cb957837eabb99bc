/**
 * Wall-clock arithmetic in a property's time zone. Reservation times are stored as
 * "local minutes": minutes since 1970-01-01 00:00 of the property's own clock.
 * Pure: no I/O, usable by the engine and its tests. What asks the zone's own data (its
 * offsets) lives in ./zone, re-exported here.
 */
import { localToUtc, transitions, zonedParts, zoneOffset } from "./zone";

export { localTimeExists, localToUtc, zonedParts } from "./zone";

/** Local minutes of a date YYYY-MM-DD and hour HH:MM[:SS]. */
export function localMinutes(date: string, hour = "00:00:00"): number {
  // the slot listing's hot path: "YYYY-MM-DD" and "HH:MM[:SS]" read without splitting (the same answer)
  if (/^\d{4}-\d\d-\d\d$/.test(date) && /^\d\d:\d\d(:..)?$/.test(hour)) {
    const days = Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 86_400_000;
    return days * 1440 + +hour.slice(0, 2) * 60 + +hour.slice(3, 5);
  }
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = hour.split(":").map(Number) as [number, number];
  return Date.UTC(y, m - 1, d, hh, mm) / 60000;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The date YYYY-MM-DD and hour HH:MM:SS of local minutes. */
export function fromLocalMinutes(minutes: number): { date: string; hour: string } {
  const d = new Date(minutes * 60000);
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    hour: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`,
  };
}

export function addDays(date: string, days: number): string {
  return fromLocalMinutes(localMinutes(date) + days * 1440).date;
}

/** ISO weekday of a date: 1 = Monday .. 7 = Sunday. */
export function isoWeekday(date: string): number {
  // 1970-01-01 was a Thursday (4)
  const days = Math.floor(localMinutes(date) / 1440);
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

/**
 * Whether the zone's offset may change during this local date (a DST day). The offsets
 * are compared at UTC instants 15 hours either side of the local day, which every zone's
 * day lies within: a change at local midnight (America/Santiago, America/Havana) is seen,
 * and a change on a neighbouring day only costs an exact check per time.
 */
export function isTransitionDay(timeZone: string, date: string): boolean {
  const key = `${timeZone} ${date}`;
  let dst = transitionDays.get(key);
  if (dst === undefined) {
    const start = localMinutes(date);
    dst = zoneOffset(timeZone, (start - 900) * 60000) !== zoneOffset(timeZone, (start + 1440 + 900) * 60000);
    if (transitionDays.size >= 10_000) transitionDays.clear();
    transitionDays.set(key, dst);
  }
  return dst;
}

/** isTransitionDay's answers (two Intl calls each; every slot listing asks for its days). */
const transitionDays = new Map<string, boolean>();

/** A UTC instant (ISO string or ms) as the local wall clock "YYYY-MM-DDTHH:MM:SS[.mmm]", without a zone or offset. */
export function toLocalDateTime(timeZone: string, instant: string | number, withMillis = false): string {
  const ms = typeof instant === "number" ? instant : Date.parse(instant);
  const p = zonedParts(timeZone, ms);
  const base = `${p.date}T${p.hour}`;
  return withMillis ? `${base}.${String(ms % 1000).padStart(3, "0")}` : base;
}

/**
 * The wall clock a stay of `stay` real minutes from local `start` covers. `end`: the local
 * minutes of its real end (01:45 CET + 60 = 03:45 CEST in Europe/Rome; a time the night repeats
 * reads as its second pass). `from`/`to`: the smallest span of local minutes holding every
 * minute of the stay, which the table's hold takes: on a spring-forward night it reaches the
 * real end, on a fall-back night it covers the whole repeated hour when the stay crosses it (a
 * local minute there names two instants, so the hold keeps both). Any other day: all three are
 * `start` and `start + stay`.
 */
export function wallSpan(
  timeZone: string,
  start: number,
  stay: number,
): { from: number; to: number; end: number } {
  const plain = start + stay;
  if (
    !isTransitionDay(timeZone, fromLocalMinutes(start).date) &&
    !isTransitionDay(timeZone, fromLocalMinutes(plain).date)
  )
    return { from: start, to: plain, end: plain };
  const u0 = localToUtc(timeZone, start);
  const u1 = u0 + stay * 60000;
  // local minutes rise with real time between offset changes: each piece's ends bound the span
  const cuts = [u0, ...transitions(timeZone, u0, u1).map((t) => t.at), u1];
  let from = Infinity;
  let to = -Infinity;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const offset = zoneOffset(timeZone, cuts[i]!);
    from = Math.min(from, Math.floor(cuts[i]! / 60000) + offset);
    to = Math.max(to, Math.floor(cuts[i + 1]! / 60000) + offset);
  }
  return { from, to, end: zonedParts(timeZone, u1).minutes };
}

/** A reservation's end as shown ("YYYY-MM-DDTHH:MM:SS"): the wall clock at the real end of its stay of end_min - start_min minutes. */
export function stayEndDate(timeZone: string, startMin: number, endMin: number): string {
  const end = fromLocalMinutes(wallSpan(timeZone, startMin, endMin - startMin).end);
  return `${end.date}T${end.hour}`;
}
