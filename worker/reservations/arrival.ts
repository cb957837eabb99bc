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

/**
 * A no-show can be taken back (the party came late after all) until the end of its service: the
 * service's last start that day, or the end of the party's own stay if later. After: 409.
 */
export function assertNoShowUndoable(
  timeZone: string,
  r: { startMin: number; endMin: number },
  service: { startHour: string; endHour: string } | undefined,
  at: number,
): void {
  const day = localMinutes(fromLocalMinutes(r.startMin).date);
  const minutesOf = (hour: string) => Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3, 5));
  const lastStart = service
    ? day + minutesOf(service.endHour) + (service.endHour < service.startHour ? 1440 : 0)
    : r.endMin;
  const closes = localToUtc(timeZone, Math.max(lastStart, r.endMin));
  if (at >= closes)
    throw new ApiError(
      "no_show_final",
      `the no-show can be undone until the end of its service, ${toLocalDateTime(timeZone, closes).slice(0, 16).replace("T", " ")} (restaurant's time)`,
      { extensions: { undo_closes_at: new Date(closes).toISOString() } },
    );
}
