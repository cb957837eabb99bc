/**
 * Every restaurant in its shard: placement by the directory, isolation between
 * shards, ids unique across them, the cron over every shard, sessions with bookmarks, and a move
 * between shards while bookings are being made, losing nothing.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { deletePage, keyOf, movedTable, type PageKey, readPage } from "../../worker/ops/move.repo";
import { ID_STRIDE, MAX_SHARDS, shardCount, shardD1 } from "../../worker/shards/shards";
import { SEQUENCED_TABLES } from "../../worker/shards/shards.repo";
import {
  book,
  call,
  dateInDays,
  expectProblem,
  GUEST,
  insertReservation,
  newClient,
  seedRestaurant,
  shardOf,
  type TestClient,
} from "./helpers";
import { moveProperty, OPS, ops, shardIndexOf } from "./moves.helpers";
import { publicKeyOf } from "./public.fixtures";
import { receiverHook, subscribe } from "./webhooks.helpers";

async function rowsIn(d1: D1Database, propertyId: number) {
  const r = await d1
    .prepare(
      "SELECT (SELECT count(*) FROM properties WHERE id = ?1) AS p, (SELECT count(*) FROM reservations WHERE property_id = ?1) AS r",
    )
    .bind(propertyId)
    .first<{ p: number; r: number }>();
  return r!;
}

describe("placement", () => {
  it("puts new properties on the emptiest shard, so they spread over every shard", async () => {
    expect(shardCount(env)).toBeGreaterThanOrEqual(2);
    const clients = await Promise.all([0, 1, 2, 3].map(() => newClient()));
    const shards = await Promise.all(clients.map((c) => shardIndexOf(c.propertyId)));
    expect(new Set(shards).size).toBe(shardCount(env));
    const counts = await env.DB.prepare(
      "SELECT shard, count(*) AS n FROM property_directory WHERE deleted_at IS NULL GROUP BY shard",
    ).all<{ shard: number; n: number }>();
    const n = counts.results.map((r) => r.n);
    expect(Math.max(...n) - Math.min(...n)).toBeLessThanOrEqual(1);
  });

  it("gives each shard's rows ids of its own range: unique across shards", async () => {
    const clients = await Promise.all([0, 1, 2].map(() => newClient()));
    for (const c of clients) {
      const k = await shardIndexOf(c.propertyId);
      const { room } = await seedRestaurant(c);
      expect(room.id).toBeGreaterThan(k * ID_STRIDE);
      expect(room.id).toBeLessThan((k + 1) * ID_STRIDE);
    }
  });

  it("keeps every sequence of every shard in that shard's range, those the migrations started at 0 too", async () => {
    for (let k = 0; k < shardCount(env); k++) {
      const d1 = shardD1(env, k);
      const { base } = (await d1.prepare("SELECT base FROM id_range").first<{ base: number }>())!;
      // a shard's first range is its own; a move may have moved it on to a fresh one above them all
      expect(base === k * ID_STRIDE || base >= MAX_SHARDS * ID_STRIDE, `shard ${k}: range at ${base}`).toBe(
        true,
      );
      const { results } = await d1
        .prepare("SELECT name, seq FROM sqlite_sequence")
        .all<{ name: string; seq: number }>();
      const seqs = new Map(results.map((r) => [r.name, r.seq]));
      for (const table of SEQUENCED_TABLES) {
        expect(seqs.get(table), `shard ${k}: ${table}`).toBeGreaterThanOrEqual(base);
        expect(seqs.get(table), `shard ${k}: ${table}`).toBeLessThan(base + ID_STRIDE);
      }
    }
  });

  it("refuses a new row whose id lies outside the shard's range", async () => {
    const c = await newClient();
    const { base } = (await c.d1.prepare("SELECT base FROM id_range").first<{ base: number }>())!;
    const insert = (id: number) =>
      c.d1
        .prepare("INSERT INTO rooms (id, property_id, name) VALUES (?, ?, 'Elsewhere')")
        .bind(id, c.propertyId)
        .run();
    await expect(insert(base + ID_STRIDE + 1)).rejects.toThrow(/id outside the shard's range: rooms/);
    if (base > 0) await expect(insert(base)).rejects.toThrow(/id outside the shard's range: rooms/);
    expect((await c.call("/api/v2/rooms", { body: { name: "Inside" } })).status).toBe(201);
  });
});

describe("isolation", () => {
  it("writes a property's rows to its own shard only, and reads them from there", async () => {
    const a = await newClient();
    let b = await newClient();
    while ((await shardIndexOf(b.propertyId)) === (await shardIndexOf(a.propertyId))) b = await newClient();
    for (const c of [a, b]) {
      const s = await seedRestaurant(c);
      expect((await book(c, { start_date: s.date, service_id: s.service.id })).status).toBe(201);
    }
    const [ka, kb] = [await shardIndexOf(a.propertyId), await shardIndexOf(b.propertyId)];
    expect(await rowsIn(shardD1(env, ka), a.propertyId)).toEqual({ p: 1, r: 1 });
    expect(await rowsIn(shardD1(env, kb), a.propertyId)).toEqual({ p: 0, r: 0 });
    expect(await rowsIn(shardD1(env, kb), b.propertyId)).toEqual({ p: 1, r: 1 });
    // A client granted one property never reaches the other, whichever shard it is on.
    expectProblem(
      await a.call("/api/v2/reservations", { property: b.propertyId }),
      403,
      "property forbidden",
    );
  });

  it("answers each read and write with its shard's D1 bookmark, and takes one back", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const made = await book(c, { start_date: s.date, service_id: s.service.id });
    const bookmark = made.headers.get("X-D1-Bookmark");
    expect(bookmark).toMatch(/^[0-9a-zA-Z-]+$/);
    const read = await c.call(`/api/v2/reservations/${made.json.data[0].id}`, {
      headers: { "X-D1-Bookmark": bookmark! },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("X-D1-Bookmark")).toMatch(/^[0-9a-zA-Z-]+$/);
    // A bookmark of no use (garbage, another database's) is not an error: the read starts afresh.
    expect((await c.call("/api/v2/rooms", { headers: { "X-D1-Bookmark": "not a bookmark!" } })).status).toBe(
      200,
    );
  });
});

describe("the cron over every shard", () => {
  it("expires unpaid PREPAY reservations and sweeps webhook deliveries in each shard", async () => {
    const seeded: { c: TestClient; id: number; hook: Awaited<ReturnType<typeof receiverHook>> }[] = [];
    const seen = new Set<number>();
    while (seen.size < shardCount(env)) {
      const c = await newClient();
      const k = await shardIndexOf(c.propertyId);
      if (seen.has(k)) continue;
      seen.add(k);
      const hook = await receiverHook();
      await subscribe(c, hook.url, "RESERVATION_UPDATED");
      const id = await insertReservation(c.propertyId, { date: dateInDays(30), status: "PREPAY" });
      await c.d1
        .prepare("UPDATE reservations SET payment_due_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
        .bind(id)
        .run();
      seeded.push({ c, id, hook });
    }
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    for (const { c, id, hook } of seeded) {
      expect((await c.call(`/api/v2/reservations/${id}`)).json.data[0].status).toBe("EXPIRED");
      const history = (await c.call(`/api/v2/reservations/${id}/history`)).json.data;
      expect(history.at(-1)).toMatchObject({ actor: "system", action: "expired_unpaid" });
      // The direct write (payment_due_at) and the expiry: both events reach each shard's subscriber.
      for (let i = 0; i < 200 && (await hook.received()).length < 2; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect((await hook.received()).map((m) => JSON.parse(m.body).data.reservation.status)).toEqual([
        "PREPAY",
        "EXPIRED",
      ]);
    }
  });
});

describe("moving a property to another shard", () => {
  it("keeps every row, id, token, manage link and subscription, and loses no booking made meanwhile", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    // More tables, so that bookings keep landing during the move.
    const tables = [s.t1.id, s.t2.id];
    for (let i = 0; i < 10; i++)
      tables.push(
        (await c.call("/api/v2/tables", { body: { name: `M${i}`, room_id: s.room.id, guests_max: 4 } })).json
          .data[0].id,
      );
    const from = await shardIndexOf(c.propertyId);
    const to = (from + 1) % shardCount(env);
    const hook = await receiverHook();
    const sub = await subscribe(c, hook.url, "RESERVATION_CREATED");
    const publicKey = await publicKeyOf(c);
    const guest = await call(`/api/v2/public/${publicKey}/reservations`, {
      body: {
        date: s.date,
        hour: "19:00",
        pax: 2,
        guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
      },
      headers: { "CF-Connecting-IP": "10.9.9.9" },
    });
    expect(guest.status, guest.text).toBe(201);
    const before = (await c.call(`/api/v2/reservations?start_date=${s.date}&end_date=${s.date}`)).json.data;

    // Bookings keep coming while the property moves; each one is either made (201) or told to retry (503).
    let moving = true;
    const outcomes: { status: number; id?: number; retryAfter: string | null }[] = [];
    const load = (async () => {
      for (let i = 0; moving || i < 3; i++) {
        const hour = ["19:00", "19:30", "20:00", "20:30", "21:00", "21:30"][i % 6];
        const res = await book(c, {
          start_date: dateInDays(11 + (i % 20)),
          start_hour: hour,
          service_id: s.service.id,
          customer: { ...GUEST, email: `load${i}@example.com` },
        });
        outcomes.push({
          status: res.status,
          id: res.json?.data?.[0]?.id,
          retryAfter: res.headers.get("Retry-After"),
        });
      }
    })();
    const switched = await moveProperty(c.propertyId, to);
    moving = false;
    await load;

    expect(await shardIndexOf(c.propertyId)).toBe(to);
    expect(await rowsIn(shardD1(env, from), c.propertyId)).toEqual({ p: 0, r: 0 });
    expect(outcomes.every((o) => o.status === 201 || (o.status === 503 && o.retryAfter === "5"))).toBe(true);
    expect(
      outcomes.some((o) => o.status === 503),
      "some bookings met the move",
    ).toBe(true);
    // Every booking answered 201 is there, under its id, and nothing else was added.
    const made = outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    for (const id of made) expect((await c.call(`/api/v2/reservations/${id}`)).status).toBe(200);
    const after = (await c.call(`/api/v2/reservations?start_date=${s.date}&end_date=${s.date}`)).json.data;
    expect(after).toEqual(before);
    // The guest's booking and every booking made: no more, no fewer.
    expect((await rowsIn(shardD1(env, to), c.propertyId)).r).toBe(1 + made.length);
    expect(switched.rows.reservations).toBeLessThanOrEqual(1 + made.length);
    // The guest's manage link, the token, the catalog and the subscription work as before.
    expect(
      (await call(`/api/v2/public/${publicKey}/manage/${guest.json.data[0].manage_token}`)).json.data[0]
        .status,
    ).toBe("ACCEPTED");
    expect((await c.call("/api/v2/rooms")).json.data[0].tables.map((t: { id: number }) => t.id)).toEqual(
      tables.concat(s.group.id).sort((x, y) => x - y),
    );
    expect((await c.call(`/api/v2/webhooks/subscription/${sub.id}`)).json.data[0].id).toBe(sub.id);
    const fresh = await book(c, { start_date: dateInDays(40), service_id: s.service.id });
    expect(fresh.status).toBe(201);
    // New rows on the new shard take its own range, never the old one's.
    const { base } = (await shardD1(env, to).prepare("SELECT base FROM id_range").first<{ base: number }>())!;
    expect(fresh.json.data[0].id).toBeGreaterThan(base);
    expect(fresh.json.data[0].id).toBeLessThan(base + ID_STRIDE);
    for (
      let i = 0;
      i < 200 &&
      !(await hook.received()).some((m) => JSON.parse(m.body).data.reservation.id === fresh.json.data[0].id);
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(
      (await hook.received()).some((m) => JSON.parse(m.body).data.reservation.id === fresh.json.data[0].id),
    ).toBe(true);
    expect(await shardOf(c.propertyId)).toBe(shardD1(env, to));
  });

  it("keeps a waiting party's offer and the offer's email (copied before the offer it goes with)", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const made = (await book(c, { start_date: s.date, service_id: s.service.id })).json.data[0];
    const waiting = (await book(c, { start_date: s.date, service_id: s.service.id, waiting_list: true })).json
      .data[0];
    expect((await c.call(`/api/v2/reservations/${made.id}`, { method: "DELETE" })).status).toBe(200);
    const held = (d1: D1Database) =>
      d1
        .prepare(
          "SELECT (SELECT count(*) FROM waitlist_offers WHERE reservation_id = ?1) AS offers, (SELECT count(*) FROM messages WHERE reservation_id = ?1 AND template = 'offer') AS emails",
        )
        .bind(waiting.id)
        .first();
    const from = await shardIndexOf(c.propertyId);
    expect(await held(shardD1(env, from))).toEqual({ offers: 1, emails: 1 });
    const to = (from + 1) % shardCount(env);
    await moveProperty(c.propertyId, to);
    expect(await held(shardD1(env, to))).toEqual({ offers: 1, emails: 1 });
  });

  it("refuses a second move while one is under way, and gives one up cleanly with abort", async () => {
    const c = await newClient();
    await seedRestaurant(c);
    const from = await shardIndexOf(c.propertyId);
    const to = (from + 1) % shardCount(env);
    await ops({ step: "begin", property_id: c.propertyId, shard: to });
    await ops({ step: "copy", property_id: c.propertyId, shard: to, table: "properties", after: 0 });
    const again = await call("/__ops/move-property", {
      body: { step: "begin", property_id: c.propertyId, shard: to },
      headers: OPS,
    });
    expectProblem(again, 409, "resource in use");
    // Writes wait; reads go on.
    expectProblem(await c.call("/api/v2/rooms", { body: { name: "During" } }), 503, "service unavailable");
    expect((await c.call("/api/v2/rooms")).status).toBe(200);
    await ops({ step: "abort", property_id: c.propertyId, shard: to });
    expect(await rowsIn(shardD1(env, to), c.propertyId)).toEqual({ p: 0, r: 0 });
    expect((await c.call("/api/v2/rooms", { body: { name: "After" } })).status).toBe(201);
  });

  it("pages the history, keyed by reservation and number, without losing or repeating an entry", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    for (let i = 0; i < 3; i++) {
      const id = (await book(c, { start_date: dateInDays(11 + i), service_id: s.service.id })).json.data[0]
        .id;
      for (const pax of [3, 4])
        expect((await c.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { pax } })).status).toBe(
          200,
        );
    }
    const t = movedTable("reservation_history");
    const all = (
      await c.d1
        .prepare(
          "SELECT h.reservation_id, h.seq FROM reservation_history h JOIN reservations r ON r.id = h.reservation_id WHERE r.property_id = ? ORDER BY 1, 2",
        )
        .bind(c.propertyId)
        .all<{ reservation_id: number; seq: number }>()
    ).results;
    expect(all.map((h) => h.seq)).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3]);
    const paged: PageKey[] = [];
    for (
      let after: PageKey = 0, page = await readPage(c.d1, t, c.propertyId, after, 2);
      page.length;
      page = await readPage(c.d1, t, c.propertyId, after, 2)
    ) {
      paged.push(...page.map((row) => keyOf(t, row)));
      after = keyOf(t, page.at(-1)!);
    }
    expect(paged).toEqual(all.map((h) => [h.reservation_id, h.seq]));
    expect(await deletePage(c.d1, t, c.propertyId, 4)).toBe(4);
    expect((await readPage(c.d1, t, c.propertyId, 0, 100)).length).toBe(5);
  });

  it("answers only the operator's token", async () => {
    expectProblem(await call("/__ops/shards"), 401, "invalid token");
    expectProblem(
      await call("/__ops/shards", { headers: { Authorization: "Bearer wrong" } }),
      401,
      "invalid token",
    );
    const shards = await call("/__ops/shards", { headers: OPS });
    expect(shards.json.data.map((s: { index: number }) => s.index)).toEqual([
      ...Array(shardCount(env)).keys(),
    ]);
    const { base } = (await shardD1(env, 0).prepare("SELECT base FROM id_range").first<{ base: number }>())!;
    expect(shards.json.data[0]).toMatchObject({
      index: 0,
      ids_from: base + 1,
      properties: expect.any(Number),
      bytes: expect.any(Number),
    });
  });
});
