/**
 * The restaurant's "now" on the console's screens: who is late, who is next, when each table is
 * next wanted. Pure, apart from NowTicker, which re-renders its host each half minute (a timer in
 * the page: an idle console still sends nothing).
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { now } from "../../clock.js";
import type { ReservationListItem as Reservation } from "../api.js";
import { counts } from "./words.js";

/** Minutes past midnight of the wall clock in `timeZone` at instant `at`. */
export function minutesIn(timeZone: string, at: number): number {
  const [h = 0, m = 0] = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(at)
    .split(":")
    .map(Number);
  return h * 60 + m;
}

export const startOf = (r: Pick<Reservation, "start_hour">) => {
  const [h = 0, m = 0] = r.start_hour.split(":").map(Number);
  return h * 60 + m;
};

/** A party still expected: booked, not seated, not cancelled or gone. */
export const expected = (r: Reservation) => counts(r) && !r.checkin_date && r.status !== "OUTOFORDER";

/** Minutes a party expected at `start` is late at minute `at` (0: not late). */
export const lateBy = (r: Reservation, at: number) => (expected(r) && at > startOf(r) ? at - startOf(r) : 0);

/** The ids of the next arrivals: the expected parties of the first start time from `at` on. */
export function nextIds(list: Reservation[], at: number): Set<number> {
  const coming = list.filter((r) => expected(r) && startOf(r) >= at);
  const first = Math.min(...coming.map(startOf));
  return new Set(coming.filter((r) => startOf(r) === first).map((r) => r.id));
}

/** Re-renders its host every 30 s, so "now", "late" and "next" move on without a request. */
export class NowTicker implements ReactiveController {
  private timer: ReturnType<typeof setInterval> | undefined;
  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }
  hostConnected(): void {
    this.timer = setInterval(() => this.host.requestUpdate(), 30_000);
  }
  hostDisconnected(): void {
    clearInterval(this.timer);
  }
  /** The instant now (the widget's clock, which tests set). */
  get at(): number {
    return now();
  }
}
