/** Every documented error row for the reservation routes, and the refusals of create. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  book,
  createIn,
  dateInDays,
  expectInvalid,
  expectProblem,
  newClient,
  seedRestaurant,
  type TestClient,
} from "./helpers";

let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;
let reservation: { id: number };
let otherProperty: number;
let stranger: TestClient;

const isoWeekday = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
};

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
  reservation = (await book(client, { start_date: r.date, service_id: r.service.id })).json.data[0];
  otherProperty = (await client.call("/api/v2/properties", { body: { name: "Second site" } })).json.data[0]
    .id;
  stranger = await newClient();
});

const path = (id: number | string, suffix = "") => `/api/v2/reservations/${id}${suffix}`;

describe("GET /reservations/{reservation_id}", () => {
  it("403 reservation not available: it belongs to another of the client's properties", async () => {
    expectProblem(
      await client.call(path(reservation.id), { property: otherProperty }),
      403,
      "reservation not available",
    );
  });
  it("404 property not found", async () => {
    expectProblem(
      await client.call(path(reservation.id), { property: 999999999 }),
      404,
      "property not found",
    );
  });
  it("404 reservation not found, also for another client's reservation", async () => {
    expectProblem(await client.call(path(999999999)), 404, "reservation not found");
    expectProblem(await stranger.call(path(reservation.id)), 404, "reservation not found");
  });
});

describe("POST /reservations/searchengine", () => {
  it("400 validation error", async () => {
    const res = await client.call("/api/v2/reservations/searchengine", {
      body: { enable_searchengine: "yes" },
    });
    expectProblem(res, 400, "validation error");
    expect(res.json.errors[0].path).toBe("enable_searchengine");
    expectProblem(
      await client.call("/api/v2/reservations/searchengine", { body: {} }),
      400,
      "validation error",
    );
  });
  it("404 property not found", async () => {
    expectProblem(
      await client.call("/api/v2/reservations/searchengine", {
        body: { enable_searchengine: true },
        property: 999999999,
      }),
      404,
      "property not found",
    );
  });
});

describe("PUT /reservations/{reservation_id}", () => {
  const put = (id: number, body: unknown, property?: number) =>
    client.call(path(id), { method: "PUT", body, ...(property && { property }) });
  let fresh: () => Promise<number>;
  beforeAll(() => {
    let day = 100;
    fresh = async () =>
      (await book(client, { start_date: dateInDays(day++), service_id: r.service.id })).json.data[0].id;
  });

  it("400 invalid input data, one entry per field", async () => {
    expectInvalid(
      await put(reservation.id, { pax: 0, start_hour: "25:00", start_day: "2026-02-30", table_ids: "x" }),
      "pax",
      "start_hour",
      "start_day",
      "table_ids",
    );
  });
  it("403 property forbidden", async () => {
    expectProblem(
      await stranger.call(path(reservation.id), {
        method: "PUT",
        body: { pax: 2 },
        property: client.propertyId,
      }),
      403,
      "property forbidden",
    );
  });
  it("403 booking slot not available: outside the service's hours", async () => {
    expectProblem(await put(await fresh(), { start_hour: "23:30" }), 403, "booking slot not available");
  });
  it("403 booking slot not available: a closure", async () => {
    const date = dateInDays(150);
    await createIn(client, "closures", { start_date: date, reason: "private event" });
    expectProblem(await put(await fresh(), { start_day: date }), 403, "booking slot not available");
  });
  it("403 customer is banned", async () => {
    const id = await fresh();
    const banned = (
      await book(client, {
        start_date: dateInDays(151),
        service_id: r.service.id,
        customer: { first_name: "Mallory", email: "mallory@example.com" },
      })
    ).json.data[0];
    await client.d1.prepare("UPDATE customers SET banned = 1 WHERE id = ?").bind(banned.customer.id).run();
    expectProblem(
      await put(id, { customer: { first_name: "Mallory", email: "mallory@example.com" } }),
      403,
      "customer is banned",
    );
    expectProblem(
      await book(client, {
        start_date: dateInDays(152),
        service_id: r.service.id,
        customer: { id: banned.customer.id },
      }),
      403,
      "customer is banned",
    );
  });
  it("403 service is not available: the service does not run that day", async () => {
    const date = dateInDays(153);
    const weekdays = [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== isoWeekday(date));
    const lunch = await createIn(client, "services", {
      name: "Weekday lunch",
      start_hour: "12:00",
      end_hour: "14:00",
      weekdays,
    });
    expectProblem(
      await put(await fresh(), { start_day: date, start_hour: "12:00", service_id: lunch.id }),
      403,
      "service is not available",
    );
  });
  it("403 room capacity has been exceeded", async () => {
    expectProblem(await put(await fresh(), { pax: 50 }), 403, "room capacity has been exceeded");
    expectProblem(
      await put(await fresh(), { pax: 4, table_ids: [r.t1.id] }),
      403,
      "room capacity has been exceeded",
    );
  });
  it("403 table not available", async () => {
    const date = dateInDays(154);
    await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t2.id] });
    expectProblem(
      await put(await fresh(), { start_day: date, table_ids: [r.t2.id] }),
      403,
      "table not available",
    );
  });
  it("403 service not available: the party size is outside the service's limits", async () => {
    const small = await createIn(client, "services", {
      name: "Bar",
      start_hour: "18:00",
      end_hour: "23:00",
      pax_max: 2,
    });
    expectProblem(await put(await fresh(), { pax: 3, service_id: small.id }), 403, "service not available");
  });
  it("404 user not found: an unknown customer id", async () => {
    expectProblem(await put(await fresh(), { customer: { id: 999999999 } }), 404, "user not found");
  });
  it("404 reservation not found", async () => {
    expectProblem(await put(999999999, { pax: 2 }), 404, "reservation not found");
  });
  it("403 reservation not available: a cancelled reservation cannot change", async () => {
    const id = await fresh();
    await client.call(path(id), { method: "DELETE" });
    expectProblem(await put(id, { pax: 3 }), 403, "reservation not available");
  });
  it("503 service unavailable: the reservation keeps changing under every attempt", async () => {
    const id = await fresh();
    // Persistent contention, made real: every versioned write of this reservation is refused,
    // as the optimistic-lock trigger does when another request changed the row first.
    await client.d1
      .prepare(
        `CREATE TRIGGER test_contention BEFORE UPDATE OF version ON reservations FOR EACH ROW WHEN NEW.id = ${id}
       BEGIN SELECT RAISE(ABORT, 'reservation_changed'); END`,
      )
      .run();
    try {
      const res = await put(id, { pax: 3 });
      expectProblem(res, 503, "service unavailable");
      expect(res.headers.get("Retry-After")).toBe("1");
    } finally {
      await client.d1.prepare("DROP TRIGGER test_contention").run();
    }
    expect((await put(id, { pax: 3 })).status).toBe(200);
  });

  it("404 service, room and table not found for ids outside the property", async () => {
    const id = await fresh();
    expectProblem(await put(id, { service_id: 999999999 }), 404, "service not found");
    expectProblem(await put(id, { room_id: 999999999 }), 404, "room not found");
    expectProblem(await put(id, { table_ids: [999999999] }), 404, "table not found");
  });
});

describe("PATCH status update", () => {
  it("403 reservation not available: a move the state machine refuses", async () => {
    const id = (await book(client, { start_date: dateInDays(160), service_id: r.service.id })).json.data[0]
      .id;
    await client.call(path(id), { method: "DELETE" });
    const res = await client.call(path(id, "?status=accepted"), { method: "PATCH" });
    expectProblem(res, 403, "reservation not available");
    expect(res.json.detail).toContain("CANCELLED");
    expectProblem(
      await client.call(path(reservation.id, "/status?status=WAITING"), { method: "PATCH" }),
      403,
      "reservation not available",
    );
  });
  it("403 resource not available: no free table for the waiting guest", async () => {
    const date = dateInDays(161);
    const w = (await book(client, { start_date: date, service_id: r.service.id, waiting_list: true, pax: 6 }))
      .json.data[0];
    await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t1.id] });
    expectProblem(
      await client.call(path(w.id, "?status=accepted"), { method: "PATCH" }),
      403,
      "resource not available",
    );
    expect((await client.call(path(w.id))).json.data[0].status).toBe("WAITING");
  });
  it("404 property not found", async () => {
    expectProblem(
      await client.call(path(reservation.id, "?status=confirmed"), { method: "PATCH", property: 999999999 }),
      404,
      "property not found",
    );
  });
  it("404 reservation not found", async () => {
    expectProblem(
      await client.call(path(999999999, "?status=confirmed"), { method: "PATCH" }),
      404,
      "reservation not found",
    );
  });
  it("400 for a status that does not exist, or none", async () => {
    expectInvalid(await client.call(path(reservation.id, "?status=maybe"), { method: "PATCH" }), "status");
    expectInvalid(await client.call(path(reservation.id), { method: "PATCH" }), "status");
  });
});

describe("DELETE /reservations/{reservation_id}", () => {
  it("404 property not found", async () => {
    expectProblem(
      await client.call(path(reservation.id), { method: "DELETE", property: 999999999 }),
      404,
      "property not found",
    );
  });
  it("404 reservation not found", async () => {
    expectProblem(await client.call(path(999999999), { method: "DELETE" }), 404, "reservation not found");
    expectProblem(
      await stranger.call(path(reservation.id), { method: "DELETE" }),
      404,
      "reservation not found",
    );
  });
});

describe("POST /reservations refusals", () => {
  it("requires the fields a reservation cannot do without", async () => {
    expectInvalid(
      await client.call("/api/v2/reservations", { body: {} }),
      "start_date",
      "start_hour",
      "pax",
      "service_id",
    );
    expectInvalid(
      await client.call("/api/v2/reservations", {
        body: { start_date: r.date, start_hour: "19:00", pax: 2, service_id: r.service.id },
      }),
      "customer",
    );
    expectInvalid(
      await book(client, {
        start_date: r.date,
        service_id: r.service.id,
        customer: { email: "x@example.com" },
      }),
      "customer.first_name",
    );
    expectInvalid(
      await book(client, { start_date: r.date, service_id: r.service.id, customer: { first_name: "X" } }),
      "customer.email",
    );
    expectInvalid(
      await book(client, {
        start_date: r.date,
        service_id: r.service.id,
        customer: { first_name: "X", email: "not-an-email", phone: "call me" },
      }),
      "customer.email",
      "customer.phone",
    );
    expectInvalid(
      await book(client, { start_date: r.date, service_id: r.service.id, channel: "PHONE" }),
      "channel",
    );
  });
  it("refuses the past and bad notice online, and tables of another room", async () => {
    expectProblem(
      await book(client, { start_date: dateInDays(-2), service_id: r.service.id, channel: "PLATFORM_BOOK" }),
      403,
      "booking slot not available",
    );
    const other = (await client.call("/api/v2/rooms", { body: { name: "Terrace" } })).json.data[0];
    expectInvalid(
      await book(client, {
        start_date: r.date,
        service_id: r.service.id,
        room_id: other.id,
        table_ids: [r.t1.id],
      }),
      "table_ids",
    );
  });
  it("refuses a duration or an OUTOFORDER block from the booking engine channel", async () => {
    expectInvalid(
      await book(client, {
        start_date: r.date,
        service_id: r.service.id,
        channel: "PLATFORM_BOOK",
        duration: 30,
      }),
      "duration",
    );
    expectInvalid(
      await book(client, {
        start_date: r.date,
        service_id: r.service.id,
        channel: "PLATFORM_BOOK",
        status: "OUTOFORDER",
      }),
      "status",
    );
  });
  it("403 table not available for a table held at that time", async () => {
    const date = dateInDays(170);
    expect(
      (await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t1.id] })).status,
    ).toBe(201);
    expectProblem(
      await book(client, {
        start_date: date,
        start_hour: "18:00",
        service_id: r.service.id,
        table_ids: [r.t1.id],
      }),
      403,
      "booking slot not available",
    );
    expectProblem(
      await book(client, {
        start_date: date,
        start_hour: "19:45",
        service_id: r.service.id,
        table_ids: [r.t1.id],
      }),
      403,
      "table not available",
    );
    expectProblem(
      await book(client, {
        start_date: date,
        start_hour: "19:30",
        service_id: r.service.id,
        table_ids: [r.group.id],
      }),
      403,
      "table not available",
    );
  });
});
