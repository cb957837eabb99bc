/**
 * No double booking, whatever the load: parallel requests for the same table and time,
 * and the database's own guard when the engine is bypassed.
 */
import { describe, expect, it } from "vitest";
import { now } from "../../worker/lib/clock";
import { atArrival, book, createIn, dateInDays, newClient, shardOf, type TestClient } from "./helpers";

async function restaurant(tables: number) {
  const client = await newClient();
  const room = await createIn(client, "rooms", { name: "Main" });
  const ids: number[] = [];
  for (let i = 0; i < tables; i++)
    ids.push((await createIn(client, "tables", { name: `T${i + 1}`, room_id: room.id, guests_max: 4 })).id);
  const service = await createIn(client, "services", {
    name: "Dinner",
    start_hour: "19:00",
    end_hour: "22:00",
  });
  return { client, room, tables: ids, service };
}

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

/** The tables held by two reservations at overlapping times, if any (strict overlap). */
async function doubleBookings(propertyId: number) {
  const { results } = await (await shardOf(propertyId))
    .prepare(
      `SELECT a.table_id, a.reservation_id AS a, b.reservation_id AS b
       FROM reservation_tables a JOIN reservation_tables b
         ON a.table_id = b.table_id AND a.reservation_id < b.reservation_id AND a.start_min < b.end_min AND b.start_min < a.end_min
       JOIN reservations r ON r.id = a.reservation_id WHERE r.property_id = ?`,
    )
    .bind(propertyId)
    .all();
  return results;
}

describe("parallel creates", () => {
  it("30 parallel creates for one table and time give exactly one 201", async () => {
    const { client, tables, service } = await restaurant(1);
    const date = dateInDays(7);
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        book(client, { start_date: date, service_id: service.id, table_ids: [tables[0]] }),
      ),
    );
    expect(statuses(results)).toEqual([201, ...Array(29).fill(403)]);
    for (const r of results.filter((x) => x.status === 403)) expect(r.json.title).toBe("table not available");
    expect(await doubleBookings(client.propertyId)).toEqual([]);
  });

  it("3N parallel creates without table_ids over N fitting tables give exactly N", async () => {
    const N = 6;
    const { client, tables, service } = await restaurant(N);
    const date = dateInDays(8);
    const results = await Promise.all(
      Array.from({ length: 3 * N }, () => book(client, { start_date: date, service_id: service.id })),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(N);
    expect(new Set(created.map((r) => r.json.data[0].tables[0].id))).toEqual(new Set(tables));
    for (const r of results.filter((x) => x.status !== 201)) expect(r.json.title).toBe("table not available");
    expect(await doubleBookings(client.propertyId)).toEqual([]);
  });
});

describe("parallel moves onto one table", () => {
  async function waiting(client: TestClient, serviceId: number, date: string, n: number) {
    const ids: number[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        (await book(client, { start_date: date, service_id: serviceId, waiting_list: true })).json.data[0].id,
      );
    return ids;
  }

  it("accepting 10 waiting guests in parallel for the last table accepts exactly one", async () => {
    const { client, service } = await restaurant(1);
    const ids = await waiting(client, service.id, dateInDays(9), 10);
    const results = await Promise.all(
      ids.map((id) => client.call(`/api/v2/reservations/${id}?status=accepted`, { method: "PATCH" })),
    );
    expect(statuses(results)).toEqual([200, ...Array(9).fill(403)]);
    expect(await doubleBookings(client.propertyId)).toEqual([]);
  });

  it("checking in 10 walk-ins in parallel for the last table seats exactly one", async () => {
    const { client, service } = await restaurant(1);
    const date = dateInDays(10);
    const ids = await waiting(client, service.id, date, 10);
    const checkins = () =>
      Promise.all(ids.map((id) => client.call(`/api/v2/reservations/${id}/checkin`, { method: "PATCH" })));
    const results = await atArrival(client, { start_date: date, start_hour: "19:00" }, checkins);
    expect(statuses(results)).toEqual([200, ...Array(9).fill(403)]);
    expect(await doubleBookings(client.propertyId)).toEqual([]);
  });

  it("moving 10 reservations in parallel onto one table and time moves exactly one", async () => {
    const { client, tables, service } = await restaurant(1);
    const date = dateInDays(11);
    const ids: number[] = [];
    for (let i = 0; i < 10; i++)
      ids.push(
        (
          await book(client, {
            start_date: dateInDays(20 + i),
            service_id: service.id,
            table_ids: [tables[0]],
          })
        ).json.data[0].id,
      );
    const results = await Promise.all(
      ids.map((id) =>
        client.call(`/api/v2/reservations/${id}`, {
          method: "PUT",
          body: { start_day: date, table_ids: [tables[0]] },
        }),
      ),
    );
    expect(statuses(results)).toEqual([200, ...Array(9).fill(403)]);
    expect(await doubleBookings(client.propertyId)).toEqual([]);
  });

  it("the same reservation changed by parallel requests keeps a consistent state", async () => {
    const { client, tables, service } = await restaurant(2);
    const made = (
      await book(client, { start_date: dateInDays(12), service_id: service.id, table_ids: [tables[0]] })
    ).json.data[0];
    const id = made.id;
    // At the party's arrival, so the check-in is open whichever of 19:00 and 20:00 it meets.
    const results = await atArrival(client, made, () =>
      Promise.all([
        client.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { start_hour: "20:00" } }),
        client.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { table_ids: [tables[1]] } }),
        client.call(`/api/v2/reservations/${id}/checkin`, { method: "PATCH" }),
        client.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { pax: 3 } }),
      ]),
    );
    for (const r of results) expect([200, 403, 503]).toContain(r.status);
    const final = (await client.call(`/api/v2/reservations/${id}`)).json.data[0];
    const { results: holds } = await client.d1
      .prepare("SELECT table_id FROM reservation_tables WHERE reservation_id = ?")
      .bind(id)
      .all<{ table_id: number }>();
    expect(holds.map((h) => h.table_id)).toEqual(final.tables.map((t: { id: number }) => t.id));
    const history = (await client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history).toHaveLength(1 + results.filter((r) => r.status === 200).length);
  });
});

