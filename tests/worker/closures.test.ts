import { describe, expect, it } from "vitest";
import {
  book,
  createIn,
  dateInDays,
  expectInvalid,
  expectProblem,
  newClient,
  seedCatalog,
  type TestClient,
} from "./helpers";

const post = (client: TestClient, body: Record<string, unknown>) => createIn(client, "closures", body);

// ---------- happy paths ----------

describe("POST /api/v2/closures", () => {
  it("closes one whole day of everything: end_date defaults to start_date, hours and ids null", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/closures", {
      body: { start_date: "2030-12-24", reason: "Christmas" },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual([
      {
        id: expect.any(Number),
        start_date: "2030-12-24",
        end_date: "2030-12-24",
        start_hour: null,
        end_hour: null,
        room_ids: null,
        table_ids: null,
        service_ids: null,
        reason: "Christmas",
      },
    ]);
  });

  it("closes hours of several days for the rooms, tables and services named, without repeats", async () => {
    const client = await newClient();
    const { room, t1, t2, service } = await seedCatalog(client);
    const c = await post(client, {
      start_date: "2030-08-10",
      end_date: "2030-08-20",
      start_hour: "12:00",
      end_hour: "15:30",
      room_ids: [room.id, room.id],
      table_ids: [t2.id, t1.id],
      service_ids: [service.id],
    });
    expect(c).toMatchObject({
      start_date: "2030-08-10",
      end_date: "2030-08-20",
      start_hour: "12:00:00",
      end_hour: "15:30:00",
      room_ids: [room.id],
      table_ids: [t2.id, t1.id],
      service_ids: [service.id],
      reason: null,
    });
  });
});

describe("POST /api/v2/closures: past midnight and to the end of the day", () => {
  const nextDay = (date: string) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it("closes 23:00 to 01:00 over two dates, and refuses a party at 00:30 and one at 22:30 whose stay reaches it", async () => {
    const client = await newClient();
    const { room } = await seedCatalog(client);
    await createIn(client, "tables", { name: "Bar", room_id: room.id, guests_max: 2 });
    const night = await createIn(client, "services", {
      name: "Night",
      start_hour: "22:00",
      end_hour: "02:00",
      average_stay: 60,
    });
    const date = dateInDays(20);
    const c = await post(client, {
      start_date: date,
      end_date: nextDay(date),
      start_hour: "23:00",
      end_hour: "01:00",
      service_ids: [night.id],
    });
    expect(c).toMatchObject({
      start_date: date,
      end_date: nextDay(date),
      start_hour: "23:00:00",
      end_hour: "01:00:00",
    });
    for (const [start_date, start_hour] of [
      [nextDay(date), "00:30"],
      [date, "22:30"],
    ]) {
      const refused = await book(client, { start_date, start_hour, service_id: night.id });
      expectProblem(refused, 403, "booking slot not available");
      expect(refused.json.detail).toBe("a closure covers this stay");
    }
    expect(
      (await book(client, { start_date: nextDay(date), start_hour: "01:00", service_id: night.id })).status,
    ).toBe(201);
  });

  it("takes end_hour 24:00 as the end of the day: a 5-minute stay at 23:59 is refused", async () => {
    const client = await newClient();
    await seedCatalog(client);
    const late = await createIn(client, "services", {
      name: "Late",
      start_hour: "23:00",
      end_hour: "23:59",
      average_stay: 5,
    });
    const date = dateInDays(20);
    const c = await post(client, { start_date: date, start_hour: "23:58", end_hour: "24:00" });
    expect(c).toMatchObject({ start_hour: "23:58:00", end_hour: "24:00:00" });
    const refused = await book(client, { start_date: date, start_hour: "23:59", service_id: late.id });
    expectProblem(refused, 403, "booking slot not available");
    expect(refused.json.detail).toBe("a closure covers this stay");
    expect((await book(client, { start_date: date, start_hour: "23:53", service_id: late.id })).status).toBe(
      201,
    );
  });

  it("refuses 24:00 as a start_hour and any hour past it, naming the field", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/closures", {
        body: { start_date: "2030-12-24", start_hour: "24:00", end_hour: "24:00" },
      }),
      "start_hour",
    );
    for (const end_hour of ["24:01", "24:00:01", "25:00"]) {
      expectInvalid(
        await client.call("/api/v2/closures", {
          body: { start_date: "2030-12-24", start_hour: "23:00", end_hour },
        }),
        "end_hour",
      );
    }
  });

  it("refuses a closure past midnight that ends on its start_date, and lets an update move its end_date on", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/closures", {
      body: { start_date: "2030-12-31", start_hour: "23:00", end_hour: "01:00" },
    });
    expectInvalid(res, "end_hour");
    expect(res.json.errors[0].message).toMatch(/end_date after start_date/);
    const c = await post(client, { start_date: "2030-12-31", start_hour: "22:00", end_hour: "23:00" });
    expectInvalid(
      await client.call(`/api/v2/closures/${c.id}`, { method: "PUT", body: { end_hour: "01:00" } }),
      "end_hour",
    );
    const moved = await client.call(`/api/v2/closures/${c.id}`, {
      method: "PUT",
      body: { end_date: "2031-01-01", end_hour: "01:00" },
    });
    expect(moved.json.data[0]).toMatchObject({
      start_date: "2030-12-31",
      end_date: "2031-01-01",
      start_hour: "22:00:00",
      end_hour: "01:00:00",
    });
  });
});

