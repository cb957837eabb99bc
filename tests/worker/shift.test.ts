/** The shift notes and the reports through the API: a seeded range of days, JSON and CSV. */
import { beforeAll, describe, expect, it } from "vitest";
import { localMinutes } from "../../worker/lib/localtime";
import { expectInvalid, expectProblem, newClient, seedRestaurant, type TestClient } from "./helpers";

let client: TestClient;
let lunch: { id: number };
let dinner: { id: number };
const path = (rest: string) => `/api/v2/properties/${client.propertyId}/${rest}`;

/** A reservation written straight to D1 with the status, party, channel and service given. */
async function seed(
  date: string,
  hour: string,
  o: { pax: number; status: string; channel?: string; service?: number; reason?: string },
) {
  const start = localMinutes(date, hour);
  await client.d1
    .prepare(
      `INSERT INTO reservations (property_id, service_id, start_date, start_hour, start_min, end_min, pax, status, channel, status_reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      client.propertyId,
      o.service ?? null,
      date,
      `${hour}:00`,
      start,
      start + 60,
      o.pax,
      o.status,
      o.channel ?? "PLATFORM_BOOK",
      o.reason ?? null,
    )
    .run();
}

beforeAll(async () => {
  client = await newClient();
  dinner = (await seedRestaurant(client)).service;
  lunch = (
    await client.call("/api/v2/services", { body: { name: "Lunch", start_hour: "12:00", end_hour: "14:30" } })
  ).json.data[0];
  // 4 March: lunch 2 + 3 online, dinner 4 by staff, 2 no-show, 6 cancelled, a staff block
  await seed("2031-03-04", "12:30", { pax: 2, status: "ACCEPTED", service: lunch.id });
  await seed("2031-03-04", "13:00", { pax: 3, status: "CONFIRMED", service: lunch.id });
  await seed("2031-03-04", "20:00", {
    pax: 4,
    status: "ACCEPTED",
    service: dinner.id,
    channel: "PLATFORM_ADMIN",
  });
  await seed("2031-03-04", "20:30", { pax: 2, status: "EXPIRED", service: dinner.id, reason: "no_show" });
  await seed("2031-03-04", "21:00", {
    pax: 6,
    status: "CANCELLED",
    service: dinner.id,
    channel: "SEARCHENGINE",
  });
  await seed("2031-03-04", "19:00", { pax: 1, status: "OUTOFORDER", service: dinner.id });
  // 5 March: dinner 5 by the search engine, an unpaid expiry (no no-show), a wait-listed party
  await seed("2031-03-05", "19:30", {
    pax: 5,
    status: "ACCEPTED",
    service: dinner.id,
    channel: "SEARCHENGINE",
  });
  await seed("2031-03-05", "20:00", { pax: 2, status: "EXPIRED", service: dinner.id, reason: "unpaid" });
  await seed("2031-03-05", "20:00", { pax: 2, status: "WAITING", service: dinner.id });
  // 6 March is outside the range asked for
  await seed("2031-03-06", "20:00", { pax: 8, status: "ACCEPTED", service: dinner.id });
});

const line = (
  key: string,
  label: string | null,
  covers: number,
  parties: number,
  no_shows: number,
  cancellations: number,
) => ({
  key,
  label,
  covers,
  parties,
  no_shows,
  cancellations,
});

describe("GET /properties/{id}/reports", () => {
  const report = (by: string, headers: Record<string, string> = {}) =>
    client.call(path(`reports?from=2031-03-04&to=2031-03-05&by=${by}`), { headers });

  it("counts covers and parties that hold, no-shows and cancellations by day", async () => {
    const res = await report("day");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      data: [line("2031-03-04", null, 9, 3, 1, 1), line("2031-03-05", null, 5, 1, 0, 0)],
      next_cursor: null,
    });
  });

  it("by service, named, and by channel", async () => {
    expect((await report("service")).json.data).toEqual(
      [line(String(dinner.id), "Dinner", 9, 2, 1, 1), line(String(lunch.id), "Lunch", 5, 2, 0, 0)].sort(
        (a, b) => a.key.localeCompare(b.key),
      ),
    );
    expect((await report("channel")).json.data).toEqual([
      line("PLATFORM_ADMIN", null, 4, 1, 0, 0),
      line("PLATFORM_BOOK", null, 5, 2, 1, 0),
      line("SEARCHENGINE", null, 5, 1, 0, 1),
    ]);
  });

  it("answers CSV for Accept: text/csv, the same lines", async () => {
    const res = await report("channel", { Accept: "text/csv" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toContain("report-channel-2031-03-04-2031-03-05.csv");
    expect(res.text).toBe(
      "channel,label,covers,parties,no_shows,cancellations\r\n" +
        "PLATFORM_ADMIN,,4,1,0,0\r\nPLATFORM_BOOK,,5,2,1,0\r\nSEARCHENGINE,,5,1,0,1\r\n",
    );
  });

  it("answers the same CSV for format=csv, as a download link asks it", async () => {
    const res = await client.call(path("reports?from=2031-03-04&to=2031-03-05&by=channel&format=csv"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.text).toBe(
      "channel,label,covers,parties,no_shows,cancellations\r\n" +
        "PLATFORM_ADMIN,,4,1,0,0\r\nPLATFORM_BOOK,,5,2,1,0\r\nSEARCHENGINE,,5,1,0,1\r\n",
    );
    expectInvalid(await client.call(path("reports?from=2031-03-04&to=2031-03-05&format=xml")), "format");
  });

  it("refuses a range backwards or over 366 days, a missing day and an unknown grouping", async () => {
    expectInvalid(await client.call(path("reports?from=2031-03-05&to=2031-03-04")), "to");
    expectInvalid(await client.call(path("reports?from=2031-01-01&to=2032-01-02")), "to");
    expectInvalid(await client.call(path("reports?from=2031-03-05&by=week")), "to", "by");
    expectInvalid(await client.call(path("notes")), "from");
    const stranger = await newClient();
    expectProblem(await stranger.call(path("reports?from=2031-03-04&to=2031-03-04")), 403);
  });
});

describe("shift notes", () => {
  it("writes a day's note, replaces it, lists a range and clears it with an empty text", async () => {
    const put = (date: string, text: string) =>
      client.call(path(`notes/${date}`), { method: "PUT", body: { text } });
    const first = await put("2031-03-04", "Fish delivery late.\nTerrace closed.");
    expect(first.status, first.text).toBe(200);
    expect(first.json.data[0]).toMatchObject({
      date: "2031-03-04",
      text: "Fish delivery late.\nTerrace closed.",
    });
    await put("2031-03-04", "Terrace open again.");
    await put("2031-03-06", "Wine tasting at 18:00.");
    const listed = (await client.call(path("notes?from=2031-03-01&to=2031-03-31"))).json.data;
    expect(listed.map((n: any) => [n.date, n.text])).toEqual([
      ["2031-03-04", "Terrace open again."],
      ["2031-03-06", "Wine tasting at 18:00."],
    ]);
    expect((await client.call(path("notes?from=2031-03-06"))).json.data).toHaveLength(1);
    expect((await put("2031-03-06", "")).json.data[0]).toEqual({
      date: "2031-03-06",
      text: "",
      updated_at: null,
    });
    expect((await client.call(path("notes?from=2031-03-06"))).json.data).toEqual([]);
  });

  it("refuses a date that is none, a control character and another restaurant", async () => {
    expectInvalid(
      await client.call(path("notes/2031-02-30"), { method: "PUT", body: { text: "x" } }),
      "date",
    );
    expectInvalid(
      await client.call(path("notes/2031-03-04"), { method: "PUT", body: { text: "a\u0007" } }),
      "text",
    );
    const stranger = await newClient();
    expectProblem(await stranger.call(path("notes?from=2031-03-04")), 403);
  });
});
