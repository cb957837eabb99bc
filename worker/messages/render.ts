/**
 * One message's subject, plain text, HTML and calendar entry, in its language.
 * Pure: the delivery reads what it needs, this only writes words. Every value written into the
 * HTML goes through hono's `html`, which escapes it, as the hosted pages do; links are built on
 * the configured public origin. The layout (a summary block, the restaurant's accent and logo,
 * web calendar links) is in layout.ts.
 */
import type { Occasion, ReservationStatus } from "../../shared/schemas";
import { localMinutes, localToUtc } from "../lib/localtime";
import { calendar } from "./ical";
import { asHtml, asText, type Block, type Link, type Row } from "./layout";
import { TEXTS, type Texts, type Vars } from "./texts";
import type { Locale, MessageSnapshot, Recipient, Template } from "./types";
import { googleCalendarUrl, outlookCalendarUrl } from "./web-calendar";

export interface Restaurant {
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  /** one line: street, zip and city */
  address: string | null;
  /** a map of the address (web-calendar.ts mapUrl); null without one */
  map: string | null;
  /** the city of the address: times are labelled with it ("Milano time"), else with the zone's city */
  city: string | null;
  timezone: string;
  /** minutes before the start until which guests may cancel online */
  cancelNotice: number;
  /** #rrggbb for the email's header and buttons; null: the house's own */
  accent: string | null;
  logo: string | null;
  /** how long a waiting-list offer holds */
  offerMinutes: number;
}

/** What the guest told the restaurant, and the tables given: the restaurant's notice shows them. */
export interface Request {
  specialRequest: string | null;
  occasion: string | null;
  allergies: string | null;
  /** the tables' names, joined */
  tables: string | null;
}

export interface RenderInput {
  template: Template;
  recipient: Recipient;
  locale: Locale;
  snapshot: MessageSnapshot;
  sequence: number;
  /** epoch ms: the change (the calendar entry's DTSTAMP) */
  writtenAt: number;
  reservationId: number;
  restaurant: Restaurant;
  service: string | null;
  links: {
    manage?: string | undefined;
    calendar?: string | undefined;
    offer?: string | undefined;
    book?: string | undefined;
  };
  request?: Request | undefined;
  /** the host name of the public origin: the calendar UID's domain */
  domain: string;
  /** the sender address: the calendar entry's organizer */
  organizer: string;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
  calendar?: { method: "REQUEST" | "CANCEL"; content: string } | undefined;
}

/** "Europe/Rome" -> "Rome", "America/Argentina/Buenos_Aires" -> "Buenos Aires". */
export function zoneCity(timeZone: string): string {
  return (timeZone.split("/").pop() ?? timeZone).replace(/_/g, " ");
}

/** Where the restaurant's clock is, as the widget names it: the city of its address, else of its zone. */
export function placeOf(r: Pick<Restaurant, "city" | "timezone">): string {
  return r.city?.trim() || zoneCity(r.timezone);
}

