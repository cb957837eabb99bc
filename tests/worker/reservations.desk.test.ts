/**
 * POST /reservations through the restaurant's booking desk (worker/restaurant/desk.ts), in the
 * restaurant's Durable Object: many bookings of one time at once create exactly as many as there
 * are tables and refuse the rest cleanly without a write; whatever the desk did not do itself
 * (cancellations, staff edits, rows written by other code, the catalog) counts at once.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { restaurantObject } from "../../worker/lib/restaurant-object";
import { ReservationCreate } from "../../worker/reservations/reservations.schemas";
import { stopWatching, watchCalls } from "./d1-watch";
import { direct } from "./direct";
import { book, createIn, dateInDays, GUEST, insertReservation, newClient, shardOf } from "./helpers";
import { captureMail, mailsTo } from "./messages.helpers";

async function restaurant(tables: number) {
  const client = await newClient("Desk Restaurant");
  const room = await createIn(client, "rooms", { name: "Main" });
  const ids: number[] = [];
  for (let i = 0; i < tables; i++)
    ids.push((await createIn(client, "tables", { name: `T${i + 1}`, room_id: room.id, guests_max: 2 })).id);
  const service = await createIn(client, "services", {
    name: "Dinner",
    start_hour: "19:00",
    end_hour: "22:00",
  });
  return { client, room, tables: ids, service };
}

/** What the restaurant's desk has done so far. */
const figures = async (propertyId: number) => await restaurantObject(env, propertyId).deskFigures();

/** The reservations of the day that hold a table, and the distinct tables they hold. */
async function held(propertyId: number, date: string) {
  const row = await (await shardOf(propertyId))
    .prepare(
      `SELECT count(*) AS holds, count(DISTINCT rt.table_id) AS tables FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id
        WHERE r.property_id = ? AND r.start_date = ?`,
    )
    .bind(propertyId, date)
    .first<{ holds: number; tables: number }>();
  return row!;
}

/** A take of the outbox: due messages marked queued and held (leased) for the request, and answered. */
const TAKE = /^update "messages" set "lease_until" = \?, "queued_at" = \?/;

afterEach(stopWatching);

