/**
 * Ids stay unique across shards whatever moves happen: a shard that takes in a property's rows
 * (ids of another shard's range) keeps handing out ids of a range of its own, so a lookup by id
 * (the search engine's booking ids, the API, manage links) reaches exactly one restaurant's row.
 * And a move on a state where ids already clashed stops before its switch, saying why.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { shardCount, shardD1 } from "../../worker/shards/shards";
import { SEQUENCED_TABLES } from "../../worker/shards/shards.repo";
import { call, expectProblem } from "./helpers";
import { moveProperty, OPS, ops, shardIndexOf } from "./moves.helpers";
import { type Merchant, merchant, newToken, romeSec, SAMPLES, v3 } from "./searchengine.fixtures";

/** A restaurant the search engine books at, placed on shard `k` (placement alternates between shards). */
async function merchantOn(k: number): Promise<Merchant> {
  for (;;) {
    const m = await merchant({ tables: [2, 2, 2, 2] });
    if ((await shardIndexOf(m.client.propertyId)) === k) return m;
  }
}

/** Every id of every sequenced table, per shard: no id may be in two shards. */
async function expectNoIdInTwoShards() {
  for (const table of SEQUENCED_TABLES) {
    const seen = new Map<number, number>();
    for (let k = 0; k < shardCount(env); k++) {
      const { results } = await shardD1(env, k).prepare(`SELECT id FROM ${table}`).all<{ id: number }>();
      for (const { id } of results) {
        expect(seen.get(id), `${table} ${id} on shard ${k} and on shard ${seen.get(id)}`).toBeUndefined();
        seen.set(id, k);
      }
    }
  }
}

async function statusOf(m: Merchant, id: string): Promise<string> {
  const res = await m.client.call(`/api/v2/reservations/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data[0].status;
}

/**
 * A booking through the search engine and a room at each restaurant, on whichever shard each
 * lives; then each booking cancelled by its id in turn, which touches that restaurant's only.
 */
async function bookAndCancelEverywhere(merchants: Merchant[], hour: string) {
  const bookings: string[] = [];
  const rooms: number[] = [];
  for (const m of merchants) {
    const sample = SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, hour), newToken());
    bookings.push((await v3("CreateBooking", sample.request)).booking.booking_id);
    const room = await m.client.call("/api/v2/rooms", { body: { name: `Room ${hour}` } });
    expect(room.status, room.text).toBe(201);
    rooms.push(room.json.data[0].id);
  }
  expect(new Set(bookings).size, `booking ids ${bookings}`).toBe(merchants.length);
  expect(new Set(rooms).size, `room ids ${rooms}`).toBe(merchants.length);
  await expectNoIdInTwoShards();
  for (const [i, id] of bookings.entries()) {
    expect((await v3("UpdateBooking", SAMPLES.cancelBooking(id).request)).booking.status).toBe("CANCELED");
    for (const [j, other] of bookings.entries())
      expect(await statusOf(merchants[j]!, other), `booking ${j} after cancelling ${i}`).toBe(
        j <= i ? "CANCELLED" : "ACCEPTED",
      );
  }
}

describe("ids across shards after moves", () => {
  it("stay unique when properties move both ways, and a cancel by id reaches its own restaurant only", async () => {
    expect(shardCount(env)).toBe(2);
    const born0 = await merchantOn(0);
    const stays1 = await merchantOn(1);
    // Made last on shard 1: its rows hold shard 1's highest ids when it leaves.
    const born1 = await merchantOn(1);
    const all = [born0, stays1, born1];
    await bookAndCancelEverywhere(all, "19:00");

    await moveProperty(born1.client.propertyId, 0);
    await bookAndCancelEverywhere(all, "19:30");
    await moveProperty(born0.client.propertyId, 1);
    await bookAndCancelEverywhere(all, "20:00");
    await moveProperty(born0.client.propertyId, 0);
    await bookAndCancelEverywhere(all, "20:30");
    await moveProperty(born1.client.propertyId, 1);
    await bookAndCancelEverywhere(all, "19:00");
    expect(await Promise.all(all.map((m) => shardIndexOf(m.client.propertyId)))).toEqual([0, 1, 1]);
  });
});

/** Runs the Worker's minute (the cron), as the platform would. */
async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

describe("a state where an earlier move let ids clash", () => {
  it("hands out ids of a range of its own again, and a move of a clashing property stops before its switch", async () => {
    const here = await merchantOn(0);
    const there = await merchantOn(1);
    // What an earlier move left: a room on shard 0 under an id of shard 1's range, one that a
    // property of shard 1 also has, and shard 0 counting on from it.
    const clash = there.room.id;
    const spare = (await here.client.call("/api/v2/rooms", { body: { name: "Spare" } })).json.data[0].id;
    await here.client.d1.prepare("UPDATE rooms SET id = ? WHERE id = ?").bind(clash, spare).run();
    await runCron();
    const fresh = await here.client.call("/api/v2/rooms", { body: { name: "After the repair" } });
    expect(fresh.status, fresh.text).toBe(201);
    const next = await there.client.call("/api/v2/rooms", { body: { name: "On shard 1" } });
    expect(next.status, next.text).toBe(201);
    expect(fresh.json.data[0].id).not.toBe(next.json.data[0].id);
    expect(fresh.json.data[0].id).not.toBe(clash + 1);

    const id = there.client.propertyId;
    await ops({ step: "begin", property_id: id, shard: 0 });
    for (const table of ["properties", "rooms"]) {
      const res = await call("/__ops/move-property", {
        body: { step: "copy", property_id: id, shard: 0, table, after: 0 },
        headers: OPS,
      });
      if (table === "properties") expect(res.status, res.text).toBe(200);
      else {
        expectProblem(res, 409, "resource in use");
        expect(res.json.detail).toContain(`rooms ${clash}`);
      }
    }
    await ops({ step: "abort", property_id: id, shard: 0 });
    expect(await shardIndexOf(id)).toBe(1);
    const after = await there.client.call("/api/v2/rooms", { body: { name: "Still on shard 1" } });
    expect(after.status, after.text).toBe(201);
  });
});
