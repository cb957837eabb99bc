/**
 * One message's subject, plain text, HTML and calendar entry, in its language.
 * Pure: the delivery reads what it needs, this only writes words. Every value written into the
 * HTML goes through hono's `html`, which escapes it, as the hosted pages do; links are built on
 * the configured public origin.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { localMinutes, localToUtc } from "../lib/localtime";
import { calendar } from "./ical";
import { TEXTS, type Texts, type Vars } from "./texts";
import type { Locale, MessageSnapshot, Recipient, Template } from "./types";

export interface Restaurant {
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  /** one line: street, zip and city */
  address: string | null;
  timezone: string;
  /** minutes before the start until which guests may cancel online */
  cancelNotice: number;
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
  links: { manage?: string | undefined; calendar?: string | undefined; offer?: string | undefined };
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

/** A wall-clock date and hour, in the message's language (formatted in UTC, so no zone shifts them). */
export function formatWhen(locale: Locale, date: string, hour: string) {
  const at = localMinutes(date, hour) * 60000;
  return {
    date: new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(at),
    time: new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(at),
  };
}

const fullName = (g: MessageSnapshot["guest"]) => [g.first_name, g.last_name].filter(Boolean).join(" ");

function vars(i: RenderInput, t: Texts): Vars {
  const s = i.snapshot;
  const when = formatWhen(i.locale, s.date, s.hour);
  const before = s.before ? formatWhen(i.locale, s.before.date, s.before.hour) : undefined;
  const until = s.offer ? new Intl.DateTimeFormat(i.locale, { dateStyle: "full", timeStyle: "short", timeZone: i.restaurant.timezone }).format(Date.parse(s.offer.expires_at)) : "";
  return {
    restaurant: i.restaurant.name,
    date: when.date,
    time: when.time,
    city: zoneCity(i.restaurant.timezone),
    party: t.party(s.pax),
    guest: fullName(s.guest) || s.guest.email || "",
    service: i.service ?? "",
    before: before && s.before ? `${before.date}, ${before.time}, ${t.party(s.before.pax)}` : "",
    until: until ? `${until} (${zoneCity(i.restaurant.timezone)})` : "",
    waiting: s.status === "WAITING",
  };
}

/** When online cancellation closes, in the restaurant's zone; undefined when it already has. */
function cancelDeadline(i: RenderInput): string | undefined {
  const start = localToUtc(i.restaurant.timezone, localMinutes(i.snapshot.date, i.snapshot.hour));
  const until = start - i.restaurant.cancelNotice * 60_000;
  if (until <= i.writtenAt) return undefined;
  return new Intl.DateTimeFormat(i.locale, { dateStyle: "full", timeStyle: "short", timeZone: i.restaurant.timezone }).format(until);
}

interface Block {
  paragraphs: string[];
  /** [label, url] */
  buttons: [string, string][];
  details: [string, string][];
}

function content(i: RenderInput, t: Texts, v: Vars): Block {
  const s = i.snapshot;
  const paragraphs = [...t.body[i.template](v)];
  const buttons: [string, string][] = [];
  const details: [string, string][] = [];
  if (i.recipient === "restaurant") {
    details.push([t.status, s.status], [t.email, s.guest.email ?? ""], [t.phone, s.guest.phone ?? ""], [t.notes, s.notes ?? ""]);
    return { paragraphs, buttons, details: details.filter(([, value]) => value) };
  }
  if (i.template === "offer" && i.links.offer) buttons.push([t.claim, i.links.offer]);
  const live = i.template !== "cancellation";
  if (live && i.links.manage) buttons.push([t.manage, i.links.manage]);
  if (s.ics === "REQUEST" && i.links.calendar) buttons.push([t.calendar, i.links.calendar]);
  if (s.ics) paragraphs.push(t.attached);
  if (live && i.template !== "offer" && s.status !== "WAITING") {
    const deadline = i.links.manage ? cancelDeadline(i) : undefined;
    paragraphs.push(deadline ? t.cancelUntil(deadline) : t.noOnlineCancel);
  }
  if (i.restaurant.address) details.push([t.address, i.restaurant.address]);
  if (i.restaurant.phone) details.push([t.phone, i.restaurant.phone]);
  return { paragraphs, buttons, details };
}