describe("GET /api/v2/closures", () => {
  it("lists the property's closures by id, paged with limit and next_cursor", async () => {
    const client = await newClient();
    const a = await post(client, { start_date: "2030-01-01" });
    const b = await post(client, { start_date: "2030-02-01" });
    const c = await post(client, { start_date: "2030-03-01" });

    const first = await client.call("/api/v2/closures?limit=2");
    expect(first.status).toBe(200);
    expect(first.json.data.map((x: any) => x.id)).toEqual([a.id, b.id]);
    const second = await client.call(
      `/api/v2/closures?limit=2&next_cursor=${encodeURIComponent(first.json.next_cursor)}`,
    );
    expect(second.json.data).toEqual([c]);
    expect(second.json.next_cursor).toBeNull();
  });

  it("does not show another property's closures", async () => {
    const alice = await newClient();
    const bob = await newClient();
    await post(alice, { start_date: "2030-01-01" });
    expect((await bob.call("/api/v2/closures")).json).toEqual({ data: [], next_cursor: null });
  });
});

describe("GET /api/v2/closures/{id}", () => {
  it("answers the closure in a data array", async () => {
    const client = await newClient();
    const c = await post(client, { start_date: "2030-05-01", reason: "Labour day" });
    const res = await client.call(`/api/v2/closures/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([c]);
  });
});

describe("PUT /api/v2/closures/{id}", () => {
  it("changes only the fields given", async () => {
    const client = await newClient();
    const c = await post(client, { start_date: "2030-05-01", reason: "Labour day" });
    const res = await client.call(`/api/v2/closures/${c.id}`, {
      method: "PUT",
      body: { end_date: "2030-05-03", start_hour: "18:00", end_hour: "23:00" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      { ...c, end_date: "2030-05-03", start_hour: "18:00:00", end_hour: "23:00:00" },
    ]);
    expect((await client.call(`/api/v2/closures/${c.id}`)).json.data).toEqual(res.json.data);
  });

  it("widens a closure back to whole days and everything with nulls", async () => {
    const client = await newClient();
    const { room } = await seedCatalog(client);
    const c = await post(client, {
      start_date: "2030-05-01",
      start_hour: "12:00",
      end_hour: "14:00",
      room_ids: [room.id],
    });
    const res = await client.call(`/api/v2/closures/${c.id}`, {
      method: "PUT",
      body: { start_hour: null, end_hour: null, room_ids: null },
    });
    expect(res.json.data[0]).toMatchObject({ start_hour: null, end_hour: null, room_ids: null });
  });
});

describe("DELETE /api/v2/closures/{id}", () => {
  it("answers data: [id]; the closure is then not found", async () => {
    const client = await newClient();
    const c = await post(client, { start_date: "2030-05-01" });
    const res = await client.call(`/api/v2/closures/${c.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [c.id] });
    expectProblem(await client.call(`/api/v2/closures/${c.id}`), 404, "closure not found");
    expect((await client.call("/api/v2/closures")).json.data).toEqual([]);
  });
});

// ---------- errors ----------

