import { describe, expect, it } from "vitest";
import {
  createIn,
  dateInDays,
  expectInvalid,
  expectProblem,
  insertReservation,
  newClient,
  seedCatalog,
  type TestClient,
} from "./helpers";

// ---------- fixtures of this file ----------

const post = (client: TestClient, body: Record<string, unknown>) => createIn(client, "tables", body);
const room = async (client: TestClient, name = "Room") =>
  (await client.call("/api/v2/rooms", { body: { name } })).json.data[0];

// ---------- happy paths ----------

describe("POST /api/v2/tables", () => {
  it("creates a single table with defaults: guests_min 1, bookable, online, not a group", async () => {
    const client = await newClient();
    const r = await room(client);
    const res = await client.call("/api/v2/tables", { body: { name: "T1", room_id: r.id, guests_max: 4 } });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual([
      {
        id: expect.any(Number),
        name: "T1",
        room_id: r.id,
        guests_min: 1,
        guests_max: 4,
        bookable: true,
        online: true,
        group: false,
        table_ids: [],
        layout: null,
      },
    ]);
  });

  it("keeps the given guests_min, bookable and online", async () => {
    const client = await newClient();
    const r = await room(client);
    const t = await post(client, {
      name: "Booth",
      room_id: r.id,
      guests_min: 3,
      guests_max: 6,
      bookable: false,
      online: false,
    });
    expect(t).toMatchObject({ guests_min: 3, guests_max: 6, bookable: false, online: false });
  });

  it("creates a group of two or more tables of one room; guests_max defaults to the sum of its members", async () => {
    const client = await newClient();
    const r = await room(client);
    const a = await post(client, { name: "A", room_id: r.id, guests_max: 2 });
    const b = await post(client, { name: "B", room_id: r.id, guests_max: 4 });
    const c = await post(client, { name: "C", room_id: r.id, guests_max: 6 });

    const group = await post(client, {
      name: "A+B+C",
      room_id: r.id,
      group: true,
      table_ids: [c.id, a.id, b.id, a.id],
    });
    expect(group).toMatchObject({ name: "A+B+C", room_id: r.id, group: true, guests_min: 1, guests_max: 12 });
    expect(group.table_ids).toEqual([a.id, b.id, c.id]);

    // read back from D1: every member is stored under the group
    const read = await client.call(`/api/v2/tables/${group.id}`);
    expect(read.json.data[0]).toMatchObject({
      id: group.id,
      group: true,
      guests_max: 12,
      table_ids: [a.id, b.id, c.id],
    });
    // and no member became a group of the others
    expect((await client.call(`/api/v2/tables/${a.id}`)).json.data[0]).toMatchObject({
      group: false,
      table_ids: [],
    });
  });

  it("keeps a group's explicit guests_max", async () => {
    const client = await newClient();
    const { room: r, t1, t2 } = await seedCatalog(client);
    const group = await post(client, {
      name: "Big",
      room_id: r.id,
      group: true,
      table_ids: [t1.id, t2.id],
      guests_min: 4,
      guests_max: 5,
    });
    expect(group).toMatchObject({ guests_min: 4, guests_max: 5, table_ids: [t1.id, t2.id] });
  });
});

describe("GET /api/v2/tables", () => {
  it("lists the property's live tables by id", async () => {
    const client = await newClient();
    const { t1, t2, group } = await seedCatalog(client);
    const res = await client.call("/api/v2/tables");
    expect(res.status).toBe(200);
    expect(res.json.next_cursor).toBeNull();
    expect(res.json.data.map((t: any) => t.id)).toEqual([t1.id, t2.id, group.id]);
    expect(res.json.data[2].table_ids).toEqual([t1.id, t2.id]);
  });

  it("pages with limit and next_cursor", async () => {
    const client = await newClient();
    const { t1, t2, group } = await seedCatalog(client);
    const first = await client.call("/api/v2/tables?limit=2");
    expect(first.json.data.map((t: any) => t.id)).toEqual([t1.id, t2.id]);
    const second = await client.call(
      `/api/v2/tables?limit=2&next_cursor=${encodeURIComponent(first.json.next_cursor)}`,
    );
    expect(second.json.data.map((t: any) => t.id)).toEqual([group.id]);
    expect(second.json.data[0].table_ids).toEqual([t1.id, t2.id]);
    expect(second.json.next_cursor).toBeNull();
  });

  it("does not show another property's tables", async () => {
    const alice = await newClient();
    const bob = await newClient();
    await seedCatalog(alice);
    expect((await bob.call("/api/v2/tables")).json.data).toEqual([]);
  });
});

