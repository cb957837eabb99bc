/**
 * PATCH /reservations/{id}/checkin is held to the party's day: from three hours before its start,
 * on the restaurant's clock (Europe/Rome here, an hour or two ahead of UTC), until the end of the
 * local day it starts on. Earlier or later answers 409 with the window's bounds and writes nothing;
 * undoing a check-in, a check-out and its undo are not held to it. Every instant is pinned, so the
 * tests read the same whatever today is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../worker/lib/clock";
import { book, call, createIn, expectProblem, getToken, newClient, type TestClient } from "./helpers";

const ZONE = "Europe/Rome";
/** When every party below is booked: a Monday morning, before all of them. */
const BOOKING_TIME = "2027-03-01T09:00:00Z";

let client: TestClient;
let dinner: { id: number };
let late: { id: number };

/** Pins the Worker's clock at an instant (UTC), with a token valid then (tokens last an hour). */
async function at(instant: string) {
  setClock(instant);
  client.token = await getToken(client.clientId, client.clientSecret);
}

/** A party of two booked at BOOKING_TIME; `date` and `hour` on the restaurant's clock. */
async function party(date: string, hour = "19:00", serviceId = dinner.id): Promise<{ id: number }> {
  await at(BOOKING_TIME);
  const res = await book(client, { start_date: date, start_hour: hour, service_id: serviceId });
  expect(res.status, res.text).toBe(201);
  return res.json.data[0];
}

const checkin = (id: number, undo = false) =>
  client.call(`/api/v2/reservations/${id}/checkin${undo ? "?undo=true" : ""}`, { method: "PATCH" });
const checkout = (id: number, undo = false) =>
  client.call(`/api/v2/reservations/${id}/checkout${undo ? "?undo=true" : ""}`, { method: "PATCH" });
const reservation = async (id: number) => (await client.call(`/api/v2/reservations/${id}`)).json.data[0];

/** A 409 of the window, with its bounds as UTC instants. */
function expectRefused(
  res: Awaited<ReturnType<typeof checkin>>,
  code: "checkin_too_early" | "checkin_too_late",
  opens: string,
  closes: string,
) {
  expectProblem(res, 409, code === "checkin_too_early" ? "check-in too early" : "check-in too late");
  expect(res.json).toMatchObject({ code, checkin_opens_at: opens, checkin_closes_at: closes });
}

beforeAll(async () => {
  setClock(BOOKING_TIME);
  client = await newClient("Trattoria dell'Orologio");
  const put = await client.call(`/api/v2/properties/${client.propertyId}`, {
    method: "PUT",
    property: undefined,
    body: { settings: { timezone: ZONE } },
  });
  expect(put.status, put.text).toBe(200);
  const room = await createIn(client, "rooms", { name: "Sala" });
  for (const name of ["T1", "T2", "T3"])
    await createIn(client, "tables", { name, room_id: room.id, guests_max: 4 });
  dinner = await createIn(client, "services", { name: "Dinner", start_hour: "19:00", end_hour: "22:00" });
  late = await createIn(client, "services", { name: "Late", start_hour: "22:30", end_hour: "01:30" });
});

afterAll(() => setClock(undefined));

