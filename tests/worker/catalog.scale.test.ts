/**
 * D1 binds at most 100 parameters per statement: lists of ids sized by callers or by data
 * must still answer, and deletions must leave no closure pointing at what is gone.
 */
import { describe, expect, it } from "vitest";
import { createIn, expectInvalid, newClient, seedCatalog, shardOf } from "./helpers";

async function bulkTables(propertyId: number, roomId: number, count: number) {
  const d1 = await shardOf(propertyId);
  const values = Array.from({ length: count }, (_, i) =>
    d1
      .prepare("INSERT INTO dining_tables (property_id, room_id, name, guests_max) VALUES (?, ?, ?, 2)")
      .bind(propertyId, roomId, `B${i}`),
  );
  await d1.batch(values);
  const rows = await d1
    .prepare("SELECT id FROM dining_tables WHERE room_id = ? ORDER BY id")
    .bind(roomId)
    .all<{ id: number }>();
  return rows.results.map((r) => r.id);
}

describe("catalog at scale (more ids than D1 binds in one statement)", () => {
  it("lists 200 rooms with their tables in one page", async () => {
    const client = await newClient();
    const rooms = await client.d1.batch<{ id: number }>(
      Array.from({ length: 200 }, (_, i) =>
        client.d1
          .prepare("INSERT INTO rooms (property_id, name) VALUES (?, ?) RETURNING id")
          .bind(client.propertyId, `R${i}`),
      ),
    );
    const roomIds = rooms.map((r) => r.results[0]!.id);
    // Room i gets i % 3 tables: 0, 1 or 2, so an empty room and a room of two are both there.
    await client.d1.batch(
      roomIds.flatMap((roomId, i) =>
        Array.from({ length: i % 3 }, (_, k) =>
          client.d1
            .prepare("INSERT INTO dining_tables (property_id, room_id, name, guests_max) VALUES (?, ?, ?, 2)")
            .bind(client.propertyId, roomId, `R${i}-T${k}`),
        ),
      ),
    );
    const res = await client.call("/api/v2/rooms?limit=200");
    expect(res.status).toBe(200);
    expect(res.json.data.map((r: { id: number }) => r.id)).toEqual(roomIds);
    res.json.data.forEach(
      (room: { name: string; tables: { name: string; room_id: number }[] }, i: number) => {
        expect(room.tables.map((t) => t.name)).toEqual(
          Array.from({ length: i % 3 }, (_, k) => `R${i}-T${k}`),
        );
        for (const t of room.tables) expect(t.room_id).toBe(roomIds[i]);
      },
    );
  });

  it("lists 200 tables of which more than 100 are groups", async () => {
    const client = await newClient();
    const room = await createIn(client, "rooms", { name: "Big" });
    const [a, b] = await bulkTables(client.propertyId, room.id, 2);
    const groups = Array.from({ length: 120 }, (_, i) =>
      client.d1
        .prepare(
          "INSERT INTO dining_tables (property_id, room_id, name, guests_max, is_group) VALUES (?, ?, ?, 4, 1) RETURNING id",
        )
        .bind(client.propertyId, room.id, `G${i}`),
    );
    const ids = (await client.d1.batch<{ id: number }>(groups)).map((r) => r.results[0]!.id);
    await client.d1.batch(
      ids.flatMap((g) =>
        [a, b].map((m) =>
          client.d1.prepare("INSERT INTO table_group_members (group_id, member_id) VALUES (?, ?)").bind(g, m),
        ),
      ),
    );
    const res = await client.call("/api/v2/tables?limit=200");
    expect(res.status).toBe(200);
    expect(res.json.data.filter((t: { group: boolean }) => t.group)).toHaveLength(120);
    expect(res.json.data.find((t: { group: boolean }) => t.group).table_ids).toEqual([a, b]);
  });

  it("refuses 100 unknown group members or 200 unknown closure ids with 400, not 500", async () => {
    const client = await newClient();
    const room = await createIn(client, "rooms", { name: "Big" });
    const unknown = Array.from({ length: 100 }, (_, i) => 900_000 + i);
    expectInvalid(
      await client.call("/api/v2/tables", {
        body: { name: "G", room_id: room.id, group: true, table_ids: unknown },
      }),
      "table_ids",
    );
    const many = Array.from({ length: 200 }, (_, i) => 900_000 + i);
    for (const field of ["room_ids", "table_ids", "service_ids"]) {
      expectInvalid(
        await client.call("/api/v2/closures", { body: { start_date: "2031-01-01", [field]: many } }),
        field,
      );
    }
  });

  it("accepts a closure naming 150 real tables and a group of 100 members", async () => {
    const client = await newClient();
    const room = await createIn(client, "rooms", { name: "Big" });
    const ids = await bulkTables(client.propertyId, room.id, 150);
    const closure = await createIn(client, "closures", { start_date: "2031-01-01", table_ids: ids });
    expect(closure.table_ids).toHaveLength(150);
    const group = await createIn(client, "tables", {
      name: "All",
      room_id: room.id,
      group: true,
      table_ids: ids.slice(0, 100),
    });
    expect(group.table_ids).toEqual(ids.slice(0, 100));
    expect(group.guests_max).toBe(200);
  });

  it("deletes a room with 150 tables", async () => {
    const client = await newClient();
    const room = await createIn(client, "rooms", { name: "Big" });
    await bulkTables(client.propertyId, room.id, 150);
    const res = await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect((await client.call("/api/v2/tables?limit=200")).json.data).toHaveLength(0);
  });
});

describe("deletions and closures: nothing dangles", () => {
  it("drops a deleted table, room or service from closures, and deletes a closure left with an empty list", async () => {
    const client = await newClient();
    const { room, t1, t2, group, service } = await seedCatalog(client);
    const dinner2 = await createIn(client, "services", {
      name: "Late",
      start_hour: "22:00",
      end_hour: "23:00",
    });
    const onlyT1 = await createIn(client, "closures", { start_date: "2031-01-01", table_ids: [t1.id] });
    const both = await createIn(client, "closures", {
      start_date: "2031-01-02",
      table_ids: [t1.id, t2.id],
      service_ids: [service.id, dinner2.id],
    });
    const roomWide = await createIn(client, "closures", { start_date: "2031-01-03", room_ids: [room.id] });

    expect((await client.call(`/api/v2/tables/${group.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await client.call(`/api/v2/tables/${t1.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await client.call(`/api/v2/closures/${onlyT1.id}`)).status).toBe(404);
    expect((await client.call(`/api/v2/closures/${both.id}`)).json.data[0].table_ids).toEqual([t2.id]);

    expect((await client.call(`/api/v2/services/${service.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await client.call(`/api/v2/closures/${both.id}`)).json.data[0].service_ids).toEqual([dinner2.id]);

    expect((await client.call(`/api/v2/rooms/${room.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await client.call(`/api/v2/closures/${roomWide.id}`)).status).toBe(404);
    expect((await client.call(`/api/v2/closures/${both.id}`)).status).toBe(404);
    // The seeded whole-day closure named nothing, so it stays: null still means everything.
    const left = (await client.call("/api/v2/closures")).json.data;
    expect(left.map((c: { room_ids: unknown; table_ids: unknown }) => [c.room_ids, c.table_ids])).toEqual([
      [null, null],
    ]);
  });
});