describe("PUT /api/v2/tables/{id}", () => {
  it("changes only the fields given", async () => {
    const client = await newClient();
    const { room: r, t2 } = await seedCatalog(client);
    const res = await client.call(`/api/v2/tables/${t2.id}`, {
      method: "PUT",
      body: { name: "Window", guests_min: 2, online: false },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      {
        id: t2.id,
        name: "Window",
        room_id: r.id,
        guests_min: 2,
        guests_max: 4,
        bookable: true,
        online: false,
        group: false,
        table_ids: [],
        layout: null,
      },
    ]);
    expect((await client.call(`/api/v2/tables/${t2.id}`)).json.data[0]).toMatchObject({
      name: "Window",
      guests_min: 2,
      online: false,
    });
  });

  it("replaces a group's members", async () => {
    const client = await newClient();
    const { room: r, t1, group } = await seedCatalog(client);
    const t3 = await post(client, { name: "T3", room_id: r.id, guests_max: 2 });
    const res = await client.call(`/api/v2/tables/${group.id}`, {
      method: "PUT",
      body: { table_ids: [t3.id, t1.id] },
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0].table_ids).toEqual([t1.id, t3.id]);
    expect((await client.call(`/api/v2/tables/${group.id}`)).json.data[0].table_ids).toEqual([t1.id, t3.id]);
  });

  it("moves a table that belongs to no group to another room", async () => {
    const client = await newClient();
    const { room: r } = await seedCatalog(client);
    const loose = await post(client, { name: "Loose", room_id: r.id, guests_max: 2 });
    const terrace = await room(client, "Terrace");
    const res = await client.call(`/api/v2/tables/${loose.id}`, {
      method: "PUT",
      body: { room_id: terrace.id },
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0].room_id).toBe(terrace.id);
    expect(
      (await client.call(`/api/v2/rooms/${terrace.id}`)).json.data[0].tables.map((t: any) => t.id),
    ).toEqual([loose.id]);
  });
});

