/** The finer rules: table lists, group edits, list filters, prepayment, history and customers. */
import { beforeAll, describe, expect, it } from "vitest";
import { shardDb } from "../../worker/shards/shards";
import {
  atArrival,
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
beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
});

describe("table_ids", () => {
  it("refuses repeated tables instead of counting their seats twice", async () => {
    expectInvalid(
      await book(client, {
        start_date: r.date,
        pax: 4,
        service_id: r.service.id,
        table_ids: [r.t1.id, r.t1.id],
      }),
      "table_ids",
    );
  });
  it("refuses a group given with one of its own members", async () => {
    expectInvalid(
      await book(client, {
        start_date: r.date,
        pax: 8,
        service_id: r.service.id,
        table_ids: [r.group.id, r.t2.id],
      }),
      "table_ids",
    );
  });
  it("refuses tables of two rooms: a party sits in one room", async () => {
    const terrace = await createIn(client, "rooms", { name: "Terrace" });
    const t = await createIn(client, "tables", { name: "X1", room_id: terrace.id, guests_max: 2 });
    expectInvalid(
      await book(client, {
        start_date: r.date,
        pax: 4,
        service_id: r.service.id,
        table_ids: [r.t1.id, t.id],
      }),
      "table_ids",
    );
  });
  it("names the tables and rooms a refusal is about (reason, table_ids, room_ids), beside its words", async () => {
    const at = { start_date: dateInDays(14), service_id: r.service.id };
    expect((await book(client, { ...at, pax: 2, table_ids: [r.t1.id] })).status).toBe(201);
    const held = await book(client, { ...at, pax: 2, table_ids: [r.t1.id] });
    expectProblem(held, 403, "table not available");
    expect(held.json).toMatchObject({ reason: "full", table_ids: [r.t1.id] });
    const small = await book(client, { ...at, start_hour: "21:00:00", pax: 9, table_ids: [r.t2.id] });
    expect(small.json).toMatchObject({
      code: "room_capacity_exceeded",
      reason: "party_size",
      table_ids: [r.t2.id],
    });
    const member = await book(client, { ...at, pax: 8, table_ids: [r.group.id, r.t2.id] });
    expect(member.json).toMatchObject({ reason: "group_member", table_ids: [r.t2.id, r.group.id] });
    const patio = await createIn(client, "rooms", { name: "Patio" });
    const p1 = await createIn(client, "tables", { name: "P1", room_id: patio.id, guests_max: 2 });
    const rooms = await book(client, { ...at, pax: 4, table_ids: [r.t1.id, p1.id] });
    expect(rooms.json).toMatchObject({
      reason: "other_room",
      table_ids: [p1.id],
      room_ids: [patio.id, r.room.id],
    });
  });
  it("keeps online guests to guests_min; staff may seat anyone", async () => {
    const big = await createIn(client, "tables", {
      name: "Big",
      room_id: r.room.id,
      guests_min: 6,
      guests_max: 10,
    });
    const online = await book(client, {
      start_date: dateInDays(12),
      pax: 2,
      service_id: r.service.id,
      table_ids: [big.id],
      channel: "PLATFORM_BOOK",
    });
    expectProblem(online, 403, "table not available");
    expect(
      (
        await book(client, {
          start_date: dateInDays(12),
          pax: 2,
          service_id: r.service.id,
          table_ids: [big.id],
        })
      ).status,
    ).toBe(201);
  });
});

describe("group tables with upcoming reservations", () => {
  it("refuses to change a booked group's members (its holds name them) with 409, and allows it once cancelled", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const t3 = await createIn(c, "tables", { name: "T3", room_id: s.room.id, guests_max: 2 });
    const party = (await book(c, { start_date: s.date, pax: 6, service_id: s.service.id })).json.data[0];
    expect(party.tables[0].id).toBe(s.group.id);
    const change = await c.call(`/api/v2/tables/${s.group.id}`, {
      method: "PUT",
      body: { table_ids: [s.t1.id, t3.id] },
    });
    expectProblem(change, 409, "resource in use");
    expect(change.json.detail).toContain(String(party.id));
    // the rename alone is no regroup
    expect(
      (await c.call(`/api/v2/tables/${s.group.id}`, { method: "PUT", body: { name: "Big table" } })).status,
    ).toBe(200);
    await c.call(`/api/v2/reservations/${party.id}`, { method: "DELETE" });
    expect(
      (await c.call(`/api/v2/tables/${s.group.id}`, { method: "PUT", body: { table_ids: [s.t1.id, t3.id] } }))
        .status,
    ).toBe(200);
  });
});

