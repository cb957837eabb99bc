/**
 * Every message in every language, rendered and built as MIME by the Worker's own modules, then
 * read back with postal-mime and ical.js: both parts, escaped HTML, the links, a calendar entry
 * where one belongs. Pure: no database.
 */
import fc from "fast-check";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { type CalendarEvent, calendar, fold, transitions } from "../../worker/messages/ical";
import { base64Lines, buildMime, foldedBase64 } from "../../worker/messages/mime";
import { type RenderInput, type Restaurant, render } from "../../worker/messages/render";
import { renderReset } from "../../worker/messages/reset.render";
import { type Locale, type MessageSnapshot, RESERVATION_TEMPLATES } from "../../worker/messages/types";
import { calendarOf, parseCalendar } from "./messages.helpers";

const LOCALES: Locale[] = ["en", "it", "fr", "de", "es"];
const MANAGE = "https://book.example/p/pk_1/manage/tok?locale=xx";
const OFFER = "https://book.example/p/pk_1/offer/off";

const RESTAURANT: Restaurant = {
  name: "Osteria <Ponte>",
  email: "osteria@example.com",
  phone: "+39 06 2",
  website: null,
  address: "Via Roma 1, 00100 Roma",
  map: "https://www.google.com/maps/search/?api=1&query=Via%20Roma%201%2C%2000100%20Roma",
  city: null,
  timezone: "Europe/Rome",
  cancelNotice: 60,
  accent: "#7a1f3d",
  logo: "https://osteria.example/logo.png",
  offerMinutes: 20,
};

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
  ics: ["confirmation", "change"].includes(template)
    ? "REQUEST"
    : template === "cancellation"
      ? "CANCEL"
      : null,
  before: template.endsWith("change") ? { date: "2027-03-27", hour: "19:00:00", pax: 2 } : undefined,
  offer: template === "offer" ? { nonce: "n", expires_at: "2027-03-28T10:15:00.000Z" } : undefined,
});

describe("every message in every language", () => {
  for (const locale of LOCALES) {
    it(`${locale}: subject, text and HTML parts, escaped values, links, and a calendar entry where one belongs`, async () => {
      const subjects = new Set<string>();
      for (const template of RESERVATION_TEMPLATES) {
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
          restaurant: RESTAURANT,
          service: "Cena",
          links: { manage: MANAGE, calendar: "https://book.example/cal.ics", offer: OFFER },
          domain: "book.example",
          organizer: "bookings@book.example",
        });
        const raw = buildMime({
          from: { name: "Osteria <Ponte>", addr: "bookings@book.example" },
          to: { addr: "zoe@example.com" },
          subject: r.subject,
          messageId: "<m1@book.example>",
          date: Date.parse("2027-03-20T09:00:00Z"),
          locale,
          text: r.text,
          html: r.html,
          calendar: r.calendar,
        });
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
      expect(subjects.size).toBe(RESERVATION_TEMPLATES.length);
    });
  }
});

const BOOK = "https://book.example/p/pk_1/book?locale=en&pax=4";

const input = (
  template: RenderInput["template"],
  locale: Locale,
  over: Partial<RenderInput> = {},
): RenderInput => ({
  template,
  recipient: template.startsWith("restaurant_") ? "restaurant" : "guest",
  locale,
  snapshot: snapshot(template),
  sequence: 3,
  writtenAt: Date.parse("2027-03-20T09:00:00Z"),
  reservationId: 42,
  restaurant: RESTAURANT,
  service: "Cena",
  links: { manage: MANAGE, calendar: "https://book.example/cal.ics", offer: OFFER, book: BOOK },
  domain: "book.example",
  organizer: "bookings@book.example",
  ...over,
});

