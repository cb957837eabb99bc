import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { shardDb } from "../../worker/shards/shards";
import {
  atArrival,
  book,
  call,
  createIn,
  dateInDays,
  GUEST,
  newClient,
  seedRestaurant,
  type TestClient,
} from "./helpers";
import { makeProduction } from "./searchengine.fixtures";

let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
});

describe("POST /reservations", () => {
  it("creates an ACCEPTED reservation on the best table, with the API's list shape", async () => {
    const res = await book(client, { start_date: r.date, service_id: r.service.id, notes: "window seat" });
    expect(res.status, res.text).toBe(201);
    const created = res.json.data[0];
    expect(created).toMatchObject({
      pax: 2,
      status: "ACCEPTED",
      channel: "PLATFORM_ADMIN",
      start_date: r.date,
      start_hour: "19:00:00",
      end_date: `${r.date}T20:00:00`,
      service: { id: r.service.id, name: "Dinner" },
      room: { id: r.room.id, name: "Main" },
      customer: {
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@example.com",
        phone: "+39 055 123456",
      },
      notes: "window seat",
      waiting_list: false,
    });
    expect(created.start_day).toBeUndefined();
    expect(created.special_request).toBeUndefined();
    expect(created.checkin_date).toBeUndefined();
    expect(created.tables).toEqual([
      {
        id: r.t1.id,
        name: "T1",
        bookable: true,
        online: true,
        free: false,
        group: false,
        room_id: r.room.id,
      },
    ]);
    expect(created.last_status_change).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it("matches the customer by email, then phone, within the property", async () => {
    const a = await book(client, {
      start_date: r.date,
      start_hour: "21:00",
      service_id: r.service.id,
      customer: { first_name: "Ada", email: "ADA@example.com" },
    });
    const b = await book(client, {
      start_date: dateInDays(11),
      service_id: r.service.id,
      customer: { last_name: "L", phone: GUEST.phone },
    });
    const first = await book(client, { start_date: dateInDays(12), service_id: r.service.id });
    expect(a.json.data[0].customer.id).toBe(first.json.data[0].customer.id);
    expect(b.json.data[0].customer.id).toBe(first.json.data[0].customer.id);
    const other = await newClient();
    const o = await seedRestaurant(other);
    const elsewhere = await book(other, { start_date: o.date, service_id: o.service.id });
    expect(elsewhere.json.data[0].customer.id).not.toBe(first.json.data[0].customer.id);
  });

  it("lets staff correct a customer's details, but never an online guest who only knows the email", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const first = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Grace", email: "grace@example.com" },
      })
    ).json.data[0];
    const online = await book(c, {
      start_date: s.date,
      start_hour: "21:00",
      service_id: s.service.id,
      channel: "PLATFORM_BOOK",
      customer: { first_name: "Mallory", email: "grace@example.com", phone: "+1 555 0199" },
    });
    expect(online.status, online.text).toBe(201);
    // Another name with Grace's email: Grace's record is not touched, not even to add a phone.
    expect(online.json.data[0].customer).toMatchObject({
      id: first.customer.id,
      first_name: "Grace",
      phone: null,
    });
    expect(online.json.data[0].guest).toEqual({
      first_name: "Mallory",
      last_name: null,
      email: "grace@example.com",
      phone: "+1 555 0199",
    });
    const staff = await c.call(`/api/v2/reservations/${first.id}`, {
      method: "PUT",
      body: { customer: { id: first.customer.id, first_name: "Grace B." } },
    });
    expect(staff.json.data[0].customer).toMatchObject({
      id: first.customer.id,
      first_name: "Grace B.",
      email: "grace@example.com",
    });
  });

  it("answers each booking as GET /reservations/{id} then shows it: a group, a named room, a waiting party, a returning customer", async () => {
    const bodies = [
      { start_date: dateInDays(25), pax: 6, service_id: r.service.id },
      {
        start_date: dateInDays(26),
        start_hour: "20:00",
        service_id: r.service.id,
        room_id: r.room.id,
        table_ids: [r.t1.id],
        customer: { first_name: "Ada", email: GUEST.email },
      },
      { start_date: dateInDays(27), start_hour: "21:00", service_id: r.service.id, waiting_list: true },
    ];
    for (const body of bodies) {
      const res = await book(client, body);
      expect(res.status, res.text).toBe(201);
      const { start_date, ...created } = res.json.data[0];
      const shown = await client.call(`/api/v2/reservations/${created.id}`);
      const { start_day, ...read } = shown.json.data[0];
      expect(start_date).toBe(start_day);
      expect(created, JSON.stringify(body)).toEqual(read);
    }
  });

  it("gives a party too big for one table the group, and holds its members", async () => {
    const date = dateInDays(20);
    const res = await book(client, { start_date: date, pax: 6, service_id: r.service.id });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data[0].tables.map((t: { id: number }) => t.id)).toEqual([r.group.id]);
    const member = await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t1.id] });
    expect(member.status).toBe(403);
    expect(member.json.title).toBe("table not available");
  });

  it("puts a waiting-list reservation in WAITING, holding nothing", async () => {
    const date = dateInDays(21);
    const waiting = await book(client, {
      start_date: date,
      service_id: r.service.id,
      table_ids: [r.t1.id],
      waiting_list: true,
    });
    expect(waiting.status, waiting.text).toBe(201);
    expect(waiting.json.data[0]).toMatchObject({ status: "WAITING", waiting_list: true });
    const onTable = await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t1.id] });
    expect(onTable.status, onTable.text).toBe(201);
  });

  it("starts PREPAY when the service takes prepayment", async () => {
    const prepaid = await createIn(client, "services", {
      name: "Tasting",
      start_hour: "19:00",
      end_hour: "21:00",
      prepayment_window: 30,
    });
    const res = await book(client, { start_date: dateInDays(22), service_id: prepaid.id });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data[0].status).toBe("PREPAY");
    expect(res.json.data[0].payment_due_date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("creates OUTOFORDER staff blocks that close a table", async () => {
    const date = dateInDays(23);
    const blockRes = await client.call("/api/v2/reservations", {
      body: {
        start_date: date,
        start_hour: "19:00",
        pax: 1,
        service_id: r.service.id,
        table_ids: [r.t2.id],
        status: "OUTOFORDER",
        duration: 180,
      },
    });
    expect(blockRes.status, blockRes.text).toBe(201);
    expect(blockRes.json.data[0]).toMatchObject({
      status: "OUTOFORDER",
      customer: null,
      end_date: `${date}T22:00:00`,
    });
    const onIt = await book(client, {
      start_date: date,
      start_hour: "21:00",
      service_id: r.service.id,
      table_ids: [r.t2.id],
    });
    expect(onIt.status).toBe(403);
  });

  it("lets staff book an offline table and an off-grid minute", async () => {
    const offline = await createIn(client, "tables", {
      name: "Bar",
      room_id: r.room.id,
      guests_max: 2,
      online: false,
    });
    const res = await book(client, {
      start_date: dateInDays(24),
      start_hour: "19:07",
      service_id: r.service.id,
      table_ids: [offline.id],
    });
    expect(res.status, res.text).toBe(201);
    const online = await book(client, {
      start_date: dateInDays(24),
      start_hour: "19:07",
      service_id: r.service.id,
      channel: "PLATFORM_BOOK",
    });
    expect(online.status).toBe(403);
    expect(online.json.title).toBe("booking slot not available");
  });
});

