/**
 * "Add to Google Calendar / Outlook" links, beside the .ics an email carries: the same event as
 * the calendar entry, given to each web calendar in its own documented form. Times in UTC (an
 * instant, so no calendar reads them in the wrong zone). Pure.
 */
import { localMinutes, localToUtc } from "../lib/localtime";

export interface WebEvent {
  title: string;
  details: string;
  location: string | null;
  timeZone: string;
  start: { date: string; hour: string };
  end: { date: string; hour: string };
}

const instant = (e: WebEvent, at: { date: string; hour: string }) =>
  new Date(localToUtc(e.timeZone, localMinutes(at.date, at.hour)));
/** 20270328T183000Z */
const basic = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
/** 2027-03-28T18:30:00Z */
const extended = (d: Date) => d.toISOString().replace(/\.\d{3}/, "");

function query(params: Record<string, string | null>): string {
  return Object.entries(params)
    .filter((p): p is [string, string] => !!p[1])
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
}

/** Google Calendar's event template. */
export function googleCalendarUrl(e: WebEvent): string {
  const dates = `${basic(instant(e, e.start))}/${basic(instant(e, e.end))}`;
  return `https://calendar.google.com/calendar/render?${query({ action: "TEMPLATE", text: e.title, dates, ctz: e.timeZone, details: e.details, location: e.location })}`;
}

/** Outlook on the web's compose deep link (outlook.com and Microsoft 365 accounts alike). */
export function outlookCalendarUrl(e: WebEvent): string {
  const params = {
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: e.title,
    startdt: extended(instant(e, e.start)),
    enddt: extended(instant(e, e.end)),
    body: e.details,
    location: e.location,
  };
  return `https://outlook.live.com/calendar/0/deeplink/compose?${query(params)}`;
}

/** A map of the restaurant: its point when known, else its address, on Google Maps (which phones open in their maps app). */
export function mapUrl(place: {
  latitude?: number | null;
  longitude?: number | null;
  address: string | null;
}): string | null {
  if (typeof place.latitude === "number" && typeof place.longitude === "number")
    return `https://www.google.com/maps/search/?api=1&query=${place.latitude},${place.longitude}`;
  return place.address
    ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(place.address)}`
    : null;
}
