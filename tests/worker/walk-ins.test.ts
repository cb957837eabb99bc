/** The walk-in waiting list through the API: quoted waits on a seeded evening, "table ready" by email and SMS, seating. */
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../worker/lib/clock";
import { localMinutes } from "../../worker/lib/localtime";
import { registerSmsProvider } from "../../worker/shift/ready";
import {
  expectInvalid,
  expectProblem,
  insertReservation,
  newClient,
  seedRestaurant,
  type TestClient,
} from "./helpers";
import { captureMail } from "./messages.helpers";

const DATE = "2031-03-04";
let client: TestClient;
let seeded: Awaited<ReturnType<typeof seedRestaurant>>;
const list = () => client.call(`/api/v2/properties/${client.propertyId}/walk-ins`);
const join = (body: Record<string, unknown>) =>
  client.call(`/api/v2/properties/${client.propertyId}/walk-ins`, { body });
const entry = (id: number, suffix = "") => `/api/v2/properties/${client.propertyId}/walk-ins/${id}${suffix}`;

/** A party seated or booked on a table from `hour` for `minutes`, written straight to D1. */
async function hold(tableId: number, hour: string, minutes: number) {
  const start = localMinutes(DATE, hour);
  const id = await insertReservation(client.propertyId, { date: DATE, tableIds: [] });
  await client.d1.batch([
    client.d1
      .prepare("UPDATE reservations SET start_min = ?, end_min = ? WHERE id = ?")
      .bind(start, start + minutes, id),
    client.d1
      .prepare(
        "INSERT INTO reservation_tables (reservation_id, table_id, start_min, end_min) VALUES (?, ?, ?, ?)",
      )
      .bind(id, tableId, start, start + minutes),
  ]);
  return id;
}

beforeAll(async () => {
  // 19:00 in the restaurant (UTC): T1 (2) is seated until 20:00, T2 (4) until 19:40.
  setClock(`${DATE}T19:00:00Z`);
  client = await newClient();
  seeded = await seedRestaurant(client);
  await client.call(`/api/v2/properties/${client.propertyId}`, {
    method: "PUT",
    body: {
      settings: {
        turn_times: [
          { max_pax: 2, minutes: 60 },
          { max_pax: 6, minutes: 90 },
        ],
      },
    },
  });
  await hold(seeded.t1.id, "18:00", 120);
  await hold(seeded.t2.id, "18:10", 90);
});
afterAll(() => setClock(undefined));