/** The URLs of an HTML part's links, as a mail client reads them. */
const hrefs = (markup: string) =>
  [...markup.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

describe("a guest's email", () => {
  it("lays out a summary block (date, time, party, service, address with its map, the manage link) in the text and HTML parts", () => {
    const r = render(input("confirmation", "en"));
    expect(r.text).toMatch(/^Date: Sunday, March 28, 2027$/m);
    expect(r.text).toMatch(/^Time: 8:30\sPM \(Rome\)$/m);
    expect(r.text).toMatch(/^Party: 4 people$/m);
    expect(r.text).toMatch(/^Service: Cena$/m);
    expect(r.text).toContain(`Address: Via Roma 1, 00100 Roma (Map: ${RESTAURANT.map})`);
    expect(r.text).toContain(`See, change or cancel your reservation: ${MANAGE}`);
    expect(r.html).toMatch(/<th[^>]*>Party<\/th><td[^>]*>4 people<\/td>/);
    expect(hrefs(r.html)).toEqual(expect.arrayContaining([RESTAURANT.map, MANAGE, "tel:+39062"]));
  });

  it("wears the restaurant's accent and logo; a light accent keeps dark text on its buttons and links readable", () => {
    const r = render(input("offer", "it"));
    expect(r.html).toContain('<img src="https://osteria.example/logo.png" alt="Osteria &lt;Ponte&gt;"');
    expect(r.html).toContain("border-top:6px solid #7a1f3d");
    expect(r.html).toContain("background:#7a1f3d;color:#ffffff");
    const light = render(
      input("offer", "it", { restaurant: { ...RESTAURANT, accent: "#f2d16b", logo: null } }),
    );
    expect(light.html).toContain("background:#f2d16b;color:#1f1c19");
    expect(light.html).not.toContain("<img");
    expect(light.html).toMatch(/font-weight:700;color:#1f1c19">Osteria &lt;Ponte&gt;</);
  });

  it("offers Add to Google Calendar and Outlook beside the .ics, at the table's instant, for every message that carries the entry", () => {
    for (const locale of LOCALES) {
      for (const template of RESERVATION_TEMPLATES) {
        const r = render(input(template, locale));
        const google = hrefs(r.html).find((h) => h.startsWith("https://calendar.google.com/"));
        const outlook = hrefs(r.html).find((h) => h.startsWith("https://outlook.live.com/"));
        if (r.calendar?.method !== "REQUEST") {
          expect(google, `${locale} ${template}`).toBeUndefined();
          continue;
        }
        // 20:30 in Rome on the night summer time starts is 18:30 UTC; the table is held until 22:00.
        expect(new URL(google!).searchParams.get("dates")).toBe("20270328T183000Z/20270328T200000Z");
        expect(new URL(google!).searchParams.get("location")).toBe("Via Roma 1, 00100 Roma");
        expect(new URL(outlook!).searchParams.get("startdt")).toBe("2027-03-28T18:30:00Z");
        expect(new URL(outlook!).searchParams.get("enddt")).toBe("2027-03-28T20:00:00Z");
        expect(r.text).toContain(`Google Calendar: ${google}`);
      }
    }
  });

  it("a cancellation offers to book again, says the attachment removes the entry, and never that an entry is attached", () => {
    const r = render(input("cancellation", "en"));
    expect(r.text).not.toContain("The calendar entry is attached");
    expect(r.text).toContain("The attached calendar update removes the entry from your calendar.");
    expect(r.text).toContain(`Book again: ${BOOK}`);
    expect(hrefs(r.html)).toContain(BOOK);
    expect(r.text).not.toContain(MANAGE);
    // A waiting party's cancellation carries no entry, and says nothing of one.
    const waiting = render(
      input("cancellation", "en", { snapshot: { ...snapshot("cancellation"), ics: null } }),
    );
    expect(waiting.calendar).toBeUndefined();
    expect(waiting.text).not.toMatch(/attached|calendar/i);
    for (const locale of LOCALES) expect(render(input("cancellation", locale)).text).toContain(BOOK);
  });

  it("on the waiting list: the exact time asked for, how an offer comes and how long it holds, in every language", () => {
    const en = render(input("waiting", "en")).text;
    expect(en).toMatch(/If a table for your party frees up at 8:30\sPM, we email you an offer/);
    expect(en).toContain("valid for 20 minutes: claim it and the table is yours if it is still free");
    expect(en).not.toContain("at once");
    for (const locale of LOCALES) expect(render(input("waiting", locale)).text, locale).toMatch(/\b20\b/);
  });
});

describe("the restaurant's clock", () => {
  it("is named after the city of its address, in the body, the summary and an offer's deadline; else after its zone's", () => {
    const milano = { ...RESTAURANT, city: "Milano" };
    const booked = render(input("confirmation", "en", { restaurant: milano }));
    expect(booked.text).toContain("(Milano time)");
    expect(booked.text).toMatch(/^Time: 8:30\sPM \(Milano\)$/m);
    expect(booked.text).not.toMatch(/\(Rome( time)?\)/);
    expect(render(input("offer", "it", { restaurant: milano })).text).toMatch(
      /Prendilo entro .+ \(Milano\):/,
    );
    expect(render(input("confirmation", "en")).text).toContain("(Rome time)");
  });
});

describe("the restaurant's notice", () => {
  it("of a guest's change says what the booking is now and what it was, in every language", () => {
    const en = render(input("restaurant_change", "en"));
    expect(en.subject).toMatch(
      /^Online booking changed: Zoë <b> O'Brien & Co, 4 people, Sunday, March 28, 2027 8:30\sPM$/,
    );
    expect(en.text).toContain(
      "changed their online booking: it is now for 4 people on Sunday, March 28, 2027 at 8:30",
    );
    expect(en.text).toMatch(/^Before: Saturday, March 27, 2027, 7:00\sPM, 2 people\.$/m);
    for (const locale of LOCALES)
      expect(render(input("restaurant_change", locale)).text, locale).toMatch(/: .*2027.*, 2 \w+\.$/m);
  });

  const request = {
    specialRequest: "a quiet corner",
    occasion: "birthday",
    allergies: "peanuts",
    tables: "T4, T5",
  };

  it("shows the occasion, allergies, special request and tables, the status in words, and no empty line runs", () => {
    const r = render(input("restaurant_booking", "en", { request }));
    for (const line of [
      "Occasion: Birthday",
      "Allergies: peanuts",
      "Special request: a quiet corner",
      "Table: T4, T5",
      "Status: Booked",
      "Party: 4 people",
    ])
      expect(r.text).toContain(line);
    expect(r.text).not.toContain("ACCEPTED");
    expect(r.html).toMatch(/<th[^>]*>Allergies<\/th><td[^>]*>peanuts<\/td>/);
    // Nothing to show: no label without a value.
    const bare = render(
      input("restaurant_booking", "en", {
        request: undefined,
        snapshot: { ...snapshot("restaurant_booking"), notes: null },
      }),
    );
    expect(bare.text).not.toMatch(/^(Occasion|Allergies|Special request|Table|Notes):/m);
  });

  it("in every language: statuses in words, and no message of any kind has a run of blank lines", () => {
    for (const locale of LOCALES) {
      const waiting = render(
        input("restaurant_booking", locale, {
          request,
          snapshot: { ...snapshot("restaurant_booking"), status: "WAITING" },
        }),
      );
      expect(waiting.text, locale).not.toMatch(/WAITING|ACCEPTED/);
      for (const template of RESERVATION_TEMPLATES)
        expect(render(input(template, locale, { request })).text, `${locale} ${template}`).not.toMatch(
          /\n\s*\n\s*\n/,
        );
    }
  });
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
    expect(
      transitions("Australia/Adelaide", Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1)).map((t) => [
        t.from,
        t.to,
      ]),
    ).toEqual([
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
  const vtimezone = (text: string) =>
    text.slice(text.indexOf("BEGIN:VTIMEZONE"), text.indexOf("END:VTIMEZONE"));
  const starts = (text: string) => [...vtimezone(text).matchAll(/^DTSTART:(\d{8})/gm)].map((m) => m[1]);

  it("is the zone's and the year's own, asked again, for another zone or another year", () => {
    const rome27 = calendar(event("Europe/Rome", "2027-03-28"));
    expect(calendar(event("Europe/Rome", "2027-06-01"))).toContain(vtimezone(rome27));
    // The year before, the year and the year after: Rome's changes on the last Sundays of March and October.
    expect(starts(rome27)).toEqual([
      "20260101",
      "20260329",
      "20261025",
      "20270328",
      "20271031",
      "20280326",
      "20281029",
    ]);
    expect(starts(calendar(event("Europe/Rome", "2030-07-01")))).toEqual([
      "20290101",
      "20290325",
      "20291028",
      "20300331",
      "20301027",
      "20310330",
      "20311026",
    ]);
    const ny = calendar(event("America/New_York", "2027-03-28"));
    expect(vtimezone(ny)).toContain("TZID:America/New_York");
    expect(starts(ny)).toEqual([
      "20251231",
      "20260308",
      "20261101",
      "20270314",
      "20271107",
      "20280312",
      "20281105",
    ]);
    expect(parseCalendar(ny).event.startDate.toJSDate().toISOString()).toBe("2027-03-29T00:00:00.000Z");
  });
});

describe("calendar content lines (RFC 5545 3.1)", () => {
  const octets = (line: string) => new TextEncoder().encode(line).length;
  it("fold at 75 octets, never inside a character, and unfold to the line given", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", " ", ";", "é", "€", "😀", "\ud800", "ß", "語"),
      maxLength: 200,
    });
    fc.assert(
      fc.property(text, (line) => {
        const lines = fold(line).split("\r\n ");
        expect(lines.join("")).toBe(line);
        expect(octets(lines[0] ?? "")).toBeLessThanOrEqual(75);
        for (const rest of lines.slice(1)) expect(octets(` ${rest}`)).toBeLessThanOrEqual(75);
        // A fold never splits a surrogate pair: no line ends with a high surrogate and the next starts with a low one.
        for (const [i, l] of lines.slice(0, -1).entries())
          expect(/[\ud800-\udbff]$/.test(l) && /^[\udc00-\udfff]/.test(lines[i + 1] ?? "")).toBe(false);
        // Only as many lines as needed: each but the last would overflow with the next character.
        for (const [i, l] of lines.slice(0, -1).entries()) {
          const next = [...(lines[i + 1] ?? "")][0] ?? "";
          expect(octets(`${i ? " " : ""}${l}${next}`)).toBeGreaterThan(75);
        }
      }),
      { numRuns: 300 },
    );
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
    for (const word of head.match(/=\?[^?]+\?B\?[^?]*\?=/g) ?? [])
      expect(word.length).toBeLessThanOrEqual(75);
    const mail = await PostalMime.parse(raw);
    expect(mail.subject).toBe(subject);
    expect(mail.to?.[0]).toMatchObject({ name: `${emoji} Zoë`, address: "zoe@example.com" });
    expect(mail.from).toMatchObject({ name: emoji, address: "bookings@book.example" });
    expect(mail.replyTo?.[0]).toMatchObject({ name: emoji, address: "osteria@example.com" });
  });
});

