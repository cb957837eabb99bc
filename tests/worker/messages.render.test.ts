/**
 * Every message in every language, rendered and built as MIME by the Worker's own modules, then
 * read back with postal-mime and ical.js: both parts, escaped HTML, the links, a calendar entry
 * where one belongs. Pure: no database.
 */
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { calendar, type CalendarEvent, transitions } from "../../worker/messages/ical";
import { buildMime } from "../../worker/messages/mime";
import { render } from "../../worker/messages/render";
import { type Locale, MESSAGE_TEMPLATES, type MessageSnapshot } from "../../worker/messages/types";
import { calendarOf, parseCalendar } from "./messages.helpers";

const LOCALES: Locale[] = ["en", "it", "fr", "de", "es"];
const MANAGE = "https://book.example/p/pk_1/manage/tok?locale=xx";
const OFFER = "https://book.example/p/pk_1/offer/off";

const snapshot = (template: string): MessageSnapshot => ({
  date: "2027-03-28",
  hour: "20:30:00",
  end: "2027-03-28T22:00:00",
  pax: 4,
  status: template === "waiting" ? "WAITING" : template === "cancellation" ? "CANCELLED" : "ACCEPTED",
  channel: "PLATFORM_BOOK",
  service_id: 1,
  guest: { first_name: "Zoë <b>", last_name: "O'Brien & Co", email: "zoe@example.com", phone: "+39 06 1" },
  notes: "window <please>",
  ics: ["confirmation", "change"].includes(template) ? "REQUEST" : template === "cancellation" ? "CANCEL" : null,
  before: template === "change" ? { date: "2027-03-27", hour: "19:00:00", pax: 2 } : undefined,
  offer: template === "offer" ? { nonce: "n", expires_at: "2027-03-28T10:15:00.000Z" } : undefined,
});

describe("every message in every language", () => {
  for (const locale of LOCALES) {
    it(`${locale}: subject, text and HTML parts, escaped values, links, and a calendar entry where one belongs`, async () => {
      const subjects = new Set<string>();
      for (const template of MESSAGE_TEMPLATES) {
        const recipient = template.startsWith("restaurant_") ? "restaurant" : "guest";
        const s = snapshot(template);
        const r = render({
          template,
          recipient,
          locale,
          snapshot: s,
          sequence: 3,
          writtenAt: Date.parse("2027-03-20T09:00:00Z"),
          reservationId: 42,
          restaurant: { name: "Osteria <Ponte>", email: "osteria@example.com", phone: "+39 06 2", website: null, address: "Via Roma 1, 00100 Roma", timezone: "Europe/Rome", cancelNotice: 60 },
          service: "Cena",
          links: { manage: MANAGE, calendar: "https://book.example/cal.ics", offer: OFFER },
          domain: "book.example",
          organizer: "bookings@book.example",
        });
        const raw = buildMime({ from: { name: "Osteria <Ponte>", addr: "bookings@book.example" }, to: { addr: "zoe@example.com" }, subject: r.subject, messageId: "<m1@book.example>", date: Date.parse("2027-03-20T09:00:00Z"), locale, text: r.text, html: r.html, calendar: r.calendar });
        const mail = await PostalMime.parse(raw);
        expect(mail.subject, `${locale} ${template}`).toBe(r.subject);
        subjects.add(mail.subject!);
        expect(mail.messageId).toBe("<m1@book.example>");
        expect(mail.text).toContain("Osteria <Ponte>");
        expect(mail.html).toContain("Osteria &lt;Ponte&gt;");
        expect(mail.html).not.toContain("<b>");
        if (recipient === "guest") {
          expect(mail.text).toContain("Zoë");
          if (template === "offer") expect(mail.text).toContain(OFFER);
          if (template !== "cancellation") expect(mail.text).toContain(MANAGE);
        } else {
          expect(mail.text).toContain("zoe@example.com");
          expect(mail.text).toContain("window <please>");
        }
        if (s.ics && recipient === "guest") {
          const cal = calendarOf(mail);
          expect(cal.method).toBe(s.ics);
          expect(cal.event.uid).toBe("reservation-42@book.example");
          expect(cal.event.sequence).toBe(3);
          // 20:30 in Rome on the night summer time starts is 18:30 UTC.
          expect(cal.event.startDate.toJSDate().toISOString()).toBe("2027-03-28T18:30:00.000Z");
          expect(cal.event.endDate.toJSDate().toISOString()).toBe("2027-03-28T20:00:00.000Z");
        } else {
          expect(mail.attachments).toHaveLength(0);
        }
      }
      // Eight templates, eight different subjects.
      expect(subjects.size).toBe(MESSAGE_TEMPLATES.length);
    });
  }
});