describe("PATCH /reservations/{id}/checkin: the party's window", () => {
  it("refuses a check-in a week ahead with 409 checkin_too_early and the window's bounds, and writes nothing", async () => {
    // 19:00 in Rome on 10 March is 18:00 UTC: the window is 16:00 to midnight, Rome time.
    const p = await party("2027-03-10");
    await at("2027-03-03T17:30:00Z");
    expectRefused(
      await checkin(p.id),
      "checkin_too_early",
      "2027-03-10T15:00:00.000Z",
      "2027-03-10T23:00:00.000Z",
    );
    const stored = await reservation(p.id);
    expect(stored.status).toBe("ACCEPTED");
    expect(stored.checkin_date).toBeUndefined();
    expect(stored.expiration_date).toBeUndefined();
    const history = (await client.call(`/api/v2/reservations/${p.id}/history`)).json.data;
    expect(history.map((h: { action: string }) => h.action)).toEqual(["created"]);
  });

  it("opens exactly three hours before the start, on the restaurant's clock", async () => {
    const p = await party("2027-03-11");
    await at("2027-03-11T14:59:00Z"); // 15:59 in Rome
    expectRefused(
      await checkin(p.id),
      "checkin_too_early",
      "2027-03-11T15:00:00.000Z",
      "2027-03-11T23:00:00.000Z",
    );
    await at("2027-03-11T15:00:00Z"); // 16:00 in Rome
    const res = await checkin(p.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].checkin_date).toBe("2027-03-11T16:00:00.000");
  });

  it("stays open late that evening and closes at the restaurant's midnight with 409 checkin_too_late", async () => {
    const evening = await party("2027-03-12");
    const nextDay = await party("2027-03-12");
    await at("2027-03-12T22:59:00Z"); // 23:59 in Rome
    const res = await checkin(evening.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].checkin_date).toBe("2027-03-12T23:59:00.000");
    await at("2027-03-12T23:00:00Z"); // midnight in Rome: 13 March has begun
    expectRefused(
      await checkin(nextDay.id),
      "checkin_too_late",
      "2027-03-12T15:00:00.000Z",
      "2027-03-12T23:00:00.000Z",
    );
    await at("2027-03-13T11:00:00Z");
    expectRefused(
      await checkin(nextDay.id),
      "checkin_too_late",
      "2027-03-12T15:00:00.000Z",
      "2027-03-12T23:00:00.000Z",
    );
    expect((await reservation(nextDay.id)).checkin_date).toBeUndefined();
  });

  it("lets a party past midnight (00:30) be checked in the evening before, from three hours before its start", async () => {
    // Late runs 22:30-01:30: 00:30 of 16 March belongs to the service of the 15th. Its window: 21:30 of the 15th to the end of the 16th.
    const p = await party("2027-03-16", "00:30", late.id);
    await at("2027-03-15T20:29:00Z"); // 21:29 in Rome
    expectRefused(
      await checkin(p.id),
      "checkin_too_early",
      "2027-03-15T20:30:00.000Z",
      "2027-03-16T23:00:00.000Z",
    );
    await at("2027-03-15T22:00:00Z"); // 23:00 in Rome, the evening before
    const res = await checkin(p.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].checkin_date).toBe("2027-03-15T23:00:00.000");
  });

  it("undoes a check-in, a check-out and its undo whenever; checking in again is held to the window", async () => {
    const p = await party("2027-03-17");
    await at("2027-03-17T17:30:00Z"); // 18:30 in Rome
    expect((await checkin(p.id)).status).toBe(200);
    await at("2027-03-18T10:00:00Z"); // the next morning
    expect((await checkout(p.id)).status).toBe(200);
    expect((await checkout(p.id, true)).status).toBe(200);
    await at("2027-03-25T10:00:00Z"); // a week later
    const undone = await checkin(p.id, true);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.json.data[0].checkin_date).toBeUndefined();
    expectRefused(
      await checkin(p.id),
      "checkin_too_late",
      "2027-03-17T15:00:00.000Z",
      "2027-03-17T23:00:00.000Z",
    );
  });

  it("counts the window on the restaurant's clock on the day it moves forward (28 March 2027)", async () => {
    // Rome leaves UTC+1 for UTC+2 at 02:00 that night: 19:00 is 17:00 UTC, so the window is 14:00 to 22:00 UTC.
    const early = await party("2027-03-28");
    const tooLate = await party("2027-03-28");
    await at("2027-03-28T13:59:00Z"); // 15:59 in Rome
    expectRefused(
      await checkin(early.id),
      "checkin_too_early",
      "2027-03-28T14:00:00.000Z",
      "2027-03-28T22:00:00.000Z",
    );
    await at("2027-03-28T14:00:00Z"); // 16:00 in Rome
    const res = await checkin(early.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].checkin_date).toBe("2027-03-28T16:00:00.000");
    await at("2027-03-28T22:00:00Z"); // midnight in Rome
    expectRefused(
      await checkin(tooLate.id),
      "checkin_too_late",
      "2027-03-28T14:00:00.000Z",
      "2027-03-28T22:00:00.000Z",
    );
  });

  it("is documented: the OpenAPI document lists 409 for the check-in", async () => {
    const doc = (await call("/api/v2/openapi.json")).json;
    const responses = doc.paths["/api/v2/reservations/{reservation_id}/checkin"].patch.responses;
    expect(Object.keys(responses)).toContain("409");
    expect(JSON.stringify(doc.paths["/api/v2/reservations/{reservation_id}/checkin"].patch)).toMatch(
      /checkin_too_early[\s\S]*checkin_too_late/,
    );
  });
});
