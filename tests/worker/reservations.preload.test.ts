/**
 * A request about one reservation reads its row in the round trip of the property's row, and
 * not again, and a change reads there what its reactions need too (the day's waiting parties);
 * a change retried after a conflict reads both afresh. The D1 calls are watched through
 * the runtime's own prototypes while one request runs in this isolate (direct).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Call, stopWatching, watchCalls } from "./d1-watch";
import { direct } from "./direct";
import { book, dateInDays, newClient, seedRestaurant, shardOf, type TestClient } from "./helpers";

/** The statement of a reservation read by its id. */
const BY_ID = /from "reservations" where "reservations"\."id" = \?/;

/** The statement of the day's waiting parties never offered a table (a freed table's offer). */
const WAITING =
  /NOT EXISTS \(SELECT 1 FROM "waitlist_offers" o WHERE o\.reservation_id = "reservations"\."id"\)/;

afterEach(stopWatching);

let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
});

const as = (path: string, method = "GET") =>
  direct(path, { method, token: client.token, property: client.propertyId });
const reads = (calls: Call[], statement = BY_ID) => calls.filter((c) => c.sql.some((s) => statement.test(s)));

describe("a request about one reservation", () => {
  it("reads the reservation in the property row's round trip, and not again (GET, and the paths under it)", async () => {
    const made = (await book(client, { start_date: dateInDays(30), service_id: r.service.id })).json.data[0];
    for (const path of ["", "/history", "/messages"].map(
      (under) => `/api/v2/reservations/${made.id}${under}`,
    )) {
      const calls = watchCalls();
      const res = await as(path);
      stopWatching();
      expect(res.status, res.text).toBe(200);
      const [read, ...more] = reads(calls);
      expect(more, path).toEqual([]);
      expect(read!.kind).toBe("batch");
      expect(read!.sql[0]).toMatch(/from "properties" where/);
      expect(reads(calls, WAITING), `${path}: a read changes nothing, so reads no waiting parties`).toEqual(
        [],
      );
    }
  });

  it("a DELETE reads the day's waiting parties in that same round trip, and offers the first the freed table", async () => {
    const date = dateInDays(32);
    const made = (await book(client, { start_date: date, service_id: r.service.id })).json.data[0];
    const waiting = (await book(client, { start_date: date, service_id: r.service.id, waiting_list: true }))
      .json.data[0];
    expect(waiting.status).toBe("WAITING");
    const calls = watchCalls();
    const res = await as(`/api/v2/reservations/${made.id}`, "DELETE");
    stopWatching();
    expect(res.status, res.text).toBe(200);
    const [read, ...more] = reads(calls, WAITING);
    expect(more).toEqual([]);
    expect(read!.kind).toBe("batch");
    expect(read!.sql[0]).toMatch(/from "properties" where/);
    const shard = await shardOf(client.propertyId);
    const offer = await shard
      .prepare("SELECT state, start_min FROM waitlist_offers WHERE reservation_id = ?")
      .bind(waiting.id)
      .first();
    expect(offer).toMatchObject({ state: "open" });
  });

  it("answers 404 for an id the property does not have, from the same read", async () => {
    const res = await as("/api/v2/reservations/999999999");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("reservation_not_found");
  });

  it("cancels after a conflict by reading the row afresh: the preloaded row serves the first try only", async () => {
    const made = (await book(client, { start_date: dateInDays(31), service_id: r.service.id })).json.data[0];
    const shard = await shardOf(client.propertyId);
    let changed = false;
    // Someone else changes the reservation between the request's read and its commit, once.
    const calls = watchCalls(async (sql) => {
      if (changed || !sql.some((s) => /^update "reservations" set "status"/.test(s))) return;
      changed = true;
      await shard
        .prepare("UPDATE reservations SET notes = 'changed meanwhile', version = version + 1 WHERE id = ?")
        .bind(made.id)
        .run();
    });
    const res = await as(`/api/v2/reservations/${made.id}`, "DELETE");
    stopWatching();
    expect(res.status, res.text).toBe(200);
    expect(changed).toBe(true);
    expect(reads(calls).map((c) => c.kind)).toEqual(["batch", "raw"]);
    expect(reads(calls, WAITING).map((c) => c.kind)).toEqual(["batch", "raw"]);
    const row = await shard
      .prepare("SELECT status, notes FROM reservations WHERE id = ?")
      .bind(made.id)
      .first();
    expect(row).toEqual({ status: "CANCELLED", notes: "changed meanwhile" });
  });
});
