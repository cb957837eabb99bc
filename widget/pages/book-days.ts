/**
 * The slot days the booking page has already fetched, by party size and date, with when: the
 * first look ahead fills two weeks at once, "Next available" adds the days it scanned, and a day
 * picked again is fetched again once it is no longer fresh (times get taken meanwhile).
 */
import { type PublicSlotDay, SCAN_DAYS } from "../api.js";
import { now } from "../clock.js";

export { SCAN_DAYS };

/** A day's times older than this are fetched again when the guest picks that day. */
const FRESH_MS = 60_000;

export class SlotDays {
  private days = new Map<string, { day: PublicSlotDay; at: number }>();
  /** the dates last handed to the date grid */
  private full: ReadonlySet<string> = new Set();

  /** Keeps these days as fetched at `at`, over what was known. */
  remember(pax: number, days: readonly PublicSlotDay[], at = now()) {
    for (const d of days) this.days.set(`${pax}|${d.date}`, { day: d, at });
  }

  /** Keeps these days where none was known yet. */
  fill(pax: number, days: readonly PublicSlotDay[], at = now()) {
    for (const d of days) if (!this.has(pax, d.date)) this.days.set(`${pax}|${d.date}`, { day: d, at });
  }

  has(pax: number, date: string) {
    return this.days.has(`${pax}|${date}`);
  }

  /** The day as fetched, while it is fresh. */
  fresh(pax: number, date: string): PublicSlotDay | undefined {
    const known = this.days.get(`${pax}|${date}`);
    return known && now() - known.at < FRESH_MS ? known.day : undefined;
  }

  forget(pax: number, date: string | undefined) {
    this.days.delete(`${pax}|${date}`);
  }

  clear() {
    this.days.clear();
  }

  /**
   * Days of the first look ahead (or visited since) without a free time for this party; the same
   * Set while nothing changed, so the date grid does not render again for nothing.
   */
  fullDates(pax: number): ReadonlySet<string> {
    const full = new Set<string>();
    for (const [key, { day }] of this.days)
      if (key.startsWith(`${pax}|`) && !day.services.some((s) => s.times.length)) full.add(day.date);
    const same = this.full.size === full.size && [...full].every((d) => this.full.has(d));
    if (!same) this.full = full;
    return this.full;
  }
}

/** The first day with a free time, for the service preselected on the services page if any. */
export function firstOpenDay(days: readonly PublicSlotDay[], serviceId: number | undefined) {
  const open = (d: PublicSlotDay, id?: number) =>
    d.services.some((s) => s.times.length && (!id || s.service_id === id));
  return days.find((d) => open(d, serviceId)) ?? days.find((d) => open(d)) ?? days[0];
}
