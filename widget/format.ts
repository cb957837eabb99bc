/**
 * Dates and times as the restaurant sees them. The API speaks wall-clock dates (YYYY-MM-DD) and
 * hours (HH:MM:SS) in the restaurant's zone: they are formatted in UTC on both sides so the
 * browser's own zone never shifts them.
 */

const utcDate = (date: string) => new Date(`${date}T00:00:00Z`);

/** Intl formatters are costly to build and a month grid needs dozens of labels: one per locale and style. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    formatters.set(key, f);
  }
  return f;
}

export function formatTime(hour: string, locale: string): string {
  const [h = 0, m = 0] = hour.split(":").map(Number);
  return formatter(locale, { hour: "numeric", minute: "2-digit" }).format(Date.UTC(2000, 0, 1, h, m));
}

export function formatDate(date: string, locale: string, style: "long" | "full" = "full"): string {
  const options: Intl.DateTimeFormatOptions =
    style === "full"
      ? { weekday: "long", day: "numeric", month: "long", year: "numeric" }
      : { day: "numeric", month: "long", year: "numeric" };
  return formatter(locale, options).format(utcDate(date));
}

export function formatMonth(date: string, locale: string): string {
  return formatter(locale, { month: "long", year: "numeric" }).format(utcDate(date));
}

export function weekdayName(
  isoWeekday: number,
  locale: string,
  width: "long" | "short" | "narrow" = "long",
): string {
  // 2024-01-01 was a Monday.
  return formatter(locale, { weekday: width }).format(Date.UTC(2024, 0, isoWeekday));
}

export function addDays(date: string, days: number): string {
  const d = utcDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function addMonths(date: string, months: number): string {
  const d = utcDate(date);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString().slice(0, 10);
}

/** ISO weekday, 1 = Monday. */
export function isoWeekday(date: string): number {
  return utcDate(date).getUTCDay() || 7;
}

/** The first day of the week in `locale` as an ISO weekday (Monday when the browser cannot say). */
const weekStarts = new Map<string, number>();
export function firstDayOfWeek(locale: string): number {
  let day = weekStarts.get(locale);
  if (day === undefined) {
    day = weekStart(locale);
    weekStarts.set(locale, day);
  }
  return day;
}

function weekStart(locale: string): number {
  try {
    const l = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    return l.getWeekInfo?.().firstDay ?? l.weekInfo?.firstDay ?? 1;
  } catch {
    return 1;
  }
}

export const clampDate = (date: string, min: string, max: string) =>
  date < min ? min : date > max ? max : date;

/** The city of an IANA zone as its id spells it ("America/New_York" -> "New York"). */
export const zoneCity = (timezone: string) => (timezone.split("/").pop() ?? timezone).replace(/_/g, " ");

/** A wall-clock date and time minus `minutes`, still wall-clock (the cancel deadline of a start). */
export function minusMinutes(date: string, hour: string, minutes: number): { date: string; hour: string } {
  const [h = 0, m = 0] = hour.split(":").map(Number);
  const at = new Date(
    Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10), h, m) - minutes * 60_000,
  );
  return { date: at.toISOString().slice(0, 10), hour: at.toISOString().slice(11, 19) };
}

/** The digits after the point of a currency's minor unit (2 for EUR, 0 for JPY). */
export function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** An amount in minor units as the reader reads it ("€40.00", "40,00 €"). */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: digits }).format(
    minor / 10 ** digits,
  );
}
