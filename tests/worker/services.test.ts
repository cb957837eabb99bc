import { describe, expect, it } from "vitest";
import {
  createIn,
  dateInDays,
  expectInvalid,
  expectProblem,
  insertReservation,
  newClient,
  type TestClient,
} from "./helpers";

// ---------- fixtures of this file ----------

const DINNER = { name: "Dinner", start_hour: "19:00", end_hour: "22:00" };

const post = (client: TestClient, body: Record<string, unknown> = DINNER) =>
  createIn(client, "services", body);

// ---------- happy paths ----------

describe("POST /api/v2/services", () => {
  it("takes HH:MM, answers HH:MM:SS, and fills the defaults: every weekday, pax_min 1, online, enabled", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/services", { body: DINNER });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual([
      {
        id: expect.any(Number),
        name: "Dinner",
        description: null,
        image_url: null,
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        start_hour: "19:00:00",
        end_hour: "22:00:00",
        slot_interval: null,
        average_stay: null,
        pax_min: 1,
        pax_max: null,
        online: true,
        enabled: true,
        valid_from: null,
        valid_to: null,
        prepayment_window: null,
        payment: null,
        pacing_interval: 15,
        max_covers_per_interval: null,
        max_parties_per_interval: null,
      },
    ]);
  });

  it("keeps every field given, with weekdays in ISO order", async () => {
    const client = await newClient();
    const body = {
      name: "Lunch",
      description: "Two courses",
      image_url: "https://img.example/lunch.jpg",
      weekdays: [5, 2, 3],
      start_hour: "12:00:00",
      end_hour: "14:30:00",
      slot_interval: 30,
      average_stay: 90,
      pax_min: 2,
      pax_max: 8,
      online: false,
      enabled: false,
      valid_from: "2030-01-01",
      valid_to: "2030-06-30",
      prepayment_window: 20,
      pacing_interval: 30,
      max_covers_per_interval: 12,
      max_parties_per_interval: 4,
    };
    const s = await post(client, body);
    expect(s).toEqual({ ...body, id: expect.any(Number), weekdays: [2, 3, 5], payment: null });
  });

  it("accepts a service with a single start time (end_hour equal to start_hour)", async () => {
    const client = await newClient();
    const s = await post(client, { name: "Seating", start_hour: "20:00", end_hour: "20:00" });
    expect(s).toMatchObject({ start_hour: "20:00:00", end_hour: "20:00:00" });
  });
});

describe("GET /api/v2/services", () => {
  it("lists the property's services by id, paged with limit and next_cursor", async () => {
    const client = await newClient();
    const lunch = await post(client, { name: "Lunch", start_hour: "12:00", end_hour: "14:00" });
    const dinner = await post(client);
    const late = await post(client, { name: "Late", start_hour: "22:00", end_hour: "23:30" });

    const all = await client.call("/api/v2/services");
    expect(all.status).toBe(200);
    expect(all.json.data.map((s: any) => s.name)).toEqual(["Lunch", "Dinner", "Late"]);
    expect(all.json.next_cursor).toBeNull();

    const first = await client.call("/api/v2/services?limit=2");
    expect(first.json.data.map((s: any) => s.id)).toEqual([lunch.id, dinner.id]);
    const second = await client.call(
      `/api/v2/services?limit=2&next_cursor=${encodeURIComponent(first.json.next_cursor)}`,
    );
    expect(second.json.data.map((s: any) => s.id)).toEqual([late.id]);
    expect(second.json.next_cursor).toBeNull();
  });

  it("does not show another property's services", async () => {
    const alice = await newClient();
    const bob = await newClient();
    await post(alice);
    expect((await bob.call("/api/v2/services")).json.data).toEqual([]);
  });
});

describe("GET /api/v2/services/{id}", () => {
  it("answers the service in a data array", async () => {
    const client = await newClient();
    const created = await post(client);
    const res = await client.call(`/api/v2/services/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([created]);
  });
});

describe("PUT /api/v2/services/{id}", () => {
  it("changes only the fields given", async () => {
    const client = await newClient();
    const created = await post(client, { ...DINNER, weekdays: [5, 6], pax_max: 6 });
    const res = await client.call(`/api/v2/services/${created.id}`, {
      method: "PUT",
      body: { end_hour: "23:15", description: "Late dinner" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([{ ...created, end_hour: "23:15:00", description: "Late dinner" }]);
    expect((await client.call(`/api/v2/services/${created.id}`)).json.data).toEqual(res.json.data);
  });

  it("clears an override with null", async () => {
    const client = await newClient();
    const created = await post(client, { ...DINNER, average_stay: 120, pax_max: 4 });
    const res = await client.call(`/api/v2/services/${created.id}`, {
      method: "PUT",
      body: { average_stay: null, pax_max: null },
    });
    expect(res.json.data[0]).toMatchObject({ average_stay: null, pax_max: null });
  });
});

describe("DELETE /api/v2/services/{id}", () => {
  it("answers data: [id]; the service is then not found", async () => {
    const client = await newClient();
    const s = await post(client);
    const res = await client.call(`/api/v2/services/${s.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [s.id] });
    expectProblem(await client.call(`/api/v2/services/${s.id}`), 404, "service not found");
    expect((await client.call("/api/v2/services")).json.data).toEqual([]);
  });
});

// ---------- errors ----------