describe("the time-zone observances of a calendar entry", () => {
  it("are the zone's own offset changes, to the minute", () => {
    const rome = transitions("Europe/Rome", Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1));
    expect(rome).toEqual([
      { at: Date.UTC(2027, 2, 28, 1), from: 60, to: 120 },
      { at: Date.UTC(2027, 9, 31, 1), from: 120, to: 60 },
    ]);
    expect(transitions("Asia/Tokyo", Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1))).toEqual([]);
    // Half-hour zones and the southern hemisphere.
    expect(transitions("Australia/Adelaide", Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1)).map((t) => [t.from, t.to])).toEqual([
      [630, 570],
      [570, 630],
    ]);
  });
});

describe("a calendar entry's VTIMEZONE (built once per zone and year, then reused)", () => {
  const event = (timeZone: string, date: string): CalendarEvent => ({
    uid: "r1@book.example",
    sequence: 0,
    method: "REQUEST",
    stamp: Date.UTC(2026, 10, 1),
    timeZone,
    start: { date, hour: "20:00:00" },
    end: { date, hour: "21:30:00" },
    summary: "Table",
    description: "",
    organizer: { name: "Osteria", email: "bookings@book.example" },
  });
  const vtimezone = (text: string) => text.slice(text.indexOf("BEGIN:VTIMEZONE"), text.indexOf("END:VTIMEZONE"));
  const starts = (text: string) => [...vtimezone(text).matchAll(/^DTSTART:(\d{8})/gm)].map((m) => m[1]);

  it("is the zone's and the year's own, asked again, for another zone or another year", () => {
    const rome27 = calendar(event("Europe/Rome", "2027-03-28"));
    expect(calendar(event("Europe/Rome", "2027-06-01"))).toContain(vtimezone(rome27));
    // The year before, the year and the year after: Rome's changes on the last Sundays of March and October.
    expect(starts(rome27)).toEqual(["20260101", "20260329", "20261025", "20270328", "20271031", "20280326", "20281029"]);
    expect(starts(calendar(event("Europe/Rome", "2030-07-01")))).toEqual(["20290101", "20290325", "20291028", "20300331", "20301027", "20310330", "20311026"]);
    const ny = calendar(event("America/New_York", "2027-03-28"));
    expect(vtimezone(ny)).toContain("TZID:America/New_York");
    expect(starts(ny)).toEqual(["20251231", "20260308", "20261101", "20270314", "20271107", "20280312", "20281105"]);
    expect(parseCalendar(ny).event.startDate.toJSDate().toISOString()).toBe("2027-03-29T00:00:00.000Z");
  });
});

describe("email header lines (RFC 5322 2.1.1, RFC 2047)", () => {
  it("folds long encoded words: 100 emoji in the names and the subject give header lines of at most 78 octets, read back whole", async () => {
    const emoji = "🍝".repeat(100);
    const subject = `Your table at ${"🍷".repeat(100)} is booked`;
    const raw = buildMime({
      from: { name: emoji, addr: "bookings@book.example" },
      to: { name: `${emoji} Zoë`, addr: "zoe@example.com" },
      replyTo: { name: emoji, addr: "osteria@example.com" },
      subject,
      messageId: "<m2@book.example>",
      date: Date.parse("2027-03-20T09:00:00Z"),
      locale: "en",
      text: "hello",
      html: "<p>hello</p>",
    });
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    const lines = head.split("\r\n");
    const octets = (line: string) => new TextEncoder().encode(line).length;
    expect(Math.max(...lines.map(octets))).toBeLessThanOrEqual(78);
    for (const word of head.match(/=\?[^?]+\?B\?[^?]*\?=/g) ?? []) expect(word.length).toBeLessThanOrEqual(75);
    const mail = await PostalMime.parse(raw);
    expect(mail.subject).toBe(subject);
    expect(mail.to?.[0]).toMatchObject({ name: `${emoji} Zoë`, address: "zoe@example.com" });
    expect(mail.from).toMatchObject({ name: emoji, address: "bookings@book.example" });
    expect(mail.replyTo?.[0]).toMatchObject({ name: emoji, address: "osteria@example.com" });
  });
});