/** Text with its line breaks as LF: a lone CR (kept in a note, or in a name stored before names were refused one), or CR LF, is one break. */
const breaks = (text: string) => text.replace(/\r\n?/g, "\n");

function asText(t: Texts, greeting: string, b: Block, signature: string, footer: string): string {
  const lines = [greeting, "", ...b.paragraphs.flatMap((p) => [p, ""])];
  for (const [label, url] of b.buttons) lines.push(`${label}: ${url}`);
  if (b.buttons.length) lines.push("");
  for (const [label, value] of b.details) lines.push(`${label}: ${value}`);
  if (b.details.length) lines.push("");
  lines.push(signature, "", "--", footer);
  return breaks(lines.join("\n"));
}

/** hono's `html` answers synchronously when nothing in it is a promise, as in an email. */
function markup(h: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (h instanceof Promise) throw new TypeError("an email's HTML holds no promise");
  return h.toString();
}

const button = ([label, url]: [string, string]) => html`<p style="margin:16px 0"><a href="${url}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#1f1c19;color:#ffffff;text-decoration:none">${label}</a></p>\n`;
const detail = ([label, value]: [string, string]) => html`<tr><th align="left" style="padding:2px 12px 2px 0;font-weight:600">${label}</th><td>${breaks(value)}</td></tr>`;
/** The signature's lines, one <br> between each. */
const signatureLines = (text: string) => breaks(text).split("\n").map((line, n) => (n ? html`<br>${line}` : line));

function asHtml(locale: Locale, subject: string, greeting: string, b: Block, signature: string, footer: string): string {
  const table = b.details.length ? html`<table role="presentation" style="border-collapse:collapse;margin:16px 0">${b.details.map(detail)}</table>` : "";
  return markup(html`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body style="margin:0;padding:24px;background:#f6f4f1;color:#1f1c19;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
<div style="max-width:36rem;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p>${greeting}</p>
${b.paragraphs.map((p) => html`<p>${p}</p>\n`)}${b.buttons.map(button)}${table}
<p>${signatureLines(signature)}</p>
</div><p style="max-width:36rem;margin:12px auto;color:#6b645c;font-size:13px">${footer}</p></body></html>`);
}

/** The calendar entry of the reservation as this message tells it. */
export function calendarEntry(i: Pick<RenderInput, "snapshot" | "sequence" | "writtenAt" | "reservationId" | "restaurant" | "service" | "links" | "domain" | "organizer" | "locale">, method: "REQUEST" | "CANCEL"): string {
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
    description: [i.service, i.links.manage ? `${t.manage}: ${i.links.manage}` : "", i.restaurant.phone ? `${t.phone}: ${i.restaurant.phone}` : ""].filter(Boolean).join("\n"),
    location: i.restaurant.address ?? undefined,
    url: i.links.manage,
    organizer: { name: i.restaurant.name, email: i.organizer },
    attendee: s.guest.email ? { name: who || s.guest.email, email: s.guest.email } : undefined,
  });
}

export function render(i: RenderInput): Rendered {
  const t = TEXTS[i.locale];
  const v = vars(i, t);
  const subject = t.subject[i.template](v);
  const greeting = i.recipient === "restaurant" ? t.greeting(i.restaurant.name) : t.greeting(i.snapshot.guest.first_name);
  const b = content(i, t, v);
  const signature = i.recipient === "restaurant" ? "" : t.signature(i.restaurant.name);
  const footer = t.footer(i.restaurant.name);
  const ics = i.recipient === "guest" && i.snapshot.ics ? { method: i.snapshot.ics, content: calendarEntry(i, i.snapshot.ics) } : undefined;
  return { subject, text: asText(t, greeting, b, signature, footer), html: asHtml(i.locale, subject, greeting, b, signature, footer), calendar: ics };
}
