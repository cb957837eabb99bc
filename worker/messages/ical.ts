/**
 * A reservation as an iCalendar object (RFC 5545, with iTIP's METHOD of RFC 5546). Pure.
 *
 * DTSTART/DTEND in the restaurant's TZID with its VTIMEZONE, so a table at 20:00 in Rome stays
 * at 20:00 Rome time in any calendar, across DST (why by hand: docs/decisions.md, "Calendar
 * entries written by hand"). The observances are the zone's own offset changes (../lib/zone) for
 * the years around the event; the UID is stable per reservation, SEQUENCE rises with every
 * change, METHOD is REQUEST or CANCEL; lines are folded at 75 octets without splitting a
 * character, text escaped. The tests read it back with ical.js.
 */
import { transitions, zoneOffset } from "../lib/zone";

/** The zone's offset changes: the VTIMEZONE's observances. */
export { transitions } from "../lib/zone";

export interface CalendarEvent {
  uid: string;
  sequence: number;
  method: "REQUEST" | "CANCEL";
  /** DTSTAMP, epoch ms */
  stamp: number;
  timeZone: string;
  /** local wall clock in timeZone: YYYY-MM-DD and HH:MM:SS */
  start: { date: string; hour: string };
  end: { date: string; hour: string };
  summary: string;
  description: string;
  location?: string | undefined;
  url?: string | undefined;
  organizer: { name: string; email: string };
  attendee?: { name: string; email: string } | undefined;
}

const CRLF = "\r\n";

/** The control characters a calendar value may not hold (RFC 5545 3.3.11: CONTROL), line breaks apart. */
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * TEXT values: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11); a lone CR
 * is a line break too (it would end the content line), other control characters are dropped.
 */
export function escapeText(value: string): string {
  return value
    .replace(CONTROLS, "")
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n?|\n/g, "\\n");
}

/** A parameter value: quoted, without the DQUOTE, line breaks and control characters it may not hold (RFC 5545 3.2). */
const param = (value: string) => `"${value.replace(CONTROLS, "").replace(/["\r\n]/g, "")}"`;

/** Folds a content line at 75 octets, never inside a UTF-8 sequence (RFC 5545 3.1). */
export function fold(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const size = utf8Octets(ch.codePointAt(0) ?? 0);
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join(`${CRLF} `);
}

/** Octets of a code point in UTF-8 (a lone surrogate is written as U+FFFD: three). */
const utf8Octets = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");
const basicLocal = (date: string, hour: string) =>
  `${date.replace(/-/g, "")}T${hour.replace(/:/g, "").slice(0, 6)}`;
const basicUtc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function offsetText(minutes: number): string {
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;
}

interface Observance {
  /** the local onset, in the offset before it */
  onset: string;
  from: number;
  to: number;
}

function observances(timeZone: string, year: number): Observance[] {
  const from = Date.UTC(year - 1, 0, 1);
  const initial = zoneOffset(timeZone, from);
  const local = (ms: number, offset: number) => {
    const d = new Date(ms + offset * 60000).toISOString();
    return basicLocal(d.slice(0, 10), d.slice(11, 19));
  };
  // The offset in force at the start of the range, then every change until the end of the year after.
  return [
    { onset: local(from, initial), from: initial, to: initial },
    ...transitions(timeZone, from, Date.UTC(year + 2, 0, 1)).map((x) => ({
      onset: local(x.at, x.from),
      from: x.from,
      to: x.to,
    })),
  ];
}

/**
 * The VTIMEZONE of a zone around a year: a pure function of the runtime's zone data, which an
 * isolate never sees change, so it is built once per zone and year (a build scans three years
 * of offsets, about 9 ms: it was most of a message's CPU). Bounded: the oldest entry goes first.
 */
const vtimezones = new Map<string, string[]>();
const VTIMEZONES_KEPT = 64;

function vtimezone(timeZone: string, year: number): string[] {
  const key = `${timeZone} ${year}`;
  let lines = vtimezones.get(key);
  if (!lines) {
    lines = buildVtimezone(timeZone, year);
    if (vtimezones.size >= VTIMEZONES_KEPT) vtimezones.delete(vtimezones.keys().next().value!);
    vtimezones.set(key, lines);
  }
  return lines;
}

function buildVtimezone(timeZone: string, year: number): string[] {
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  for (const o of observances(timeZone, year)) {
    const kind = o.to > o.from ? "DAYLIGHT" : "STANDARD";
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${o.onset}`,
      `TZOFFSETFROM:${offsetText(o.from)}`,
      `TZOFFSETTO:${offsetText(o.to)}`,
      `END:${kind}`,
    );
  }
  lines.push("END:VTIMEZONE");
  return lines;
}

/** The VCALENDAR text, CRLF line ends. */
export function calendar(e: CalendarEvent): string {
  const tz = e.timeZone;
  const cancelled = e.method === "CANCEL";
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-engine//reservations//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${e.method}`,
    ...vtimezone(tz, Number(e.start.date.slice(0, 4))),
    "BEGIN:VEVENT",
    `UID:${e.uid}`,
    `DTSTAMP:${basicUtc(e.stamp)}`,
    `SEQUENCE:${e.sequence}`,
    `STATUS:${cancelled ? "CANCELLED" : "CONFIRMED"}`,
    `DTSTART;TZID=${tz}:${basicLocal(e.start.date, e.start.hour)}`,
    `DTEND;TZID=${tz}:${basicLocal(e.end.date, e.end.hour)}`,
    `SUMMARY:${escapeText(e.summary)}`,
    `DESCRIPTION:${escapeText(e.description)}`,
    ...(e.location ? [`LOCATION:${escapeText(e.location)}`] : []),
    ...(e.url ? [`URL:${e.url}`] : []),
    `ORGANIZER;CN=${param(e.organizer.name)}:mailto:${e.organizer.email}`,
    ...(e.attendee
      ? [
          `ATTENDEE;CN=${param(e.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${e.attendee.email}`,
        ]
      : []),
    "TRANSP:OPAQUE",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join(CRLF) + CRLF;
}