describe("closures: invalid input", () => {
  it("requires a calendar start_date", async () => {
    const client = await newClient();
    expectInvalid(await client.call("/api/v2/closures", { body: { reason: "none" } }), "start_date");
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2030-02-30" } }),
      "start_date",
    );
    const wrongFormat = await client.call("/api/v2/closures", { body: { start_date: "24/12/2030" } });
    expectProblem(wrongFormat, 400, "invalid input data");
    // One entry per bad field: a malformed date is not also reported as "not a calendar date".
    expect(wrongFormat.json.errors).toEqual([{ path: "start_date", message: "expected a date YYYY-MM-DD" }]);
  });

  it("refuses an end_date before the start_date", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2030-12-24", end_date: "2030-12-23" } }),
      "end_date",
    );
  });

  it("refuses only one of start_hour and end_hour", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2030-12-24", start_hour: "12:00" } }),
      "end_hour",
    );
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2030-12-24", end_hour: "15:00" } }),
      "end_hour",
    );
    expect((await client.call("/api/v2/closures")).json.data).toEqual([]);
  });

  it("refuses an end_hour not after the start_hour", async () => {
    const client = await newClient();
    for (const end_hour of ["12:00", "11:59"]) {
      expectInvalid(
        await client.call("/api/v2/closures", {
          body: { start_date: "2030-12-24", start_hour: "12:00", end_hour },
        }),
        "end_hour",
      );
    }
  });

  it("refuses an update that leaves one hour without the other", async () => {
    const client = await newClient();
    const c = await post(client, { start_date: "2030-12-24" });
    expectInvalid(
      await client.call(`/api/v2/closures/${c.id}`, { method: "PUT", body: { start_hour: "12:00" } }),
      "end_hour",
    );
    expect((await client.call(`/api/v2/closures/${c.id}`)).json.data[0].start_hour).toBeNull();
  });

  it("refuses an update that moves the start_date after the end_date", async () => {
    const client = await newClient();
    const c = await post(client, { start_date: "2030-12-24", end_date: "2030-12-26" });
    expectInvalid(
      await client.call(`/api/v2/closures/${c.id}`, { method: "PUT", body: { start_date: "2030-12-27" } }),
      "end_date",
    );
  });

  it("refuses room_ids, table_ids or service_ids that do not exist in this property, naming the field", async () => {
    const owner = await newClient();
    const client = await newClient();
    const theirs = await seedCatalog(owner);
    const mine = await seedCatalog(client);
    const cases: [string, Record<string, number[]>][] = [
      ["room_ids", { room_ids: [mine.room.id, 999999999] }],
      ["room_ids", { room_ids: [theirs.room.id] }],
      ["table_ids", { table_ids: [mine.t1.id, theirs.t1.id] }],
      ["table_ids", { table_ids: [999999999] }],
      ["service_ids", { service_ids: [theirs.service.id] }],
    ];
    for (const [path, ids] of cases) {
      const res = await client.call("/api/v2/closures", { body: { start_date: "2031-01-01", ...ids } });
      expectInvalid(res, path);
      expect(res.json.detail).toMatch(/does not exist in this property/);
    }
    // only seedCatalog's own closure exists
    expect((await client.call("/api/v2/closures")).json.data.map((c: any) => c.id)).toEqual([
      mine.closure.id,
    ]);
  });

  it("refuses the ids of a deleted room, table or service", async () => {
    const client = await newClient();
    const { room, service } = await seedCatalog(client);
    const spare = (
      await client.call("/api/v2/tables", { body: { name: "Spare", room_id: room.id, guests_max: 2 } })
    ).json.data[0];
    await client.call(`/api/v2/tables/${spare.id}`, { method: "DELETE" });
    await client.call(`/api/v2/services/${service.id}`, { method: "DELETE" });
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2031-01-01", table_ids: [spare.id] } }),
      "table_ids",
    );
    expectInvalid(
      await client.call("/api/v2/closures", {
        body: { start_date: "2031-01-01", service_ids: [service.id] },
      }),
      "service_ids",
    );
    await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2031-01-01", room_ids: [room.id] } }),
      "room_ids",
    );
  });

  it("refuses an empty id list: null, not [], means everything", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/closures", { body: { start_date: "2031-01-01", room_ids: [] } }),
      "room_ids",
    );
  });
});

describe("closures: not found", () => {
  it("answers 404 closure not found for another property's closure on get, update and delete", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const c = await post(owner, { start_date: "2030-12-24", reason: "Owner's" });
    expectProblem(await stranger.call(`/api/v2/closures/${c.id}`), 404, "closure not found");
    expectProblem(
      await stranger.call(`/api/v2/closures/${c.id}`, { method: "PUT", body: { reason: "Mine" } }),
      404,
      "closure not found",
    );
    expectProblem(
      await stranger.call(`/api/v2/closures/${c.id}`, { method: "DELETE" }),
      404,
      "closure not found",
    );
    expect((await owner.call(`/api/v2/closures/${c.id}`)).json.data[0].reason).toBe("Owner's");
  });
});