describe("GET /reservations/{id}", () => {
  it("answers the reservation with start_day (the API's single-record shape)", async () => {
    const created = (await book(client, { start_date: dateInDays(30), service_id: r.service.id })).json
      .data[0];
    const res = await client.call(`/api/v2/reservations/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0].start_day).toBe(dateInDays(30));
    expect(res.json.data[0].start_date).toBeUndefined();
    expect(res.json.data[0].id).toBe(created.id);
  });
});

describe("PUT /reservations/{id}", () => {
  it("accepts the API's example body, read-only fields and all", async () => {
    const created = (await book(client, { start_date: dateInDays(31), service_id: r.service.id })).json
      .data[0];
    const res = await client.call(`/api/v2/reservations/${created.id}`, {
      method: "PUT",
      body: {
        id: created.id,
        status: "CANCELLED",
        channel: "PLATFORM_BOOK",
        end_date: "2000-01-01T00:00:00",
        start_date: dateInDays(31),
        start_day: dateInDays(32),
        start_hour: "20:30:00",
        pax: 4,
        service_id: r.service.id,
        room_id: r.room.id,
        table_ids: [r.t2.id],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      status: "ACCEPTED",
      channel: "PLATFORM_ADMIN",
      start_day: dateInDays(32),
      start_hour: "20:30:00",
      end_date: `${dateInDays(32)}T21:30:00`,
      pax: 4,
      tables: [{ id: r.t2.id }],
    });
  });

  it("is partial: notes alone change nothing else", async () => {
    const created = (await book(client, { start_date: dateInDays(33), service_id: r.service.id })).json
      .data[0];
    const res = await client.call(`/api/v2/reservations/${created.id}`, {
      method: "PUT",
      body: { notes: "allergic to nuts", special_request: "cake" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      notes: "allergic to nuts",
      special_request: "cake",
      start_hour: "19:00:00",
      tables: created.tables,
    });
  });

  it("moves a reservation onto a time its own hold overlaps", async () => {
    const created = (
      await book(client, { start_date: dateInDays(34), service_id: r.service.id, table_ids: [r.t1.id] })
    ).json.data[0];
    const res = await client.call(`/api/v2/reservations/${created.id}`, {
      method: "PUT",
      body: { start_hour: "19:30" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].tables[0].id).toBe(r.t1.id);
  });

  it("grows a 20:00 party on its table though another party sits there from 21:00", async () => {
    const day = dateInDays(36);
    const at = (hour: string, pax = 2) =>
      book(client, {
        start_date: day,
        start_hour: hour,
        pax,
        service_id: r.service.id,
        table_ids: [r.t2.id],
      });
    const early = (await at("20:00")).json.data[0];
    expect((await at("21:00")).status).toBe(201);
    const res = await client.call(`/api/v2/reservations/${early.id}`, { method: "PUT", body: { pax: 3 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0]).toMatchObject({ pax: 3, tables: [{ id: r.t2.id }] });
  });

  it("books back-to-back stays on one table in either order, and refuses a minute's overlap", async () => {
    const at = (day: string, hour: string) =>
      book(client, { start_date: day, start_hour: hour, service_id: r.service.id, table_ids: [r.t2.id] });
    const [first, second] = [dateInDays(37), dateInDays(38)];
    // [20:00, 21:00) then [21:00, 22:00), and the other way round (the second checked by the trigger too)
    expect((await at(first, "20:00")).status).toBe(201);
    expect((await at(first, "21:00")).status).toBe(201);
    expect((await at(second, "21:00")).status).toBe(201);
    expect((await at(second, "20:00")).status).toBe(201);
    const overlap = await at(second, "20:59");
    expect(overlap.status).toBe(403);
    expect(overlap.json.code).toBe("table_not_available");
  });

  it("moves a grown party to a table that seats it", async () => {
    const created = (await book(client, { start_date: dateInDays(35), service_id: r.service.id })).json
      .data[0];
    expect(created.tables[0].id).toBe(r.t1.id);
    const res = await client.call(`/api/v2/reservations/${created.id}`, { method: "PUT", body: { pax: 4 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].tables[0].id).toBe(r.t2.id);
    // T1 is free again
    expect(
      (await book(client, { start_date: dateInDays(35), service_id: r.service.id, table_ids: [r.t1.id] }))
        .status,
    ).toBe(201);
  });
});

describe("status, check-in and check-out", () => {
  it("accepts a waiting-list reservation on a free table, by either path and in any case", async () => {
    const w = (
      await book(client, { start_date: dateInDays(40), service_id: r.service.id, waiting_list: true })
    ).json.data[0];
    const res = await client.call(`/api/v2/reservations/${w.id}?status=accepted`, { method: "PATCH" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      status: "ACCEPTED",
      waiting_list: false,
      start_day: dateInDays(40),
    });
    expect(res.json.data[0].tables).toHaveLength(1);
    const w2 = (
      await book(client, { start_date: dateInDays(40), service_id: r.service.id, waiting_list: true })
    ).json.data[0];
    const confirmed = await client.call(`/api/v2/reservations/${w2.id}/status?status=CONFIRMED`, {
      method: "PATCH",
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data[0].status).toBe("CONFIRMED");
  });

  it("declined means REJECTED", async () => {
    const w = (
      await book(client, { start_date: dateInDays(41), service_id: r.service.id, waiting_list: true })
    ).json.data[0];
    const res = await client.call(`/api/v2/reservations/${w.id}/status?status=declined`, { method: "PATCH" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].status).toBe("REJECTED");
  });

  it("check-in sets checkin_date (milliseconds) and expiration_date; undo restores the reservation exactly", async () => {
    const w = (
      await book(client, { start_date: dateInDays(42), service_id: r.service.id, waiting_list: true })
    ).json.data[0];
    const inRes = await atArrival(client, w, () =>
      client.call(`/api/v2/reservations/${w.id}/checkin`, { method: "PATCH" }),
    );
    expect(inRes.status, inRes.text).toBe(200);
    const checkedIn = inRes.json.data[0];
    expect(checkedIn.status).toBe("ACCEPTED");
    expect(checkedIn.checkin_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(checkedIn.expiration_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(checkedIn.tables).toHaveLength(1);
    const undo = await client.call(`/api/v2/reservations/${w.id}/checkin?undo=true`, { method: "PATCH" });
    expect(undo.status, undo.text).toBe(200);
    expect(undo.json.data[0].status).toBe("WAITING");
    expect(undo.json.data[0].checkin_date).toBeUndefined();
    expect(undo.json.data[0].expiration_date).toBeUndefined();
  });

  it("check-out needs a check-in, confirms attendance, and undo brings the previous status back", async () => {
    const a = (await book(client, { start_date: dateInDays(43), service_id: r.service.id })).json.data[0];
    const early = await client.call(`/api/v2/reservations/${a.id}/checkout`, { method: "PATCH" });
    expect(early.status).toBe(403);
    expect(early.json.title).toBe("reservation not available");
    const checkedIn = (
      await atArrival(client, a, () =>
        client.call(`/api/v2/reservations/${a.id}/checkin`, { method: "PATCH" }),
      )
    ).json.data[0];
    const out = await client.call(`/api/v2/reservations/${a.id}/checkout?undo=false`, { method: "PATCH" });
    expect(out.status, out.text).toBe(200);
    expect(out.json.data[0].status).toBe("CONFIRMED");
    expect(out.json.data[0].checkout_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?$/);
    const undo = await client.call(`/api/v2/reservations/${a.id}/checkout?undo=true`, { method: "PATCH" });
    expect(undo.json.data[0]).toMatchObject({ status: "ACCEPTED" });
    expect(undo.json.data[0].checkout_date).toBeUndefined();
    // Only the check-out is undone: the check-in stands as it was.
    expect(undo.json.data[0].checkin_date).toBe(checkedIn.checkin_date);
    // the history shows each step's changes as written, the undo's with the time it took back
    const changes = (await client.call(`/api/v2/reservations/${a.id}/history`)).json.data.map(
      (h: { changes: unknown }) => h.changes,
    );
    expect(changes.slice(1)).toEqual([
      { checkin_date: [null, checkedIn.checkin_date] },
      { status: ["ACCEPTED", "CONFIRMED"], checkout_date: [null, out.json.data[0].checkout_date] },
      { status: ["CONFIRMED", "ACCEPTED"], checkout_date: [out.json.data[0].checkout_date, null] },
    ]);
  });
});

describe("DELETE /reservations/{id}", () => {
  it("cancels, keeps the record, releases the table, and is safe to repeat", async () => {
    const date = dateInDays(50);
    const a = (await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t1.id] })).json
      .data[0];
    const res = await client.call(`/api/v2/reservations/${a.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [a.id] });
    expect((await client.call(`/api/v2/reservations/${a.id}`)).json.data[0].status).toBe("CANCELLED");
    expect(
      (await book(client, { start_date: date, service_id: r.service.id, table_ids: [r.t1.id] })).status,
    ).toBe(201);
    expect((await client.call(`/api/v2/reservations/${a.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("answers the id alone, as the OpenAPI document says in words and by its example", async () => {
    const doc = (await call("/api/v2/openapi.json")).json;
    const op = doc.paths["/api/v2/reservations/{reservation_id}"].delete;
    const ok = op.responses["200"];
    expect(ok.content["application/json"].schema.properties.data.items.type).toBe("integer");
    expect(ok.content["application/json"].schema.example).toEqual({ data: [42] });
    expect(ok.description).toContain('{"data": [id]}');
    expect(op.description).toContain('{"data": [id]}');
  });
});

describe("GET /reservations/{id}/history", () => {
  it("records who changed what, and when", async () => {
    const w = (
      await book(client, { start_date: dateInDays(51), service_id: r.service.id, waiting_list: true })
    ).json.data[0];
    await client.call(`/api/v2/reservations/${w.id}`, { method: "PUT", body: { pax: 3 } });
    await client.call(`/api/v2/reservations/${w.id}?status=accepted`, { method: "PATCH" });
    const checkedIn = (
      await atArrival(client, w, () =>
        client.call(`/api/v2/reservations/${w.id}/checkin`, { method: "PATCH" }),
      )
    ).json.data[0];
    await client.call(`/api/v2/reservations/${w.id}`, { method: "DELETE" });
    const res = await client.call(`/api/v2/reservations/${w.id}/history`);
    expect(res.status).toBe(200);
    expect(res.json.data.map((h: { action: string }) => h.action)).toEqual([
      "created",
      "updated",
      "status",
      "checkin",
      "cancelled",
    ]);
    expect(res.json.data[1].changes.pax).toEqual([2, 3]);
    expect(res.json.data[2]).toMatchObject({
      from_status: "WAITING",
      to_status: "ACCEPTED",
      actor: `client:${client.id}`,
    });
    expect(res.json.data[4]).toMatchObject({ from_status: "ACCEPTED", to_status: "CANCELLED" });
    // a status change shows in `changes` as written, first; stored once (from_status, to_status)
    expect(res.json.data.map((h: { changes: Record<string, unknown> }) => h.changes.status ?? null)).toEqual([
      [null, "WAITING"],
      null,
      ["WAITING", "ACCEPTED"],
      null,
      ["ACCEPTED", "CANCELLED"],
    ]);
    expect(Object.keys(res.json.data[2].changes)[0]).toBe("status");
    // the check-in's time, as the reservation shows it; stored once, as the entry's own time
    expect(res.json.data[3].changes).toEqual({ checkin_date: [null, checkedIn.checkin_date] });
    expect(res.json.data[3].at).toBe(checkedIn.checkin_date);
    const stored = await client.d1
      .prepare("SELECT changes FROM reservation_history WHERE reservation_id = ? ORDER BY seq")
      .bind(w.id)
      .all<{ changes: string }>();
    expect(
      stored.results.filter(
        (h) => "status" in JSON.parse(h.changes) || "checkin_date" in JSON.parse(h.changes),
      ),
    ).toEqual([]);
    // numbered within the reservation; the time kept as integer milliseconds, shown as written
    expect(res.json.data.map((h: { id: number }) => h.id)).toEqual([1, 2, 3, 4, 5]);
    const checkin = await client.d1
      .prepare("SELECT at, typeof(at) AS type FROM reservation_history WHERE reservation_id = ? AND seq = 4")
      .bind(w.id)
      .first<{ at: number; type: string }>();
    expect(checkin!.type).toBe("integer");
    expect(checkin!.at % 1000).toBe(Number(checkedIn.checkin_date.slice(-3)));
  });
});

describe("GET /reservations", () => {
  let day: string;
  let ids: Record<string, number>;
  beforeAll(async () => {
    day = dateInDays(60);
    const mk = async (body: Record<string, unknown>) =>
      (await book(client, { start_date: day, service_id: r.service.id, ...body })).json.data[0].id as number;
    ids = {
      early: await mk({
        start_hour: "19:00",
        customer: { first_name: "Grace", last_name: "Hopper", phone: "+1 555 0100" },
      }),
      late: await mk({
        start_hour: "21:30",
        customer: { first_name: "Alan", last_name: "Turing", email: "alan@example.com" },
      }),
      waiting: await mk({
        start_hour: "20:00",
        waiting_list: true,
        customer: { first_name: "Edsger", email: "ed@example.com" },
      }),
    };
    await atArrival(client, { start_date: day, start_hour: "21:30" }, () =>
      client.call(`/api/v2/reservations/${ids.late}/checkin`, { method: "PATCH" }),
    );
  });
  const list = async (query: string) => {
    const res = await client.call(`/api/v2/reservations?start_date=${day}&end_date=${day}&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json.data.map((x: { id: number }) => x.id);
  };

  it("orders by start and shows start_date", async () => {
    const res = await client.call(`/api/v2/reservations?start_date=${day}&end_date=${day}`);
    expect(res.json.data.map((x: { id: number }) => x.id)).toEqual([ids.early, ids.waiting, ids.late]);
    expect(res.json.data[0].start_date).toBe(day);
    expect(res.json.next_cursor).toBeNull();
  });

  it("filters by status[] (repeated keys), start_hour, text_search, arrived", async () => {
    expect(await list("status[]=WAITING")).toEqual([ids.waiting]);
    expect(await list("status[]=WAITING&status[]=ACCEPTED")).toEqual([ids.early, ids.waiting, ids.late]);
    expect(await list("start_hour=20:00:00")).toEqual([ids.waiting, ids.late]);
    expect(await list("text_search=hopp")).toEqual([ids.early]);
    expect(await list("text_search=555")).toEqual([ids.early]);
    expect(await list("text_search=alan%20turing")).toEqual([ids.late]);
    expect(await list("arrived=true")).toEqual([ids.late]);
    expect(await list("incoming=true")).toEqual([ids.early]);
    expect(await list(`service_ids[]=${r.service.id}`)).toHaveLength(3);
    expect(await list(`room_ids[]=${r.room.id}`)).toEqual([ids.early, ids.late]);
  });

  it("pages with an opaque cursor", async () => {
    const first = await client.call(`/api/v2/reservations?start_date=${day}&end_date=${day}&limit=2`);
    expect(first.json.data).toHaveLength(2);
    expect(typeof first.json.next_cursor).toBe("string");
    const second = await client.call(
      `/api/v2/reservations?start_date=${day}&end_date=${day}&limit=2&next_cursor=${first.json.next_cursor}`,
    );
    expect(second.json.data.map((x: { id: number }) => x.id)).toEqual([ids.late]);
    expect(second.json.next_cursor).toBeNull();
  });

  it("departed after check-out", async () => {
    await client.call(`/api/v2/reservations/${ids.late}/checkout`, { method: "PATCH" });
    expect(await list("departed=true")).toEqual([ids.late]);
    expect(await list("arrived=true")).toEqual([]);
  });
});

describe("POST /reservations/searchengine", () => {
  it("switches the feature on (201 ACCEPTED) and SEARCHENGINE bookings are taken", async () => {
    const c = await newClient();
    await makeProduction(c);
    const s = await seedRestaurant(c);
    const before = await book(c, { start_date: s.date, service_id: s.service.id, channel: "SEARCHENGINE" });
    expect(before.status).toBe(400);
    const res = await c.call("/api/v2/reservations/searchengine", { body: { enable_searchengine: true } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ status: "ACCEPTED" });
    const after = await book(c, { start_date: s.date, service_id: s.service.id, channel: "SEARCHENGINE" });
    expect(after.status, after.text).toBe(201);
    expect(after.json.data[0].channel).toBe("SEARCHENGINE");
    const property = (await c.call(`/api/v2/properties/${c.propertyId}`)).json.data[0];
    expect(property.searchengine_enabled).toBe(true);
  });
});

describe("the PREPAY expiry job", () => {
  it("expires reservations whose payment window closed and frees their tables", async () => {
    const { expireUnpaid } = await import("../../worker/reservations/expiry");
    const prepaid = await createIn(client, "services", {
      name: "Prepaid",
      start_hour: "19:00",
      end_hour: "21:00",
      prepayment_window: 15,
    });
    const date = dateInDays(70);
    const p = (await book(client, { start_date: date, service_id: prepaid.id, table_ids: [r.t1.id] })).json
      .data[0];
    const keep = (await book(client, { start_date: date, service_id: prepaid.id, table_ids: [r.t2.id] })).json
      .data[0];
    await client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(p.id)
      .run();
    const expired = await expireUnpaid(shardDb(client.d1));
    expect(expired).toContain(p.id);
    expect(expired).not.toContain(keep.id);
    expect((await client.call(`/api/v2/reservations/${p.id}`)).json.data[0].status).toBe("EXPIRED");
    expect((await client.call(`/api/v2/reservations/${keep.id}`)).json.data[0].status).toBe("PREPAY");
    expect(
      (await book(client, { start_date: date, service_id: prepaid.id, table_ids: [r.t1.id] })).status,
    ).toBe(201);
    const history = (await client.call(`/api/v2/reservations/${p.id}/history`)).json.data;
    expect(history.at(-1)).toMatchObject({ actor: "system", action: "expired_unpaid", to_status: "EXPIRED" });
  });
});

describe("the Worker's scheduled door", () => {
  it("runs the PREPAY expiry on its cron", async () => {
    const worker = (await import("../../worker/index")).default;
    const prepaid = await createIn(client, "services", {
      name: "Prepaid late",
      start_hour: "22:00",
      end_hour: "22:00",
      prepayment_window: 10,
    });
    const p = (
      await book(client, { start_date: dateInDays(71), start_hour: "22:00", service_id: prepaid.id })
    ).json.data[0];
    await client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(p.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }),
      env as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect((await client.call(`/api/v2/reservations/${p.id}`)).json.data[0].status).toBe("EXPIRED");
  });
});

describe("the OpenAPI document", () => {
  it("documents the reservation routes with the API's filters and both status paths", async () => {
    const { call } = await import("./helpers");
    const doc = (await call("/api/v2/openapi.json")).json;
    const list = doc.paths["/api/v2/reservations"].get;
    const names = list.parameters.map((p: { name: string }) => p.name);
    for (const n of [
      "next_cursor",
      "limit",
      "start_date",
      "start_hour",
      "end_date",
      "status[]",
      "text_search",
      "service_ids[]",
      "room_ids[]",
      "incoming",
      "arrived",
      "departed",
    ]) {
      expect(names).toContain(n);
    }
    expect(doc.paths["/api/v2/reservations/{reservation_id}"].patch).toBeDefined();
    expect(doc.paths["/api/v2/reservations/{reservation_id}/status"].patch).toBeDefined();
    expect(doc.paths["/api/v2/reservations/{reservation_id}/checkin"].patch).toBeDefined();
    expect(doc.paths["/api/v2/reservations/searchengine"].post.responses["400"].description).toContain(
      "validation error",
    );
    expect(doc.paths["/api/v2/bookings/rooms"].get.responses["206"]).toBeDefined();
  });
});
