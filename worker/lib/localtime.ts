/**
 * Wall-clock arithmetic in a property's time zone. Reservation times are stored as
 * "local minutes": minutes since 1970-01-01 00:00 of the property's own clock.
 */

/** Local minutes of a date YYYY-MM-DD and hour HH:MM[:SS]. */
export function localMinutes(date: string, hour = "00:00:00"): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = hour.split(":").map(Number) as [number, number];
  return Date.UTC(y, m - 1, d, hh, mm) / 60000;
}

/** The wall-clock date and time now (or at `instant`) in `timeZone`. */
export function zonedParts(timeZone: string, instant = new Date()) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
  const date = `${get("year")}-${get("month")}-${get("day")}`;
  const hour = `${get("hour")}:${get("minute")}:${get("second")}`;
  return { date, hour, minutes: localMinutes(date, hour) };
}