describe("the database guards itself", () => {
  it("refuses an overlapping hold written without the engine, and a hold on a deleted table", async () => {
    const { client, tables, service } = await restaurant(2);
    const a = (
      await book(client, { start_date: dateInDays(13), service_id: service.id, table_ids: [tables[0]] })
    ).json.data[0];
    const b = (
      await book(client, { start_date: dateInDays(14), service_id: service.id, table_ids: [tables[1]] })
    ).json.data[0];
    const { results } = await client.d1
      .prepare("SELECT start_min, end_min FROM reservation_tables WHERE reservation_id = ?")
      .bind(a.id)
      .all<{ start_min: number; end_min: number }>();
    const span = results[0]!;
    const insert = (tableId: number, start: number, end: number, reservationId = b.id) =>
      client.d1
        .prepare(
          "INSERT INTO reservation_tables (reservation_id, table_id, start_min, end_min) VALUES (?, ?, ?, ?)",
        )
        .bind(reservationId, tableId, start, end)
        .run();
    await expect(insert(tables[0]!, span.start_min + 30, span.end_min + 30)).rejects.toThrow(
      /table_not_available/,
    );
    // a minute over either end is an overlap
    await expect(insert(tables[0]!, span.start_min - 60, span.start_min + 1)).rejects.toThrow(
      /table_not_available/,
    );
    await expect(insert(tables[0]!, span.end_min - 1, span.end_min + 60)).rejects.toThrow(
      /table_not_available/,
    );
    // stays are half-open: a party ending exactly when this one starts, and one starting exactly
    // when it ends, share the table with it
    await insert(tables[0]!, span.start_min - 60, span.start_min);
    const c = (
      await book(client, { start_date: dateInDays(15), service_id: service.id, table_ids: [tables[1]] })
    ).json.data[0];
    await insert(tables[0]!, span.end_min, span.end_min + 60, c.id);
    await client.d1
      .prepare("UPDATE dining_tables SET deleted_at = '2000-01-01' WHERE id = ?")
      .bind(tables[1])
      .run();
    await expect(insert(tables[1]!, span.start_min + 5000, span.end_min + 5000)).rejects.toThrow(
      /table_not_available/,
    );
  });

  it("aborts the deletion of a table, room or service an upcoming reservation uses, in the deletion's own batch", async () => {
    const { client, room, tables, service } = await restaurant(2);
    await book(client, { start_date: dateInDays(16), service_id: service.id, table_ids: [tables[0]] });
    await book(client, {
      start_date: dateInDays(16),
      service_id: service.id,
      table_ids: [tables[1]],
      waiting_list: true,
    });
    const guard = (kind: string, id: number) =>
      client.d1
        .prepare("INSERT INTO catalog_changes (property_id, kind, target_id, now_min) VALUES (?, ?, ?, ?)")
        .bind(client.propertyId, kind, id, Math.floor(now() / 60000))
        .run();
    for (const [kind, id] of [
      ["table", tables[0]],
      ["table", tables[1]],
      ["room", room.id],
      ["service", service.id],
    ] as const) {
      await expect(guard(kind, id!), `${kind} ${id}`).rejects.toThrow(/resource_in_use/);
    }
    const spare = await createIn(client, "tables", { name: "Spare", room_id: room.id, guests_max: 2 });
    await guard("table", spare.id);
  });

  it("refuses a write based on a stale read of the reservation", async () => {
    const { client, service } = await restaurant(1);
    const a = (await book(client, { start_date: dateInDays(15), service_id: service.id })).json.data[0];
    const { results } = await client.d1
      .prepare("SELECT version FROM reservations WHERE id = ?")
      .bind(a.id)
      .all<{ version: number }>();
    const version = results[0]!.version;
    await client.d1
      .prepare("UPDATE reservations SET notes = 'first', version = ? WHERE id = ?")
      .bind(version + 1, a.id)
      .run();
    await expect(
      client.d1
        .prepare("UPDATE reservations SET notes = 'stale', version = ? WHERE id = ?")
        .bind(version + 1, a.id)
        .run(),
    ).rejects.toThrow(/reservation_changed/);
  });
});