describe("GET /reservations filters", () => {
  it("takes statuses in any case, and declined", async () => {
    for (const q of ["status[]=accepted", "status[]=Declined", "status=waiting"])
      expect((await client.call(`/api/v2/reservations?${q}`)).status).toBe(200);
  });
  it("refuses more than 30 ids in a list (D1 binds at most 100 parameters), and repeats count once", async () => {
    const many = Array.from({ length: 31 }, (_, i) => `room_ids[]=${i + 1}`).join("&");
    expectInvalid(await client.call(`/api/v2/reservations?${many}`), "room_ids[]");
    const repeated =
      Array.from({ length: 120 }, () => "status[]=ACCEPTED").join("&") +
      "&" +
      Array.from({ length: 30 }, (_, i) => `service_ids[]=${i + 1}`).join("&");
    expect((await client.call(`/api/v2/reservations?${repeated}`)).status).toBe(200);
  });
  it("refuses an end_date before the start_date", async () => {
    expectInvalid(
      await client.call(`/api/v2/reservations?start_date=${dateInDays(5)}&end_date=${dateInDays(4)}`),
      "end_date",
    );
  });
  it("applies start_hour on every day of the range", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const early = (
      await book(c, { start_date: dateInDays(40), start_hour: "19:00", service_id: s.service.id })
    ).json.data[0];
    const late = (
      await book(c, { start_date: dateInDays(41), start_hour: "21:00", service_id: s.service.id })
    ).json.data[0];
    const range = `start_date=${dateInDays(40)}&end_date=${dateInDays(41)}`;
    // Both are in the range; only the one starting at or after 20:00 passes start_hour.
    expect(
      (await c.call(`/api/v2/reservations?${range}`)).json.data.map((x: { id: number }) => x.id),
    ).toEqual([early.id, late.id]);
    const res = await c.call(`/api/v2/reservations?${range}&start_hour=20:00`);
    expect(res.json.data.map((x: { id: number }) => x.id)).toEqual([late.id]);
  });
});

describe("start times", () => {
  it("refuses seconds other than 00", async () => {
    expectInvalid(
      await book(client, { start_date: r.date, start_hour: "19:00:30", service_id: r.service.id }),
      "start_hour",
    );
  });
  it("lets staff record a walk-in earlier today, but not rewrite past days", async () => {
    expectProblem(
      await book(client, { start_date: dateInDays(-1), service_id: r.service.id }),
      403,
      "booking slot not available",
    );
  });
});

describe("prepayment and check-in", () => {
  it("a checked-in PREPAY guest stays PREPAY, is never expired by the cron, and undo keeps the payment window", async () => {
    const { expireUnpaid } = await import("../../worker/reservations/expiry");
    const prepaid = await createIn(client, "services", {
      name: "Tasting menu",
      start_hour: "19:00",
      end_hour: "21:00",
      prepayment_window: 30,
    });
    const p = (await book(client, { start_date: dateInDays(13), service_id: prepaid.id })).json.data[0];
    const checkedIn = (
      await atArrival(client, p, () =>
        client.call(`/api/v2/reservations/${p.id}/checkin`, { method: "PATCH" }),
      )
    ).json.data[0];
    expect(checkedIn.status).toBe("PREPAY");
    expect(checkedIn.payment_due_date).toBe(p.payment_due_date);
    await client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(p.id)
      .run();
    expect(await expireUnpaid(shardDb(client.d1))).not.toContain(p.id);
    const undone = (await client.call(`/api/v2/reservations/${p.id}/checkin?undo=true`, { method: "PATCH" }))
      .json.data[0];
    expect(undone.status).toBe("PREPAY");
    // The window is back as it stood (the restaurant's zone is UTC), so the cron expires it now.
    expect(undone.payment_due_date).toBe("2000-01-01T00:00:00");
    expect(await expireUnpaid(shardDb(client.d1))).toContain(p.id);
  });
  it("paying (PREPAY to ACCEPTED) clears the payment window", async () => {
    const prepaid = await createIn(client, "services", {
      name: "Chef's table",
      start_hour: "19:00",
      end_hour: "21:00",
      prepayment_window: 30,
    });
    const p = (await book(client, { start_date: dateInDays(14), service_id: prepaid.id })).json.data[0];
    const paid = (await client.call(`/api/v2/reservations/${p.id}?status=accepted`, { method: "PATCH" })).json
      .data[0];
    expect(paid.status).toBe("ACCEPTED");
    expect(paid.payment_due_date).toBeUndefined();
  });
});