describe("the console's password reset message", () => {
  const link = "https://book.example/console/reset/tok_abc";
  it("says it in each of the five languages, with the link in both parts and the restaurant's name escaped", async () => {
    const subjects = new Set<string>();
    for (const locale of LOCALES) {
      const r = renderReset({
        locale,
        brand: { name: RESTAURANT.name, accent: RESTAURANT.accent, logo: null },
        link,
        minutes: 30,
      });
      subjects.add(r.subject);
      expect(r.text, locale).toContain(link);
      expect(r.text, locale).toContain("30");
      expect(r.text, locale).not.toMatch(/\n\s*\n\s*\n/);
      expect(r.html, locale).toContain(`href="${link}"`);
      expect(r.html, locale).not.toContain("<Ponte>");
      const mail = await PostalMime.parse(
        buildMime({
          from: { addr: "no-reply@book.example" },
          to: { addr: "osteria@example.com" },
          subject: r.subject,
          messageId: "<m@book.example>",
          date: 0,
          locale,
          text: r.text,
          html: r.html,
        }),
      );
      expect(mail.subject).toBe(r.subject);
      expect(mail.attachments).toEqual([]);
    }
    expect(subjects.size).toBe(LOCALES.length);
  });
});

describe("MIME's base64", () => {
  const decoded = (b64: string) =>
    new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  const bytesOf = (b64: string) => atob(b64).length;

  it("folds a header into encoded words of whole characters, at most 30 bytes each, that read back as the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), (text) => {
        const words = foldedBase64(text).split("?=\r\n =?utf-8?B?");
        expect(words.every((w) => bytesOf(w) <= 30)).toBe(true);
        // each word alone is valid UTF-8: no character is split between two
        expect(words.map(decoded).join("")).toBe(text);
      }),
    );
    expect(foldedBase64("")).toBe("");
  });

  it("writes a part in lines of at most 76 characters that read back as the text, ASCII or not, across the slices it encodes by", () => {
    // ASCII text goes to btoa as it is; other text is encoded a slice of 8,192 bytes at a time
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 3000 }),
      fc.string({ unit: "binary-ascii", maxLength: 20000 }),
      fc
        .tuple(
          fc.string({ unit: "binary-ascii", minLength: 8180, maxLength: 8200 }),
          fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
        )
        .map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(text, (text) => {
        const lines = base64Lines(text).split("\r\n");
        expect(lines.every((l) => l.length <= 76)).toBe(true);
        expect(decoded(lines.join(""))).toBe(text);
      }),
    );
  });
});
