/**
 * When a party may be checked in: on its day only, from three hours before its start (the
 * restaurant's clock) until the end of the local day it starts on, or of its stay if that is later.
 * Checking in a party days ahead would write a false arrival and free its time for nobody.
 */
import { ApiError } from "../errors";
import { fromLocalMinutes, localMinutes, localToUtc, toLocalDateTime } from "../lib/localtime";

export const CHECKIN_OPENS_BEFORE_MIN = 180;

/** The instants (ms) between which check-in is open for a stay of local minutes [startMin, endMin). */
export function checkinWindow(
  timeZone: string,
  startMin: number,
  endMin: number,
): { opens: number; closes: number } {
  const dayEnd = localMinutes(fromLocalMinutes(startMin).date) + 1440;
  return {
    opens: localToUtc(timeZone, startMin - CHECKIN_OPENS_BEFORE_MIN),
    closes: localToUtc(timeZone, Math.max(dayEnd, endMin)),
  };
}

/** Refuses a check-in at `at` (ms) outside the party's window: 409, with the window's bounds. */
export function assertCheckinOpen(
  timeZone: string,
  r: { startMin: number; endMin: number },
  at: number,
): void {
  const { opens, closes } = checkinWindow(timeZone, r.startMin, r.endMin);
  const local = (ms: number) => toLocalDateTime(timeZone, ms).slice(0, 16).replace("T", " ");
  const extensions = {
    checkin_opens_at: new Date(opens).toISOString(),
    checkin_closes_at: new Date(closes).toISOString(),
  };
  if (at < opens)
    throw new ApiError(
      "checkin_too_early",
      `check-in opens three hours before the start, at ${local(opens)} (restaurant's time)`,
      { extensions },
    );
  if (at >= closes)
    throw new ApiError(
      "checkin_too_late",
      `check-in closed at ${local(closes)} (restaurant's time), the end of the party's day`,
      { extensions },
    );
}