describe("history", () => {
  it("shows end_date and check-in times as the API does, and an empty PUT writes nothing", async () => {
    const a = (await book(client, { start_date: dateInDays(15), service_id: r.service.id })).json.data[0];
    const same = await client.call(`/api/v2/reservations/${a.id}`, { method: "PUT", body: {} });
    expect(same.status).toBe(200);
    await client.call(`/api/v2/reservations/${a.id}`, { method: "PUT", body: { start_hour: "20:00" } });
    await atArrival(client, { start_date: a.start_date, start_hour: "20:00" }, () =>
      client.call(`/api/v2/reservations/${a.id}/checkin`, { method: "PATCH" }),
    );
    const history = (await client.call(`/api/v2/reservations/${a.id}/history`)).json.data;
    expect(history.map((h: { action: string }) => h.action)).toEqual(["created", "updated", "checkin"]);
    expect(history[1].changes.end_date).toEqual([`${dateInDays(15)}T20:00:00`, `${dateInDays(15)}T21:00:00`]);
    expect(history[1].changes.start_hour).toEqual(["19:00:00", "20:00:00"]);
    expect(history[2].changes.checkin_date[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  });
});

describe("customers", () => {
  it("a refused booking creates no customer", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const refused = await book(c, {
      start_date: s.date,
      pax: 50,
      service_id: s.service.id,
      customer: { first_name: "Nobody", email: "nobody@example.com" },
    });
    expect(refused.status).toBe(403);
    const { results } = await c.d1
      .prepare("SELECT id FROM customers WHERE property_id = ? AND email = 'nobody@example.com'")
      .bind(c.propertyId)
      .all();
    expect(results).toEqual([]);
  });
  it("parallel first bookings with one email make one customer", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        book(c, {
          start_date: dateInDays(20 + i),
          service_id: s.service.id,
          customer: { first_name: "Twin", email: "twin@example.com" },
        }),
      ),
    );
    expect(results.map((x) => x.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((x) => x.json.data[0].customer.id)).size).toBe(1);
  });
});

describe("out_of_service", () => {
  it("is the API's other name for out_of_order", async () => {
    const date = dateInDays(60);
    await createIn(client, "closures", { start_date: date, start_hour: "19:00", end_hour: "20:00" });
    const day = (await client.call(`/api/v2/bookings/slots?start_date=${date}&out_of_service=true`)).json
      .data[0].available_services[0];
    expect(day.available_slots[0]).toBe("20:00:00");
  });
});