describe("POST /reservations through the restaurant's desk", () => {
  it("creates exactly N of 40 simultaneous bookings for N tables and refuses the others, without a write", async () => {
    const N = 4;
    const { client, tables, service } = await restaurant(N);
    const date = dateInDays(30);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => book(client, { start_date: date, service_id: service.id })),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(N);
    expect(new Set(created.map((r) => r.json.data[0].tables[0].id))).toEqual(new Set(tables));
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(403);
      expect(r.json.code).toBe("table_not_available");
    }
    expect(await held(client.propertyId, date)).toEqual({ holds: N, tables: N });
    // every refusal was answered by the desk on the day it read: none tried a write the database refused
    const desk = await figures(client.propertyId);
    expect(desk.committed).toBe(N);
    expect(desk.refused).toBe(40 - N);
  });

  it("serves the bookings of different days waiting together side by side, each day deciding its own", async () => {
    const N = 2;
    const { client, service } = await restaurant(N);
    const row = await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(client.propertyId)
      .first<{ shard: number }>();
    const dates = [dateInDays(40), dateInDays(41), dateInDays(42)];
    // the days in turn, so any two bookings that wait together are of two days
    const asked = Array.from({ length: 4 }, () => dates).flat();
    // straight to the desk, all sent before the first is answered: they wait together behind the first read
    const job = (date: string, i: number) => ({
      shard: row!.shard,
      propertyId: client.propertyId,
      actor: "client:test",
      channel: "PLATFORM_ADMIN" as const,
      input: ReservationCreate.parse({
        start_date: date,
        start_hour: "20:00",
        pax: 2,
        service_id: service.id,
        customer: { first_name: "Side", last_name: `By Side ${i}`, email: `side.${i}@example.com` },
      }),
    });
    const desk = restaurantObject(env, client.propertyId);
    const answers = await Promise.all(asked.map((date, i) => desk.book(job(date, i))));
    for (const date of dates) {
      const ofDay = answers.filter((_a, i) => asked[i] === date);
      expect(ofDay.filter((a) => "row" in a && a.row.startDate === date)).toHaveLength(N);
      expect(ofDay.filter((a) => "problem" in a && a.problem.code === "table_not_available")).toHaveLength(
        4 - N,
      );
      expect(await held(client.propertyId, date)).toEqual({ holds: N, tables: N });
    }
    const figures = await desk.deskFigures();
    expect(figures.refused).toBe(dates.length * (4 - N));
    // the first booking's read served it alone; those that came meanwhile were served together, their days side by side
    expect(figures.widestRound).toBeGreaterThan(1);
  });

  it("books a table freed by a cancellation at once", async () => {
    const { client, service } = await restaurant(2);
    const date = dateInDays(31);
    const [a] = await Promise.all([
      book(client, { start_date: date, service_id: service.id }),
      book(client, { start_date: date, service_id: service.id }),
    ]);
    const full = await book(client, { start_date: date, service_id: service.id });
    expect(full.status).toBe(403);
    expect(full.json.code).toBe("table_not_available");
    expect(
      (await client.call(`/api/v2/reservations/${a!.json.data[0].id}`, { method: "DELETE" })).status,
    ).toBe(200);
    const again = await book(client, { start_date: date, service_id: service.id });
    expect(again.status, again.text).toBe(201);
    expect(again.json.data[0].tables[0].id).toBe(a!.json.data[0].tables[0].id);
  });

  it("books a table freed by a staff edit, by a hold deleted outside the API, or added to the catalog, at once", async () => {
    const { client, room, tables, service } = await restaurant(2);
    const date = dateInDays(32);
    // 19:30: a stay of 60 that the 20:00 hold below overlaps
    const at = { start_date: date, start_hour: "19:30:00", service_id: service.id };
    const moved = (await book(client, { ...at, table_ids: [tables[0]] })).json.data[0];
    const outside = await insertReservation(client.propertyId, {
      date,
      serviceId: service.id,
      tableIds: [tables[1]!],
    });
    // the 20:00 hold written outside the API reaches 19:30's stay: both tables are held
    expect((await book(client, at)).status).toBe(403);
    expect(
      (
        await client.call(`/api/v2/reservations/${moved.id}`, {
          method: "PUT",
          body: { start_day: dateInDays(33) },
        })
      ).status,
    ).toBe(200);
    expect((await book(client, at)).status).toBe(201);
    expect((await book(client, at)).status).toBe(403);
    await (await shardOf(client.propertyId))
      .prepare("DELETE FROM reservation_tables WHERE reservation_id = ?")
      .bind(outside)
      .run();
    expect((await book(client, at)).status).toBe(201);
    expect((await book(client, at)).status).toBe(403);
    await createIn(client, "tables", { name: "New", room_id: room.id, guests_max: 2 });
    expect((await book(client, at)).status).toBe(201);
  });

  it("keeps staff bookings to their rules: a block holds its table, a named held table is refused", async () => {
    const { client, tables, service } = await restaurant(2);
    const date = dateInDays(34);
    const block = await book(client, {
      start_date: date,
      service_id: service.id,
      table_ids: [tables[0]],
      status: "OUTOFORDER",
      customer: undefined,
    });
    expect(block.status, block.text).toBe(201);
    const [first, second] = await Promise.all([
      book(client, { start_date: date, service_id: service.id }),
      book(client, { start_date: date, service_id: service.id }),
    ]);
    expect([first!.status, second!.status].sort()).toEqual([201, 403]);
    expect([first, second].find((r) => r!.status === 201)!.json.data[0].tables[0].id).toBe(tables[1]);
    const named = await book(client, { start_date: date, service_id: service.id, table_ids: [tables[1]] });
    expect(named.status).toBe(403);
    expect(named.json.code).toBe("table_not_available");
    // a waiting party takes no table: the desk lets it through
    expect(
      (await book(client, { start_date: date, service_id: service.id, waiting_list: true })).status,
    ).toBe(201);
  });

  it("takes the booking's confirmation from the outbox, held for its attempt, in its commit's own batch; the request sends it once answered", async () => {
    const { client, service } = await restaurant(1);
    const to = `desk-${crypto.randomUUID()}@example.com`;
    const capture = captureMail();
    try {
      const calls = watchCalls();
      const res = await direct("/api/v2/reservations", {
        token: client.token,
        property: client.propertyId,
        body: {
          start_date: dateInDays(35),
          start_hour: "19:00:00",
          pax: 2,
          service_id: service.id,
          customer: { ...GUEST, email: to },
        },
      });
      stopWatching();
      expect(res.status, res.text).toBe(201);
      const commit = calls.find((c) => c.sql.some((s) => /^insert into "reservations"/.test(s)));
      expect(commit?.kind).toBe("batch");
      // after the message's insert, in the same batch
      const inserted = commit!.sql.findIndex((s) => /^insert into "messages"/.test(s));
      expect(inserted).toBeGreaterThan(-1);
      expect(commit!.sql.findIndex((s) => TAKE.test(s))).toBeGreaterThan(inserted);
      const [mail] = await mailsTo(capture, to, 1);
      expect(mail!.subject).toBeTruthy();
    } finally {
      capture.stop();
    }
  });
});