describe("services: invalid input", () => {
  it("requires name, start_hour and end_hour", async () => {
    const client = await newClient();
    expectInvalid(await client.call("/api/v2/services", { body: {} }), "name", "start_hour", "end_hour");
  });

  it("takes an end_hour before the start_hour as a service past midnight, on create and on update", async () => {
    const client = await newClient();
    const late = await client.call("/api/v2/services", {
      body: { name: "Late", start_hour: "22:00", end_hour: "01:30" },
    });
    expect(late.status, late.text).toBe(201);
    expect(late.json.data[0]).toMatchObject({ start_hour: "22:00:00", end_hour: "01:30:00" });
    const s = await post(client);
    const moved = await client.call(`/api/v2/services/${s.id}`, {
      method: "PUT",
      body: { start_hour: "22:30" },
    });
    expect(moved.json.data[0]).toMatchObject({ start_hour: "22:30:00", end_hour: s.end_hour });
  });

  it("refuses pacing out of range: an interval of 5 to 240 minutes, limits of at least 1", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/services", {
        body: { ...DINNER, pacing_interval: 4, max_covers_per_interval: 0, max_parties_per_interval: -1 },
      }),
      "pacing_interval",
      "max_covers_per_interval",
      "max_parties_per_interval",
    );
    const s = await post(client);
    expect(s).toMatchObject({
      pacing_interval: 15,
      max_covers_per_interval: null,
      max_parties_per_interval: null,
    });
  });

  it("refuses times that are not HH:MM or HH:MM:SS", async () => {
    const client = await newClient();
    for (const bad of ["24:00", "7:00", "19h", "19:60", "19:00:00.000"]) {
      expectInvalid(
        await client.call("/api/v2/services", { body: { ...DINNER, start_hour: bad } }),
        "start_hour",
      );
    }
  });

  it("refuses pax_max below pax_min, on create and on update", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/services", { body: { ...DINNER, pax_min: 4, pax_max: 2 } }),
      "pax_max",
    );
    const s = await post(client, { ...DINNER, pax_max: 6 });
    expectInvalid(
      await client.call(`/api/v2/services/${s.id}`, { method: "PUT", body: { pax_min: 8 } }),
      "pax_max",
    );
    expect((await client.call(`/api/v2/services/${s.id}`)).json.data[0]).toMatchObject({
      pax_min: 1,
      pax_max: 6,
    });
  });

  it("refuses weekdays outside 1..7, repeated, or empty", async () => {
    const client = await newClient();
    for (const weekdays of [[0], [8], [1, 1], [], [1.5]]) {
      const res = await client.call("/api/v2/services", { body: { ...DINNER, weekdays } });
      expectProblem(res, 400, "invalid input data");
      expect(res.json.errors.every((e: any) => e.path.startsWith("weekdays"))).toBe(true);
    }
  });

  it("refuses valid_to before valid_from, and dates that are not calendar dates", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/services", {
        body: { ...DINNER, valid_from: "2030-06-01", valid_to: "2030-05-31" },
      }),
      "valid_to",
    );
    expectInvalid(
      await client.call("/api/v2/services", { body: { ...DINNER, valid_from: "2030-02-30" } }),
      "valid_from",
    );
  });

  it("refuses a slot_interval or average_stay out of range", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/services", { body: { ...DINNER, slot_interval: 0, average_stay: 100000 } }),
      "slot_interval",
      "average_stay",
    );
  });
});

describe("services: not found", () => {
  it("answers 404 service not found for another property's service on get, update and delete", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const s = await post(owner);
    expectProblem(await stranger.call(`/api/v2/services/${s.id}`), 404, "service not found");
    expectProblem(
      await stranger.call(`/api/v2/services/${s.id}`, { method: "PUT", body: { name: "Mine" } }),
      404,
      "service not found",
    );
    expectProblem(
      await stranger.call(`/api/v2/services/${s.id}`, { method: "DELETE" }),
      404,
      "service not found",
    );
    expect((await owner.call(`/api/v2/services/${s.id}`)).json.data[0].name).toBe("Dinner");
  });
});

describe("DELETE /api/v2/services/{id} while reservations use it", () => {
  it("answers 409 resource in use for an upcoming reservation, and keeps the service", async () => {
    const client = await newClient();
    const s = await post(client);
    const reservationId = await insertReservation(client.propertyId, { serviceId: s.id });
    const res = await client.call(`/api/v2/services/${s.id}`, { method: "DELETE" });
    expectProblem(res, 409, "resource in use");
    expect(res.json.detail).toContain(String(reservationId));
    expect((await client.call(`/api/v2/services/${s.id}`)).status).toBe(200);
  });

  it("answers 409 for a waiting-list reservation too: it is not final", async () => {
    const client = await newClient();
    const s = await post(client);
    await insertReservation(client.propertyId, { serviceId: s.id, status: "WAITING" });
    expectProblem(
      await client.call(`/api/v2/services/${s.id}`, { method: "DELETE" }),
      409,
      "resource in use",
    );
  });

  it("deletes the service when its reservations are cancelled, rejected or expired", async () => {
    const client = await newClient();
    const s = await post(client);
    for (const status of ["CANCELLED", "REJECTED", "EXPIRED"])
      await insertReservation(client.propertyId, { serviceId: s.id, status });
    expect((await client.call(`/api/v2/services/${s.id}`, { method: "DELETE" })).json).toEqual({
      data: [s.id],
    });
  });

  it("deletes the service when its reservation is in the past", async () => {
    const client = await newClient();
    const s = await post(client);
    await insertReservation(client.propertyId, { serviceId: s.id, date: dateInDays(-365) });
    expect((await client.call(`/api/v2/services/${s.id}`, { method: "DELETE" })).json).toEqual({
      data: [s.id],
    });
  });
});