describe("second review", () => {
  it("refuses a customer id given with another customer's email (400, not an endless retry)", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const a = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "A", email: "a@example.com" },
      })
    ).json.data[0];
    await book(c, {
      start_date: s.date,
      start_hour: "21:00",
      service_id: s.service.id,
      customer: { first_name: "B", email: "b@example.com" },
    });
    expectInvalid(
      await c.call(`/api/v2/reservations/${a.id}`, {
        method: "PUT",
        body: { customer: { id: a.customer.id, email: "b@example.com" } },
      }),
      "customer.email",
    );
    expectInvalid(
      await book(c, {
        start_date: s.date,
        start_hour: "20:00",
        service_id: s.service.id,
        customer: { id: a.customer.id, email: "b@example.com" },
      }),
      "customer.email",
    );
  });

  it("refuses, then decides again, a booking whose tables were chosen on an older catalog", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const { results } = await c.d1
      .prepare("SELECT catalog_version AS v FROM properties WHERE id = ?")
      .bind(c.propertyId)
      .all<{ v: number }>();
    const stale = results[0]!.v;
    await createIn(c, "tables", { name: "T3", room_id: s.room.id, guests_max: 2 });
    const insert = c.d1.prepare(
      `INSERT INTO reservations (property_id, start_date, start_hour, start_min, end_min, pax, status, channel, catalog_version)
       VALUES (?, '2031-01-01', '20:00:00', 1, 61, 2, 'ACCEPTED', 'PLATFORM_ADMIN', ?)`,
    );
    await expect(insert.bind(c.propertyId, stale).run()).rejects.toThrow(/catalog_changed/);
    await insert.bind(c.propertyId, stale + 1).run();
  });

  it("a group regrouped between the engine's read and the write is not booked on its old members", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const t3 = await createIn(c, "tables", { name: "T3", room_id: s.room.id, guests_max: 2 });
    // warm the cache on the old members, then regroup: the next booking must use the new members
    await c.call(`/api/v2/bookings/slots?start_date=${s.date}`);
    expect(
      (await c.call(`/api/v2/tables/${s.group.id}`, { method: "PUT", body: { table_ids: [s.t1.id, t3.id] } }))
        .status,
    ).toBe(200);
    const party = await book(c, {
      start_date: s.date,
      pax: 4,
      service_id: s.service.id,
      table_ids: [s.group.id],
    });
    expect(party.status, party.text).toBe(201);
    const { results } = await c.d1
      .prepare("SELECT table_id FROM reservation_tables WHERE reservation_id = ? ORDER BY table_id")
      .bind(party.json.data[0].id)
      .all<{ table_id: number }>();
    expect(results.map((r) => r.table_id)).toEqual([s.t1.id, s.group.id, t3.id].sort((x, y) => x - y));
    expect((await book(c, { start_date: s.date, service_id: s.service.id, table_ids: [t3.id] })).status).toBe(
      403,
    );
    expect(
      (await book(c, { start_date: s.date, service_id: s.service.id, table_ids: [s.t2.id] })).status,
    ).toBe(201);
  });

  it("undoing the check-out of a PREPAY guest gives back a PREPAY with its payment window", async () => {
    const prepaid = await createIn(client, "services", {
      name: "Omakase",
      start_hour: "19:00",
      end_hour: "21:00",
      prepayment_window: 30,
    });
    const p = (await book(client, { start_date: dateInDays(16), service_id: prepaid.id })).json.data[0];
    await atArrival(client, p, () =>
      client.call(`/api/v2/reservations/${p.id}/checkin`, { method: "PATCH" }),
    );
    await client.call(`/api/v2/reservations/${p.id}/checkout`, { method: "PATCH" });
    const undone = (await client.call(`/api/v2/reservations/${p.id}/checkout?undo=true`, { method: "PATCH" }))
      .json.data[0];
    expect(undone).toMatchObject({ status: "PREPAY", payment_due_date: p.payment_due_date });
  });

  it("moving a waiting party to another room drops the tables it wished for there", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const terrace = await createIn(c, "rooms", { name: "Terrace" });
    const w = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        table_ids: [s.t1.id],
        waiting_list: true,
      })
    ).json.data[0];
    const moved = (
      await c.call(`/api/v2/reservations/${w.id}`, { method: "PUT", body: { room_id: terrace.id } })
    ).json.data[0];
    expect(moved).toMatchObject({ room: { id: terrace.id, name: "Terrace" }, tables: [] });
  });

  it("records a new customer in the history", async () => {
    const a = (await book(client, { start_date: dateInDays(17), service_id: r.service.id })).json.data[0];
    await client.call(`/api/v2/reservations/${a.id}`, {
      method: "PUT",
      body: { customer: { first_name: "Newcomer", email: "new@example.com" } },
    });
    const history = (await client.call(`/api/v2/reservations/${a.id}/history`)).json.data;
    expect(history.at(-1).changes.customer).toEqual([
      a.customer.id,
      { id: null, first_name: "Newcomer", last_name: null, email: "new@example.com", phone: null },
    ]);
  });
});
