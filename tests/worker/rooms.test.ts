import { describe, expect, it } from "vitest";
import {
  createIn,
  dateInDays,
  expectProblem,
  insertReservation,
  newClient,
  seedCatalog,
  type TestClient,
} from "./helpers";

// ---------- fixtures of this file ----------

const createRoom = (client: TestClient, body: Record<string, unknown>) => createIn(client, "rooms", body);

// ---------- happy paths ----------

describe("POST /api/v2/rooms", () => {
  it("creates a bookable room with no tables", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/rooms", { body: { name: "  Main hall " } });
    expect(res.status).toBe(201);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toEqual({
      id: expect.any(Number),
      property_id: client.propertyId,
      name: "Main hall",
      bookable: true,
      tables: [],
    });
  });

  it("keeps bookable: false", async () => {
    const client = await newClient();
    expect((await createRoom(client, { name: "Private", bookable: false })).bookable).toBe(false);
  });
});

describe("GET /api/v2/rooms", () => {
  it("lists the property's rooms by id, each with its tables", async () => {
    const client = await newClient();
    const { room, t1, t2, group } = await seedCatalog(client);
    const terrace = await createRoom(client, { name: "Terrace" });

    const res = await client.call("/api/v2/rooms");
    expect(res.status).toBe(200);
    expect(res.json.next_cursor).toBeNull();
    expect(res.json.data.map((r: any) => r.id)).toEqual([room.id, terrace.id]);
    const main = res.json.data[0];
    expect(main).toMatchObject({ property_id: client.propertyId, name: "Main", bookable: true });
    expect(main.tables.map((t: any) => t.id)).toEqual([t1.id, t2.id, group.id]);
    expect(main.tables[2]).toMatchObject({ group: true, table_ids: [t1.id, t2.id], room_id: room.id });
    expect(res.json.data[1].tables).toEqual([]);
  });

  it("does not show another property's rooms", async () => {
    const alice = await newClient();
    const bob = await newClient();
    await createRoom(alice, { name: "Alice's" });
    const bobs = await createRoom(bob, { name: "Bob's" });
    const list = await bob.call("/api/v2/rooms");
    expect(list.json.data.map((r: any) => r.id)).toEqual([bobs.id]);
  });

  it("pages with limit and next_cursor", async () => {
    const client = await newClient();
    const a = await createRoom(client, { name: "A" });
    const b = await createRoom(client, { name: "B" });
    const c = await createRoom(client, { name: "C" });

    const first = await client.call("/api/v2/rooms?limit=2");
    expect(first.json.data.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect(first.json.next_cursor).toEqual(expect.any(String));

    const second = await client.call(
      `/api/v2/rooms?limit=2&next_cursor=${encodeURIComponent(first.json.next_cursor)}`,
    );
    expect(second.json.data.map((r: any) => r.id)).toEqual([c.id]);
    expect(second.json.next_cursor).toBeNull();
  });
});

describe("GET /api/v2/rooms/{id}", () => {
  it("answers the room with its tables", async () => {
    const client = await newClient();
    const { room, t1, t2, group } = await seedCatalog(client);
    const res = await client.call(`/api/v2/rooms/${room.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({
      id: room.id,
      property_id: client.propertyId,
      name: "Main",
      bookable: true,
    });
    expect(res.json.data[0].tables).toEqual([
      {
        id: t1.id,
        name: "T1",
        room_id: room.id,
        guests_min: 1,
        guests_max: 2,
        bookable: true,
        online: true,
        group: false,
        table_ids: [],
        layout: null,
      },
      {
        id: t2.id,
        name: "T2",
        room_id: room.id,
        guests_min: 1,
        guests_max: 4,
        bookable: true,
        online: true,
        group: false,
        table_ids: [],
        layout: null,
      },
      {
        id: group.id,
        name: "T1+T2",
        room_id: room.id,
        guests_min: 1,
        guests_max: 6,
        bookable: true,
        online: true,
        group: true,
        table_ids: [t1.id, t2.id],
        layout: null,
      },
    ]);
  });
});

describe("PUT /api/v2/rooms/{id}", () => {
  it("changes only the fields given and answers the room with its tables", async () => {
    const client = await newClient();
    const { room, t1 } = await seedCatalog(client);
    const res = await client.call(`/api/v2/rooms/${room.id}`, {
      method: "PUT",
      body: { name: "Dining room" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({ id: room.id, name: "Dining room", bookable: true });
    expect(res.json.data[0].tables.map((t: any) => t.id)).toContain(t1.id);

    const closed = await client.call(`/api/v2/rooms/${room.id}`, {
      method: "PUT",
      body: { bookable: false },
    });
    expect(closed.json.data[0]).toMatchObject({ name: "Dining room", bookable: false });
    expect((await client.call(`/api/v2/rooms/${room.id}`)).json.data[0]).toMatchObject({
      name: "Dining room",
      bookable: false,
    });
  });
});

describe("DELETE /api/v2/rooms/{id}", () => {
  it("answers data: [id]; the room and its tables are gone from reads and lists", async () => {
    const client = await newClient();
    const { room, t1, t2, group } = await seedCatalog(client);
    const other = await createRoom(client, { name: "Other" });

    const res = await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [room.id] });

    expectProblem(await client.call(`/api/v2/rooms/${room.id}`), 404, "room not found");
    for (const t of [t1, t2, group])
      expectProblem(await client.call(`/api/v2/tables/${t.id}`), 404, "table not found");
    expect((await client.call("/api/v2/tables")).json.data).toEqual([]);
    expect((await client.call("/api/v2/rooms")).json.data.map((r: any) => r.id)).toEqual([other.id]);
  });

  it("soft-deletes: the rows stay in D1 with deleted_at, so past reservations keep their references", async () => {
    const client = await newClient();
    const { room, t1 } = await seedCatalog(client);
    await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    const roomRow = await client.d1
      .prepare("SELECT deleted_at FROM rooms WHERE id = ?")
      .bind(room.id)
      .first<{ deleted_at: string | null }>();
    const tableRow = await client.d1
      .prepare("SELECT deleted_at FROM dining_tables WHERE id = ?")
      .bind(t1.id)
      .first<{ deleted_at: string | null }>();
    expect(roomRow?.deleted_at).toEqual(expect.any(String));
    expect(tableRow?.deleted_at).toEqual(expect.any(String));
  });
});

// ---------- errors ----------

describe("rooms: errors", () => {
  it("requires a name", async () => {
    const client = await newClient();
    for (const body of [{}, { name: "" }, { name: 7 }]) {
      const res = await client.call("/api/v2/rooms", { body });
      expectProblem(res, 400, "invalid input data");
      expect(res.json.errors.map((e: any) => e.path)).toEqual(["name"]);
    }
    expect((await client.call("/api/v2/rooms")).json.data).toEqual([]);
  });

  it("refuses bookable that is not a boolean", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/rooms", { body: { name: "X", bookable: "yes" } });
    expectProblem(res, 400, "invalid input data");
    expect(res.json.errors.map((e: any) => e.path)).toEqual(["bookable"]);
  });

  it("answers 404 room not found for another property's room on get, update and delete", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const room = await createRoom(owner, { name: "Owner's" });
    expectProblem(await stranger.call(`/api/v2/rooms/${room.id}`), 404, "room not found");
    expectProblem(
      await stranger.call(`/api/v2/rooms/${room.id}`, { method: "PUT", body: { name: "Mine" } }),
      404,
      "room not found",
    );
    expectProblem(
      await stranger.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" }),
      404,
      "room not found",
    );
    expect((await owner.call(`/api/v2/rooms/${room.id}`)).json.data[0].name).toBe("Owner's");
  });

  it("answers 404 room not found after deletion", async () => {
    const client = await newClient();
    const room = await createRoom(client, { name: "Once" });
    await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    expectProblem(
      await client.call(`/api/v2/rooms/${room.id}`, { method: "PUT", body: { name: "Again" } }),
      404,
      "room not found",
    );
    expectProblem(await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" }), 404, "room not found");
  });

  it("needs the Property header", async () => {
    const client = await newClient();
    expectProblem(
      await client.call("/api/v2/rooms", { property: undefined }),
      400,
      "property header required",
    );
  });

  it("answers 403 property forbidden for another client's property in the header", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    expectProblem(
      await stranger.call("/api/v2/rooms", { property: owner.propertyId, body: { name: "Intruder" } }),
      403,
      "property forbidden",
    );
    expect((await owner.call("/api/v2/rooms")).json.data).toEqual([]);
  });
});

describe("DELETE /api/v2/rooms/{id} while reservations use it", () => {
  it("answers 409 resource in use for an upcoming reservation in the room, and keeps the room", async () => {
    const client = await newClient();
    const { room, service } = await seedCatalog(client);
    const reservationId = await insertReservation(client.propertyId, {
      roomId: room.id,
      serviceId: service.id,
    });

    const res = await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    expectProblem(res, 409, "resource in use");
    expect(res.json.detail).toContain(String(reservationId));
    expect((await client.call(`/api/v2/rooms/${room.id}`)).status).toBe(200);
  });

  it("answers 409 when an upcoming reservation holds one of the room's tables", async () => {
    const client = await newClient();
    const { room, t2 } = await seedCatalog(client);
    await insertReservation(client.propertyId, { tableIds: [t2.id] });
    expectProblem(
      await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" }),
      409,
      "resource in use",
    );
  });

  it("deletes the room when its reservation was cancelled", async () => {
    const client = await newClient();
    const { room, t1 } = await seedCatalog(client);
    await insertReservation(client.propertyId, { roomId: room.id, tableIds: [t1.id], status: "CANCELLED" });
    const res = await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [room.id] });
  });

  it("deletes the room when its reservation is in the past", async () => {
    const client = await newClient();
    const { room, t1 } = await seedCatalog(client);
    await insertReservation(client.propertyId, {
      roomId: room.id,
      tableIds: [t1.id],
      date: dateInDays(-365),
    });
    expect((await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("is not blocked by another room's upcoming reservation", async () => {
    const client = await newClient();
    const { room } = await seedCatalog(client);
    const empty = await createRoom(client, { name: "Empty" });
    await insertReservation(client.propertyId, { roomId: room.id });
    expect((await client.call(`/api/v2/rooms/${empty.id}`, { method: "DELETE" })).status).toBe(200);
  });
});
