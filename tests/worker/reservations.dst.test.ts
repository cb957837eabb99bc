/**
 * Stays are real minutes, also on the two nights a year the clock changes: a night service in
 * Europe/Rome, 22:00 to 04:00, one table. The end a reservation shows, the table's hold (what the
 * engine and the database's overlap trigger compare) and the calendar entry's DTEND all follow
 * the real end of the stay.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../worker/lib/clock";
import { localMinutes } from "../../worker/lib/localtime";
import { snapshotOf } from "../../worker/messages/plan";
import { calendarEntry } from "../../worker/messages/render";
import { book, createIn, expectProblem, newClient, type TestClient } from "./helpers";
import { parseCalendar } from "./messages.helpers";

let client: TestClient;
let table: { id: number };
let service: { id: number };

beforeAll(async () => {
  setClock("2027-01-10T12:00:00Z");
  client = await newClient();
  const put = await client.call(`/api/v2/properties/${client.propertyId}`, {
    method: "PUT",
    property: undefined,
    body: { settings: { timezone: "Europe/Rome", average_stay: 60 } },
  });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  const room = await createIn(client, "rooms", { name: "Night room" });
  table = await createIn(client, "tables", { name: "N1", room_id: room.id, guests_max: 4 });
  service = await createIn(client, "services", {
    name: "Late night",
    start_hour: "22:00",
    end_hour: "04:00",
    average_stay: 60,
  });
});
afterAll(() => setClock(undefined));

const at = (start_date: string, start_hour: string, extra: Record<string, unknown> = {}) =>
  book(client, { start_date, start_hour, pax: 2, service_id: service.id, table_ids: [table.id], ...extra });

describe("POST /reservations on the spring-forward night (2027-03-28, 02:00 CET -> 03:00 CEST)", () => {
  it("ends a 60-minute stay from 01:45 at 03:45, and refuses the table to a party at 03:00 while the first is seated", async () => {
    const first = await at("2027-03-28", "01:45:00");
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    expect(first.json.data[0].end_date).toBe("2027-03-28T03:45:00");
    expectProblem(await at("2027-03-28", "03:00:00"), 403, "table not available");
    expectProblem(await at("2027-03-28", "03:30:00"), 403, "table not available");
    // the table is free again once the stay is over
    const next = await at("2027-03-28", "03:45:00");
    expect(next.status, JSON.stringify(next.json)).toBe(201);
    expect(next.json.data[0].end_date).toBe("2027-03-28T04:45:00");
  });
});

describe("POST /reservations on the fall-back night (2027-10-31, 03:00 CEST -> 02:00 CET)", () => {
  it("ends a 120-minute stay from 01:30 CEST at 02:30 CET, refuses a party at 02:00 CET and seats one at 03:00", async () => {
    const first = await at("2027-10-31", "01:30:00", { duration: 120 });
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    expect(first.json.data[0].end_date).toBe("2027-10-31T02:30:00");
    // 02:00 reads as its second pass (CET, 01:00 UTC): the first party is seated until 01:30 UTC
    expectProblem(await at("2027-10-31", "02:00:00"), 403, "table not available");
    expectProblem(await at("2027-10-31", "01:00:00"), 403, "table not available");
    const later = await at("2027-10-31", "03:00:00");
    expect(later.status, JSON.stringify(later.json)).toBe(201);
    expect(later.json.data[0].end_date).toBe("2027-10-31T04:00:00");
  });

  it("never lets two stays overlap in real time, whatever the database is handed: the overlap trigger compares the same spans", async () => {
    const rows = await client.d1
      .prepare(
        "SELECT r.start_hour, rt.start_min, rt.end_min FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id WHERE rt.table_id = ? ORDER BY rt.start_min",
      )
      .bind(table.id)
      .all<{ start_hour: string; start_min: number; end_min: number }>();
    const spans = rows.results;
    expect(spans.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < spans.length; i++)
      expect(spans[i]!.start_min).toBeGreaterThanOrEqual(spans[i - 1]!.end_min);
    // the spring night's hold reaches 03:45 on the wall clock
    const spring = spans.find((s) => s.start_min === localMinutes("2027-03-28", "01:45"));
    expect(spring?.end_min).toBe(localMinutes("2027-03-28", "03:45"));
  });
});

describe("the calendar entry of a stay over a clock change", () => {
  const entry = (date: string, hour: string, stay: number) => {
    const startMin = localMinutes(date, hour);
    const facts = {
      status: "ACCEPTED",
      channel: "PLATFORM_BOOK",
      startDate: date,
      startHour: `${hour}:00`,
      startMin,
      endMin: startMin + stay,
      pax: 2,
      serviceId: 1,
      notes: null,
      guest: { first_name: "Ada", last_name: "L", email: "ada@example.com", phone: null },
      notifyGuest: true,
      locale: "en",
    } as const;
    const snapshot = snapshotOf(facts, "Europe/Rome", "REQUEST");
    const ics = calendarEntry(
      {
        snapshot,
        sequence: 0,
        writtenAt: Date.parse("2027-01-10T12:00:00Z"),
        reservationId: 7,
        restaurant: {
          name: "Notte",
          email: null,
          phone: null,
          website: null,
          address: null,
          city: null,
          timezone: "Europe/Rome",
          cancelNotice: 60,
          map: null,
          accent: null,
          logo: null,
          offerMinutes: 30,
        },
        service: "Late night",
        links: {},
        domain: "book.example",
        organizer: "bookings@book.example",
        locale: "en",
      },
      "REQUEST",
    );
    return parseCalendar(ics).event;
  };

  it("DTEND is the real end: 01:45 CET + 60 minutes is 03:45 CEST", () => {
    const e = entry("2027-03-28", "01:45", 60);
    expect(e.startDate.toJSDate().toISOString()).toBe("2027-03-28T00:45:00.000Z");
    expect(e.endDate.toJSDate().toISOString()).toBe("2027-03-28T01:45:00.000Z");
  });

  it("DTEND is the real end: 01:30 CEST + 120 minutes is 02:30 CET", () => {
    const e = entry("2027-10-31", "01:30", 120);
    expect(e.startDate.toJSDate().toISOString()).toBe("2027-10-30T23:30:00.000Z");
    expect(e.endDate.toJSDate().toISOString()).toBe("2027-10-31T01:30:00.000Z");
  });
});
