/**
 * A no-show taken back: the party came late after all. PATCH .../status?status=accepted on an
 * EXPIRED no-show answers 200 (ACCEPTED, its tables held again) until the end of its service, 409
 * no_show_final after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { book, call, expectProblem, getToken, newClient, seedCatalog, type TestClient } from "./helpers";

let client: TestClient;
const start = now();
const dateInDays = (days: number) => new Date(start + days * 86_400_000).toISOString().slice(0, 10);
let catalog: Awaited<ReturnType<typeof seedCatalog>>;

beforeAll(async () => {
  setClock(new Date(start).toISOString());
  client = await newClient();
  catalog = await seedCatalog(client);
});
afterAll(() => setClock(undefined));

/** Moves the clock (the restaurant is on UTC); a fresh token for the new hour. */
async function at(iso: string) {
  setClock(iso);
  const token = await getToken(client.clientId, client.clientSecret);
  client = {
    ...client,
    token,
    call: (path, o = {}) => call(path, { token, property: client.propertyId, ...o }),
  };
}

async function noShow(day: number, hour = "19:00:00") {
  await at(new Date(start).toISOString());
  const made = await book(client, {
    start_date: dateInDays(day),
    start_hour: hour,
    service_id: catalog.service.id,
    table_ids: [catalog.t1.id],
  });
  expect(made.status, made.text).toBe(201);
  const id = made.json.data[0].id as number;
  await at(`${dateInDays(day)}T19:40:00Z`);
  const expired = await client.call(`/api/v2/reservations/${id}?status=expired`, { method: "PATCH" });
  expect(expired.json.data[0]).toMatchObject({ status: "EXPIRED", status_reason: "no_show" });
  return id;
}

describe("a no-show taken back", () => {
  it("is ACCEPTED again, on its table, until the end of its service", async () => {
    const id = await noShow(3);
    await at(`${dateInDays(3)}T21:59:00Z`);
    const back = await client.call(`/api/v2/reservations/${id}/status?status=ACCEPTED`, { method: "PATCH" });
    expect(back.status, back.text).toBe(200);
    const r = back.json.data[0];
    expect(r.status).toBe("ACCEPTED");
    expect(r.status_reason).toBeUndefined();
    expect(r.tables.map((t: { id: number; free: boolean }) => [t.id, t.free])).toEqual([
      [catalog.t1.id, false],
    ]);
    // the party is seated as any other
    const seated = await client.call(`/api/v2/reservations/${id}/checkin`, { method: "PATCH" });
    expect(seated.status, seated.text).toBe(200);
    const history = (await client.call(`/api/v2/reservations/${id}/history`)).json.data as {
      to_status: string;
    }[];
    expect(history.map((h) => h.to_status)).toContain("EXPIRED");
  });

  it("answers 409 no_show_final once its service is over, and the reservation stays a no-show", async () => {
    const id = await noShow(4);
    // the service's last start is 22:00 and the party's stay ends earlier
    await at(`${dateInDays(4)}T22:00:00Z`);
    const late = await client.call(`/api/v2/reservations/${id}/status?status=ACCEPTED`, { method: "PATCH" });
    expectProblem(late, 409, "no-show can no longer be undone");
    expect(late.json.undo_closes_at).toBe(`${dateInDays(4)}T22:00:00.000Z`);
    const r = (await client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect([r.status, r.status_reason]).toEqual(["EXPIRED", "no_show"]);
  });

  it("takes back only a no-show, and only to ACCEPTED", async () => {
    const id = await noShow(5);
    const confirmed = await client.call(`/api/v2/reservations/${id}?status=confirmed`, { method: "PATCH" });
    expectProblem(confirmed, 403, "reservation not available");
    await at(new Date(start).toISOString());
    const other = await book(client, { start_date: dateInDays(6), service_id: catalog.service.id });
    const otherId = other.json.data[0].id as number;
    await client.call(`/api/v2/reservations/${otherId}`, { method: "DELETE" });
    const cancelled = await client.call(`/api/v2/reservations/${otherId}?status=accepted`, {
      method: "PATCH",
    });
    expectProblem(cancelled, 403, "reservation not available");
  });
});
