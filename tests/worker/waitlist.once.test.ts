/**
 * A waiting party is offered a table once, even when two changes free tables at the same moment:
 * both read the same waiting parties before either commits, and the second finds the party
 * offered already when its batch runs. Its change still commits; it makes no second offer and
 * sends no second email. The same holds when an offer that lapses or is declined passes on.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PlannedMessage } from "../../worker/messages/types";
import { closeAndPass } from "../../worker/waitlist/offers.repo";
import { stopWatching, watchCalls } from "./d1-watch";
import { direct } from "./direct";
import { book, dateInDays, GUEST, newClient, seedRestaurant, shardOf, type TestClient } from "./helpers";

afterEach(stopWatching);

/** Runs `before` once, just before the first batch whose SQL matches `when` reaches D1; answers whether it ran. */
function beforeBatchOf(when: RegExp, before: () => Promise<void>) {
  let done = false;
  watchCalls(async (sql) => {
    if (done || !sql.some((s) => when.test(s))) return;
    done = true;
    await before();
  });
  return () => done;
}

let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;
let shard: D1Database;

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
  shard = await shardOf(client.propertyId);
});

/** What the party holds: its offers' nonces, and its offer emails. */
async function offersOf(reservationId: number) {
  const offers = await shard
    .prepare("SELECT nonce FROM waitlist_offers WHERE reservation_id = ? ORDER BY id")
    .bind(reservationId)
    .all<{ nonce: string }>();
  const mails = await shard
    .prepare("SELECT count(*) AS n FROM messages WHERE reservation_id = ? AND template = 'offer'")
    .bind(reservationId)
    .first<{ n: number }>();
  return { nonces: offers.results.map((o) => o.nonce), emails: mails!.n };
}

/** An open offer of the party made by someone else, as a concurrent change would have made it. */
const offeredMeanwhile = (reservationId: number, nonce: string) =>
  shard
    .prepare(
      "INSERT INTO waitlist_offers (property_id, reservation_id, nonce, token_hash, expires_at, start_min) VALUES (?, ?, ?, ?, '2099-01-01T00:00:00.000Z', NULL)",
    )
    .bind(client.propertyId, reservationId, nonce, `hash-${nonce}`)
    .run()
    .then(() => undefined);

describe("a waiting party is offered a table once", () => {
  it("a cancellation whose waiting party was offered a table meanwhile commits, and offers and emails nothing more", async () => {
    const date = dateInDays(40);
    const made = (await book(client, { start_date: date, service_id: r.service.id })).json.data[0];
    const waiting = (await book(client, { start_date: date, service_id: r.service.id, waiting_list: true }))
      .json.data[0];
    const fired = beforeBatchOf(/^update "reservations" set "status"/, () =>
      offeredMeanwhile(waiting.id, "meanwhile-1"),
    );
    const res = await direct(`/api/v2/reservations/${made.id}`, {
      method: "DELETE",
      token: client.token,
      property: client.propertyId,
    });
    expect(res.status, res.text).toBe(200);
    expect(fired()).toBe(true);
    expect(await offersOf(waiting.id)).toEqual({ nonces: ["meanwhile-1"], emails: 0 });
    const row = await shard.prepare("SELECT status FROM reservations WHERE id = ?").bind(made.id).first();
    expect(row).toEqual({ status: "CANCELLED" });
  });

  it("a cancellation with nobody offered meanwhile still offers the first waiting party, with its email", async () => {
    const date = dateInDays(41);
    const made = (await book(client, { start_date: date, service_id: r.service.id })).json.data[0];
    const waiting = (await book(client, { start_date: date, service_id: r.service.id, waiting_list: true }))
      .json.data[0];
    const res = await direct(`/api/v2/reservations/${made.id}`, {
      method: "DELETE",
      token: client.token,
      property: client.propertyId,
    });
    expect(res.status, res.text).toBe(200);
    const held = await offersOf(waiting.id);
    expect(held.nonces).toHaveLength(1);
    expect(held.emails).toBe(1);
  });

  it("an offer passed on skips a party offered meanwhile: the old offer closes, no second offer or email", async () => {
    const date = dateInDays(42);
    const first = (await book(client, { start_date: date, service_id: r.service.id, waiting_list: true }))
      .json.data[0];
    const next = (await book(client, { start_date: date, service_id: r.service.id, waiting_list: true })).json
      .data[0];
    await offeredMeanwhile(first.id, "lapsing-1");
    await offeredMeanwhile(next.id, "meanwhile-2");
    const lapsing = await shard
      .prepare("SELECT id FROM waitlist_offers WHERE nonce = 'lapsing-1'")
      .first<{ id: number }>();
    const message = {
      template: "offer",
      recipient: "guest",
      to: GUEST.email,
      locale: "en",
      sequence: 1,
      snapshot: {},
      dueAt: Date.now(),
      reservationId: next.id,
    } as unknown as PlannedMessage;
    const offer = {
      reservationId: next.id,
      nonce: "passed-1",
      tokenHash: "hash-passed-1",
      expiresAt: "2099-01-01T00:00:00.000Z",
      startMin: 0,
    };
    expect(
      await closeAndPass(shard, lapsing!.id, "expired", new Date().toISOString(), client.propertyId, {
        offer,
        message,
      }),
    ).toBe(true);
    expect(await offersOf(next.id)).toEqual({ nonces: ["meanwhile-2"], emails: 0 });
    const closed = await shard
      .prepare("SELECT state FROM waitlist_offers WHERE id = ?")
      .bind(lapsing!.id)
      .first();
    expect(closed).toEqual({ state: "expired" });
  });
});