const STYLES = {
  date: { weekday: "long", day: "numeric", month: "long", year: "numeric" },
  time: { hour: "numeric", minute: "2-digit" },
  full: { dateStyle: "full", timeStyle: "short" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A formatter of one style, language and zone, built once per isolate: building one costs far
 * more than formatting with it, and a message formats several. Languages and zones are few.
 */
function formatter(locale: Locale, style: keyof typeof STYLES, timeZone: string): Intl.DateTimeFormat {
  const key = `${style} ${locale} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone });
    formatters.set(key, f);
  }
  return f;
}

/** A wall-clock date and hour, in the message's language (formatted in UTC, so no zone shifts them). */
export function formatWhen(locale: Locale, date: string, hour: string) {
  const at = localMinutes(date, hour) * 60000;
  return {
    date: formatter(locale, "date", "UTC").format(at),
    time: formatter(locale, "time", "UTC").format(at),
  };
}

const fullName = (g: MessageSnapshot["guest"]) => [g.first_name, g.last_name].filter(Boolean).join(" ");

function vars(i: RenderInput, t: Texts): Vars {
  const s = i.snapshot;
  const when = formatWhen(i.locale, s.date, s.hour);
  const before = s.before ? formatWhen(i.locale, s.before.date, s.before.hour) : undefined;
  const until = s.offer
    ? formatter(i.locale, "full", i.restaurant.timezone).format(Date.parse(s.offer.expires_at))
    : "";
  return {
    restaurant: i.restaurant.name,
    date: when.date,
    time: when.time,
    city: placeOf(i.restaurant),
    party: t.party(s.pax),
    guest: fullName(s.guest) || s.guest.email || "",
    service: i.service ?? "",
    before: before && s.before ? `${before.date}, ${before.time}, ${t.party(s.before.pax)}` : "",
    until: until ? `${until} (${placeOf(i.restaurant)})` : "",
    latest: s.wait_until ? formatWhen(i.locale, s.date, s.wait_until).time : "",
    waiting: s.status === "WAITING",
    offerMinutes: i.restaurant.offerMinutes,
  };
}

/** When online cancellation closes, in the restaurant's zone; undefined when it already has. */
function cancelDeadline(i: RenderInput): string | undefined {
  const start = localToUtc(i.restaurant.timezone, localMinutes(i.snapshot.date, i.snapshot.hour));
  const until = start - i.restaurant.cancelNotice * 60_000;
  if (until <= i.writtenAt) return undefined;
  return formatter(i.locale, "full", i.restaurant.timezone).format(until);
}

/** Date, time, party and service: the first rows of every summary. */
function when(t: Texts, v: Vars): Row[] {
  return [
    { label: t.date, value: v.date },
    { label: t.time, value: `${v.time}${v.latest ? `–${v.latest}` : ""} (${v.city})` },
    { label: t.partyLabel, value: v.party },
    { label: t.service, value: v.service },
  ];
}

/** The restaurant's notice: the booking with everything the guest told, statuses in words, and no empty row. */
function forRestaurant(i: RenderInput, t: Texts, v: Vars): Block {
  const s = i.snapshot;
  const r = i.request;
  const occasion = r?.occasion ? (t.occasions[r.occasion as Occasion] ?? r.occasion) : "";
  const rows: Row[] = [
    ...when(t, v),
    { label: t.tables, value: r?.tables ?? "" },
    { label: t.status, value: t.statuses[s.status as ReservationStatus] ?? s.status },
    {
      label: t.email,
      value: s.guest.email ?? "",
      href: s.guest.email ? `mailto:${s.guest.email}` : undefined,
    },
    {
      label: t.phone,
      value: s.guest.phone ?? "",
      href: s.guest.phone ? `tel:${s.guest.phone.replace(/[^+\d]/g, "")}` : undefined,
    },
    { label: t.occasion, value: occasion },
    { label: t.allergies, value: r?.allergies ?? "" },
    { label: t.request, value: r?.specialRequest ?? "" },
    { label: t.notes, value: s.notes ?? "" },
  ];
  return {
    paragraphs: t.body[i.template](v),
    rows: rows.filter((row) => row.value),
    buttons: [],
    calendar: [],
  };
}

/** Google Calendar, Outlook and the .ics: for a message that carries the entry. */
function calendarLinks(i: RenderInput, t: Texts): Link[] {
  const s = i.snapshot;
  if (s.ics !== "REQUEST") return [];
  const end = s.end.split("T");
  const event = {
    title: `${i.restaurant.name}: ${t.party(s.pax)}`,
    details: [i.service, i.links.manage ? `${t.manage}: ${i.links.manage}` : ""].filter(Boolean).join("\n"),
    location: i.restaurant.address,
    timeZone: i.restaurant.timezone,
    start: { date: s.date, hour: s.hour },
    end: { date: end[0] ?? s.date, hour: end[1] ?? s.hour },
  };
  const links: Link[] = [
    { label: "Google Calendar", url: googleCalendarUrl(event) },
    { label: "Outlook", url: outlookCalendarUrl(event) },
  ];
  if (i.links.calendar) links.push({ label: t.icsFile, url: i.links.calendar });
  return links;
}

/** The guest's message: its words, the summary (address with a map, the manage link), its actions. */
function forGuest(i: RenderInput, t: Texts, v: Vars): Block {
  const s = i.snapshot;
  const paragraphs = [...t.body[i.template](v)];
  const live = i.template !== "cancellation";
  const buttons: Link[] = [];
  if (i.template === "offer" && i.links.offer) buttons.push({ label: t.claim, url: i.links.offer });
  if (!live && i.links.book) buttons.push({ label: t.bookAgain, url: i.links.book });
  if (s.ics === "REQUEST") paragraphs.push(t.attached);
  if (s.ics === "CANCEL") paragraphs.push(t.cancelAttached);
  if (live && i.template !== "offer" && s.status !== "WAITING") {
    const deadline = i.links.manage ? cancelDeadline(i) : undefined;
    paragraphs.push(deadline ? t.cancelUntil(deadline) : t.noOnlineCancel);
  }
  const rows: Row[] = [
    ...when(t, v),
    {
      label: t.address,
      value: i.restaurant.address ?? "",
      href: i.restaurant.map ?? undefined,
      hrefLabel: t.map,
    },
    {
      label: t.phone,
      value: i.restaurant.phone ?? "",
      href: i.restaurant.phone ? `tel:${i.restaurant.phone.replace(/[^+\d]/g, "")}` : undefined,
    },
  ];
  const manage = live && i.links.manage ? { label: t.manage, url: i.links.manage } : undefined;
  return {
    paragraphs,
    rows: rows.filter((row) => row.value),
    manage,
    buttons,
    calendar: calendarLinks(i, t),
    calendarLabel: t.calendar,
  };
}

/** The calendar entry of the reservation as this message tells it. */
export function calendarEntry(
  i: Pick<
    RenderInput,
    | "snapshot"
    | "sequence"
    | "writtenAt"
    | "reservationId"
    | "restaurant"
    | "service"
    | "links"
    | "domain"
    | "organizer"
    | "locale"
  >,
  method: "REQUEST" | "CANCEL",
): string {
  const s = i.snapshot;
  const t = TEXTS[i.locale];
  const end = s.end.split("T");
  const who = fullName(s.guest);
  return calendar({
    uid: `reservation-${i.reservationId}@${i.domain}`,
    sequence: i.sequence,
    method,
    stamp: i.writtenAt,
    timeZone: i.restaurant.timezone,
    start: { date: s.date, hour: s.hour },
    end: { date: end[0] ?? s.date, hour: end[1] ?? s.hour },
    summary: `${i.restaurant.name}: ${t.party(s.pax)}`,
    description: [
      i.service,
      i.links.manage ? `${t.manage}: ${i.links.manage}` : "",
      i.restaurant.phone ? `${t.phone}: ${i.restaurant.phone}` : "",
    ]
      .filter(Boolean)
      .join("\n"),
    location: i.restaurant.address ?? undefined,
    url: i.links.manage,
    organizer: { name: i.restaurant.name, email: i.organizer },
    attendee: s.guest.email ? { name: who || s.guest.email, email: s.guest.email } : undefined,
  });
}

export function render(i: RenderInput): Rendered {
  const t = TEXTS[i.locale];
  const v = vars(i, t);
  const toRestaurant = i.recipient === "restaurant";
  const subject = t.subject[i.template](v);
  const greeting = toRestaurant ? t.greeting(i.restaurant.name) : t.greeting(i.snapshot.guest.first_name);
  const block = toRestaurant ? forRestaurant(i, t, v) : forGuest(i, t, v);
  const letter = {
    subject,
    greeting,
    block,
    signature: toRestaurant ? "" : t.signature(i.restaurant.name),
    footer: t.footer(i.restaurant.name),
  };
  const ics =
    !toRestaurant && i.snapshot.ics
      ? { method: i.snapshot.ics, content: calendarEntry(i, i.snapshot.ics) }
      : undefined;
  const brand = { name: i.restaurant.name, accent: i.restaurant.accent, logo: i.restaurant.logo };
  return { subject, text: asText(letter), html: asHtml(i.locale, brand, letter), calendar: ics };
}
