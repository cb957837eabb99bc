import { beforeAll, describe, expect, it } from "vitest";
import { book, dateInDays, expectInvalid, expectProblem, newClient, seedRestaurant, type TestClient } from "./helpers";

// A booking reads its day and its customer with the property row, and what its answer names in the
// commit's own batch: these pin that the answers stay those of reading each on its own.
let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
});

const withoutDay = ({ start_date: _d, start_day: _s, ...rest }: Record<string, unknown>) => rest;

describe("POST /reservations, its reads folded", () => {
  it("answers a new guest's booking as GET then shows it, the customer just created included", async () => {
    const res = await book(client, { start_date: dateInDays(20), service_id: r.service.id, customer: { first_name: "Nell", last_name: "Gwyn", email: "nell@example.com" } });
    expect(res.status, res.text).toBe(201);
    const created = res.json.data[0];
    expect(created.customer).toMatchObject({ first_name: "Nell", last_name: "Gwyn", email: "nell@example.com" });
    expect(typeof created.customer.id).toBe("number");
    const shown = await client.call(`/api/v2/reservations/${created.id}`);
    expect(shown.status).toBe(200);
    expect(withoutDay(created)).toEqual(withoutDay(shown.json.data[0]));
    expect(created.start_date).toBe(shown.json.data[0].start_day);
  });

  it("matches the guest of an earlier booking by email, and refuses an id whose email belongs to another", async () => {
    const first = (await book(client, { start_date: dateInDays(21), service_id: r.service.id, customer: { first_name: "Olive", email: "olive@example.com" } })).json.data[0];
    const again = await book(client, { start_date: dateInDays(22), service_id: r.service.id, customer: { first_name: "Olive", email: "OLIVE@example.com" } });
    expect(again.status, again.text).toBe(201);
    expect(again.json.data[0].customer.id).toBe(first.customer.id);
    const other = (await book(client, { start_date: dateInDays(23), service_id: r.service.id, customer: { first_name: "Pam", email: "pam@example.com" } })).json.data[0];
    const clash = await book(client, { start_date: dateInDays(24), service_id: r.service.id, customer: { id: other.customer.id, email: "olive@example.com" } });
    expect(clash.status, clash.text).toBe(400);
    expect(clash.json.errors.map((e: { path: string }) => e.path)).toEqual(["customer.email"]);
    const unknown = await book(client, { start_date: dateInDays(24), service_id: r.service.id, customer: { id: 999_999_999 } });
    expectProblem(unknown, 404);
    expect(unknown.json.code).toBe("user_not_found");
  });

  it("books a table added after the Worker kept the catalog", async () => {
    await book(client, { start_date: dateInDays(25), service_id: r.service.id });
    const t3 = (await client.call("/api/v2/tables", { body: { name: "T3", room_id: r.room.id, guests_max: 2 } })).json.data[0];
    const res = await book(client, { start_date: dateInDays(25), start_hour: "20:00:00", service_id: r.service.id, table_ids: [t3.id] });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data[0].tables.map((t: { id: number }) => t.id)).toEqual([t3.id]);
  });

  it("still refuses a table taken at that time, read with the property row", async () => {
    const first = await book(client, { start_date: dateInDays(26), service_id: r.service.id, table_ids: [r.t2.id] });
    expect(first.status, first.text).toBe(201);
    const second = await book(client, { start_date: dateInDays(26), service_id: r.service.id, table_ids: [r.t2.id] });
    expectProblem(second, 403);
    expect(second.json.code).toBe("table_not_available");
  });

  it("replays an idempotent booking with the same answer, and creates nothing more", async () => {
    const body = { start_date: dateInDays(27), start_hour: "19:00:00", pax: 2, service_id: r.service.id, customer: { first_name: "Quinn", email: "quinn@example.com" } };
    const headers = { "Idempotency-Key": `preload-${Date.now()}` };
    const first = await client.call("/api/v2/reservations", { body, headers });
    expect(first.status, first.text).toBe(201);
    const replay = await client.call("/api/v2/reservations", { body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    const day = await client.call(`/api/v2/reservations?start_date=${dateInDays(27)}&end_date=${dateInDays(27)}`);
    expect(day.json.data.map((x: { id: number }) => x.id)).toEqual([first.json.data[0].id]);
  });

  it("answers a body it cannot read ahead (a bad date) with the field named", async () => {
    const res = await book(client, { start_date: "2026-02-30", service_id: r.service.id });
    expectInvalid(res, "start_date");
  });
});