describe("DELETE /api/v2/tables/{id}", () => {
  it("answers data: [id] and the table is not found afterwards", async () => {
    const client = await newClient();
    const r = await room(client);
    const t = await post(client, { name: "T", room_id: r.id, guests_max: 2 });
    const res = await client.call(`/api/v2/tables/${t.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [t.id] });
    expectProblem(await client.call(`/api/v2/tables/${t.id}`), 404, "table not found");
    expect((await client.call("/api/v2/tables")).json.data).toEqual([]);
  });

  it("deletes a group, which frees its members for deletion", async () => {
    const client = await newClient();
    const { t1, group } = await seedCatalog(client);
    expect((await client.call(`/api/v2/tables/${group.id}`, { method: "DELETE" })).json).toEqual({
      data: [group.id],
    });
    expect((await client.call(`/api/v2/tables/${t1.id}`, { method: "DELETE" })).json).toEqual({
      data: [t1.id],
    });
  });
});

// ---------- errors ----------

describe("tables: invalid input", () => {
  it("requires guests_max for a single table", async () => {
    const client = await newClient();
    const r = await room(client);
    expectInvalid(await client.call("/api/v2/tables", { body: { name: "T", room_id: r.id } }), "guests_max");
  });

  it("refuses guests_min above guests_max on create and on update", async () => {
    const client = await newClient();
    const { room: r, t1 } = await seedCatalog(client);
    expectInvalid(
      await client.call("/api/v2/tables", {
        body: { name: "T", room_id: r.id, guests_min: 5, guests_max: 4 },
      }),
      "guests_min",
    );
    expectInvalid(
      await client.call(`/api/v2/tables/${t1.id}`, { method: "PUT", body: { guests_min: 3 } }),
      "guests_min",
    );
    expect((await client.call(`/api/v2/tables/${t1.id}`)).json.data[0]).toMatchObject({
      guests_min: 1,
      guests_max: 2,
    });
  });

  it("refuses guests out of range and names each field", async () => {
    const client = await newClient();
    const r = await room(client);
    const res = await client.call("/api/v2/tables", {
      body: { name: "T", room_id: r.id, guests_min: 0, guests_max: 2.5 },
    });
    expectProblem(res, 400, "invalid input data");
    expect(res.json.errors.map((e: any) => e.path).sort()).toEqual(["guests_max", "guests_min"]);
  });

  it("refuses a group with fewer than two distinct member tables", async () => {
    const client = await newClient();
    const { room: r, t1 } = await seedCatalog(client);
    for (const table_ids of [undefined, [], [t1.id], [t1.id, t1.id]]) {
      expectInvalid(
        await client.call("/api/v2/tables", { body: { name: "G", room_id: r.id, group: true, table_ids } }),
        "table_ids",
      );
    }
  });

  it("refuses a group whose member is in another room, is a group, or does not exist", async () => {
    const client = await newClient();
    const { room: r, t1, group } = await seedCatalog(client);
    const elsewhere = await post(client, {
      name: "E",
      room_id: (await room(client, "Other")).id,
      guests_max: 2,
    });
    for (const other of [elsewhere.id, group.id, 999999999]) {
      const res = await client.call("/api/v2/tables", {
        body: { name: "G", room_id: r.id, group: true, table_ids: [t1.id, other] },
      });
      expectInvalid(res, "table_ids");
      expect(res.json.detail).toContain(String(other));
    }
  });

  it("refuses members on a table that is not a group", async () => {
    const client = await newClient();
    const { room: r, t1, t2 } = await seedCatalog(client);
    expectInvalid(
      await client.call("/api/v2/tables", {
        body: { name: "X", room_id: r.id, guests_max: 2, table_ids: [t1.id, t2.id] },
      }),
      "table_ids",
    );
    expectInvalid(
      await client.call(`/api/v2/tables/${t1.id}`, { method: "PUT", body: { table_ids: [t2.id] } }),
      "table_ids",
    );
  });

  it("refuses a group that would contain itself", async () => {
    const client = await newClient();
    const { t1, group } = await seedCatalog(client);
    expectInvalid(
      await client.call(`/api/v2/tables/${group.id}`, {
        method: "PUT",
        body: { table_ids: [t1.id, group.id] },
      }),
      "table_ids",
    );
  });
});

describe("tables: not found", () => {
  it("answers 404 room not found for a room of another property, and creates nothing", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const ownersRoom = await room(owner);
    const res = await stranger.call("/api/v2/tables", {
      body: { name: "T", room_id: ownersRoom.id, guests_max: 2 },
    });
    expectProblem(res, 404, "room not found");
    expect((await stranger.call("/api/v2/tables")).json.data).toEqual([]);
    expect((await owner.call("/api/v2/tables")).json.data).toEqual([]);
  });

  it("answers 404 room not found when moving a table to another property's room", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const ownersRoom = await room(owner);
    const { t1 } = await seedCatalog(stranger);
    await stranger
      .call(`/api/v2/tables/${t1.id}`, { method: "PUT", body: { room_id: ownersRoom.id } })
      .then((res) => expectProblem(res, 404, "room not found"));
  });

  it("answers 404 room not found for a deleted room", async () => {
    const client = await newClient();
    const r = await room(client);
    await client.call(`/api/v2/rooms/${r.id}`, { method: "DELETE" });
    expectProblem(
      await client.call("/api/v2/tables", { body: { name: "T", room_id: r.id, guests_max: 2 } }),
      404,
      "room not found",
    );
  });

  it("answers 404 table not found for another property's table on get, update and delete", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const { t1 } = await seedCatalog(owner);
    expectProblem(await stranger.call(`/api/v2/tables/${t1.id}`), 404, "table not found");
    expectProblem(
      await stranger.call(`/api/v2/tables/${t1.id}`, { method: "PUT", body: { name: "Mine" } }),
      404,
      "table not found",
    );
    expectProblem(
      await stranger.call(`/api/v2/tables/${t1.id}`, { method: "DELETE" }),
      404,
      "table not found",
    );
    expect((await owner.call(`/api/v2/tables/${t1.id}`)).json.data[0].name).toBe("T1");
  });
});

describe("tables: conflicts", () => {
  it("answers 409 resource in use when deleting a table that belongs to a group", async () => {
    const client = await newClient();
    const { t1, group } = await seedCatalog(client);
    const res = await client.call(`/api/v2/tables/${t1.id}`, { method: "DELETE" });
    expectProblem(res, 409, "resource in use");
    expect(res.json.detail).toContain(String(group.id));
    expect((await client.call(`/api/v2/tables/${t1.id}`)).status).toBe(200);
  });

  it("answers 409 resource in use when moving a group member to another room", async () => {
    const client = await newClient();
    const { room: r, t2 } = await seedCatalog(client);
    const terrace = await room(client, "Terrace");
    expectProblem(
      await client.call(`/api/v2/tables/${t2.id}`, { method: "PUT", body: { room_id: terrace.id } }),
      409,
      "resource in use",
    );
    expect((await client.call(`/api/v2/tables/${t2.id}`)).json.data[0].room_id).toBe(r.id);
  });

  it("answers 409 when an upcoming reservation holds the table, and keeps it", async () => {
    const client = await newClient();
    const { group } = await seedCatalog(client);
    const reservationId = await insertReservation(client.propertyId, { tableIds: [group.id] });
    const res = await client.call(`/api/v2/tables/${group.id}`, { method: "DELETE" });
    expectProblem(res, 409, "resource in use");
    expect(res.json.detail).toContain(String(reservationId));
    expect((await client.call(`/api/v2/tables/${group.id}`)).status).toBe(200);
  });

  it("deletes a table whose only reservation was cancelled", async () => {
    const client = await newClient();
    const { group } = await seedCatalog(client);
    await insertReservation(client.propertyId, { tableIds: [group.id], status: "CANCELLED" });
    expect((await client.call(`/api/v2/tables/${group.id}`, { method: "DELETE" })).json).toEqual({
      data: [group.id],
    });
  });

  it("deletes a table whose only reservation is in the past", async () => {
    const client = await newClient();
    const { group } = await seedCatalog(client);
    await insertReservation(client.propertyId, { tableIds: [group.id], date: dateInDays(-365) });
    expect((await client.call(`/api/v2/tables/${group.id}`, { method: "DELETE" })).json).toEqual({
      data: [group.id],
    });
  });
});

// ---------- the floor plan ----------

describe("a table's place on the floor plan (layout)", () => {
  it("is null until placed, is set on create or update, and null takes it off the plan", async () => {
    const client = await newClient();
    const r = await room(client);
    const round = { x: 100, y: 60, width: 80, height: 80, shape: "round", rotation: 0 };
    const t = await post(client, { name: "T1", room_id: r.id, guests_max: 2, layout: round });
    expect(t.layout).toEqual(round);
    const plain = await post(client, { name: "T2", room_id: r.id, guests_max: 4 });
    expect(plain.layout).toBeNull();
    const moved = { x: 900, y: 600, width: 100, height: 100, shape: "rect", rotation: 45 };
    const put = await client.call(`/api/v2/tables/${plain.id}`, { method: "PUT", body: { layout: moved } });
    expect(put.json.data[0].layout).toEqual(moved);
    // another change keeps the place; the room answers it too
    const renamed = await client.call(`/api/v2/tables/${plain.id}`, { method: "PUT", body: { name: "T2b" } });
    expect(renamed.json.data[0].layout).toEqual(moved);
    const inRoom = (await client.call(`/api/v2/rooms/${r.id}`)).json.data[0].tables;
    expect(inRoom.map((x: { layout: unknown }) => x.layout)).toEqual([round, moved]);
    const off = await client.call(`/api/v2/tables/${t.id}`, { method: "PUT", body: { layout: null } });
    expect(off.json.data[0].layout).toBeNull();
  });

  it("refuses a place off the plan, a shape it does not draw and a rotation past 359", async () => {
    const client = await newClient();
    const r = await room(client);
    const t = await post(client, { name: "T1", room_id: r.id, guests_max: 2 });
    const put = (layout: Record<string, unknown>) =>
      client.call(`/api/v2/tables/${t.id}`, { method: "PUT", body: { layout } });
    const fine = { x: 0, y: 0, width: 80, height: 80, shape: "rect", rotation: 0 };
    expectInvalid(await put({ ...fine, x: 950 }), "layout.width");
    expectInvalid(await put({ ...fine, y: 650, height: 60 }), "layout.height");
    expectInvalid(await put({ ...fine, shape: "oval", rotation: 360 }), "layout.shape", "layout.rotation");
    expectInvalid(await put({ ...fine, width: 10, x: -1 }), "layout.width", "layout.x");
    expectInvalid(
      await put({ x: 1 }),
      "layout.y",
      "layout.width",
      "layout.height",
      "layout.shape",
      "layout.rotation",
    );
    expect((await client.call(`/api/v2/tables/${t.id}`)).json.data[0].layout).toBeNull();
  });
});