describe("the walk-in waiting list", () => {
  let first: any;
  let second: any;

  it("quotes each party the earliest table that seats it after those ahead, and none where no table does", async () => {
    expect((await list()).json).toEqual({ data: [], next_cursor: null });
    const a = await join({ pax: 2, name: "Ada", email: "ada.walkin@example.com", phone: "+39 055 123456" });
    expect(a.status, a.text).toBe(201);
    first = a.json.data[0];
    // T2 frees first (19:40): the party of two takes it.
    expect(first).toMatchObject({
      pax: 2,
      name: "Ada",
      state: "waiting",
      position: 1,
      quoted_minutes: 40,
      wait_minutes: 40,
    });
    second = (await join({ pax: 2 })).json.data[0];
    // T1 frees at 20:00.
    expect(second).toMatchObject({ position: 2, quoted_minutes: 60, name: null });
    const nine = (await join({ pax: 9, notes: "high chair" })).json.data[0];
    expect(nine).toMatchObject({
      position: 3,
      quoted_minutes: null,
      wait_minutes: null,
      notes: "high chair",
    });
    const listed = (await list()).json.data;
    expect(listed.map((w: any) => [w.position, w.wait_minutes])).toEqual([
      [1, 40],
      [2, 60],
      [3, null],
    ]);
    const left = await client.call(entry(nine.id), { method: "PATCH", body: { state: "left" } });
    expect(left.json.data[0]).toMatchObject({ state: "left", position: null, closed_at: expect.any(String) });
  });

  it("tells a party its table is ready by email, in the restaurant's language, and by SMS where a provider is set", async () => {
    const mail = captureMail();
    const texts: [string, string][] = [];
    registerSmsProvider(async (to, text) => void texts.push([to, text]));
    try {
      const res = await client.call(entry(first.id, "/ready"), { method: "POST" });
      expect(res.status, res.text).toBe(200);
      expect(res.json.data[0]).toMatchObject({
        sent: ["email", "sms"],
        failed: [],
        walk_in: { state: "notified" },
      });
      expect(res.json.data[0].walk_in.notified_at).toBe(`${DATE}T19:00:00.000Z`);
      const [sent] = mail.to("ada.walkin@example.com");
      const parsed = await PostalMime.parse(sent!.raw);
      expect(parsed.subject).toBe("Test Restaurant: your table is ready");
      expect(parsed.text).toContain("Your table for 2 at Test Restaurant is ready.");
      expect(texts).toEqual([["+39 055 123456", "Test Restaurant: your table is ready"]]);
    } finally {
      mail.stop();
      registerSmsProvider(undefined);
    }
  });

  it("leaves out a table closed now", async () => {
    const closure = await client.call("/api/v2/closures", {
      body: { start_date: DATE, start_hour: "18:00", end_hour: "23:00", table_ids: [seeded.t2.id] },
    });
    expect(closure.status, closure.text).toBe(201);
    try {
      // T2 (free at 19:40) is closed, and with it the group T1+T2: both parties of two wait for
      // T1, the first until 20:00, the second until the first has had its hour
      expect((await list()).json.data.map((w: any) => w.wait_minutes)).toEqual([60, 120]);
    } finally {
      await client.call(`/api/v2/closures/${closure.json.data[0].id}`, { method: "DELETE" });
    }
  });

  it("says when nothing could reach the party, and when the email failed", async () => {
    const silent = await client.call(entry(second.id, "/ready"), { method: "POST" });
    expect(silent.json.data[0]).toMatchObject({ sent: [], failed: [] });
    const other = (await join({ pax: 1, email: "bounce.walkin@example.com" })).json.data[0];
    const mail = captureMail(() => true);
    try {
      const res = await client.call(entry(other.id, "/ready"), { method: "POST" });
      expect(res.json.data[0]).toMatchObject({ sent: [], failed: ["email"], walk_in: { state: "notified" } });
    } finally {
      mail.stop();
    }
    await client.call(entry(other.id), { method: "PATCH", body: { state: "left" } });
  });

  it("seats a party with its reservation in one step; a closed party is 409 and leaves the list", async () => {
    const reservation = await insertReservation(client.propertyId, { date: DATE });
    const seated = await client.call(entry(first.id), {
      method: "PATCH",
      body: { state: "seated", reservation_id: reservation },
    });
    expect(seated.status, seated.text).toBe(200);
    expect(seated.json.data[0]).toMatchObject({ state: "seated", reservation_id: reservation });
    expectProblem(
      await client.call(entry(first.id), { method: "PATCH", body: { state: "left" } }),
      409,
      "walk-in closed",
    );
    expectProblem(await client.call(entry(first.id, "/ready"), { method: "POST" }), 409, "walk-in closed");
    const rest = (await list()).json.data;
    expect(rest.map((w: any) => [w.id, w.position])).toEqual([[second.id, 1]]);
  });

  it("refuses another restaurant's reservation, an unknown party and a bad body", async () => {
    const stranger = await newClient();
    const theirs = await insertReservation(stranger.propertyId, { date: DATE });
    expectProblem(
      await client.call(entry(second.id), {
        method: "PATCH",
        body: { state: "seated", reservation_id: theirs },
      }),
      404,
      "reservation not found",
    );
    expectProblem(
      await client.call(entry(999_999_999_999), { method: "PATCH", body: { state: "left" } }),
      404,
    );
    expectInvalid(await join({ pax: 0, email: "nope" }), "pax", "email");
    expectInvalid(await client.call(entry(second.id), { method: "PATCH", body: { state: "gone" } }), "state");
    // another restaurant's list is not this client's
    expectProblem(await stranger.call(`/api/v2/properties/${client.propertyId}/walk-ins`), 403);
  });
});
