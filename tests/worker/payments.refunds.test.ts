/**
 * A refund a cancellation owes is never lost: written with the cancellation, shown on the
 * reservation's payment while Stripe has not made it, tried at once and retried by the cron with
 * backoff while Stripe is down, always under the same idempotency key, made once. Money Stripe takes
 * for a booking already closed is owed back the same way.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { config } from "../../worker/config";
import { setClock } from "../../worker/lib/clock";
import { nextTry, retryOwedRefunds } from "../../worker/payments/refunds";
import { shardDb } from "../../worker/shards/shards";
import {
  CARDS,
  confirmInBrowser,
  deliverEvents,
  type PayingRestaurant,
  payingRestaurant,
  postEvent,
  requestsOn,
  setPolicy,
  standin,
} from "./payments.helpers";
import { GUEST } from "./public.fixtures";
import { waitFor } from "./webhooks.helpers";

afterEach(() => setClock(undefined));

const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "EUR", refund_until: 1440 };

async function paidBooking(r: PayingRestaurant): Promise<number> {
  const res = await r.guest.book({
    service_id: r.service.id,
    date: r.date,
    hour: "19:00",
    pax: 2,
    guest: GUEST,
  });
  expect(res.status, res.text).toBe(201);
  const step = (await r.guest.call(`/pay/${res.json.data[0].manage_token}`)).json.data[0];
  await confirmInBrowser(step, CARDS.visa);
  await deliverEvents();
  return step.reservation_id;
}

const outage = (account: string, down: boolean) =>
  standin("/__standin/outage", {
    method: "PUT",
    body: JSON.stringify({ account, path: "/v1/refunds", down }),
  });

const owed = (r: PayingRestaurant, id: number) =>
  r.client.d1
    .prepare(
      "SELECT refund_due, refund_attempts, refund_next_at, refund_error FROM reservation_payments WHERE reservation_id = ?",
    )
    .bind(id)
    .first<{
      refund_due: number | null;
      refund_attempts: number;
      refund_next_at: string | null;
      refund_error: string | null;
    }>();

describe("a refund owed by a cancellation", () => {
  it("waits, shown on the reservation, while Stripe is down, and is made once by the cron's retry", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const id = await paidBooking(r);
    await outage(r.account, true);
    try {
      const cancelled = await r.client.call(`/api/v2/reservations/${id}`, { method: "DELETE" });
      expect(cancelled.status, cancelled.text).toBe(200);
      // The try made after the cancellation failed: counted, the next one due later.
      const first = await waitFor("the first try", async () => {
        const row = await owed(r, id);
        return row !== null && row.refund_attempts >= 1 ? row : undefined;
      });
      expect(first).toMatchObject({ refund_due: 4000 });
      expect(first.refund_error).toMatch(/unavailable/i);
      const api = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
      expect(api.status).toBe("CANCELLED");
      expect(api.payment).toMatchObject({ status: "paid", amount_refunded: 0, refund_pending: 4000 });

      // Not yet due: the cron leaves it.
      const c = config(env);
      expect(await retryOwedRefunds(shardDb(r.client.d1), c.stripe)).not.toContain(id);
      // Due, Stripe still down: tried, counted again.
      setClock(new Date(Date.parse(first.refund_next_at!) + 1000).toISOString());
      expect(await retryOwedRefunds(shardDb(r.client.d1), c.stripe)).not.toContain(id);
      const second = (await owed(r, id))!;
      expect(second.refund_attempts).toBe(first.refund_attempts + 1);
      expect(Date.parse(second.refund_next_at!)).toBeGreaterThan(Date.parse(first.refund_next_at!));

      // Stripe back: the next due try makes it.
      await outage(r.account, false);
      setClock(new Date(Date.parse(second.refund_next_at!) + 1000).toISOString());
      expect(await retryOwedRefunds(shardDb(r.client.d1), c.stripe)).toEqual([id]);
      const done = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
      expect(done.payment).toMatchObject({ status: "refunded", amount_refunded: 4000, refund_pending: 0 });
      expect(await owed(r, id)).toMatchObject({ refund_due: null, refund_next_at: null });
      expect(await retryOwedRefunds(shardDb(r.client.d1), c.stripe)).toEqual([]);
    } finally {
      await outage(r.account, false);
    }
    // Every try carried the same key; Stripe made one refund, which its event finds counted.
    const tries = (await requestsOn(r.account)).filter((q) => q.path === "/v1/refunds");
    expect(tries.length).toBeGreaterThanOrEqual(3);
    expect(new Set(tries.map((q) => q.idempotencyKey))).toEqual(
      new Set([`reservation-${id}-refund-on-close-4000`]),
    );
    // (the stand-in's record of events, this account's: other files' tests take events as they run)
    const { json: events } = await standin("/__standin/events");
    const refunded = (events as { type: string; account: string }[]).filter(
      (e) => e.type === "charge.refunded" && e.account === r.account,
    );
    expect(refunded).toHaveLength(1);
    await deliverEvents();
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history.filter((h: { action: string }) => h.action === "refund")).toHaveLength(1);
  });

  it("backs off 1, 2, 4... minutes, at most six hours", () => {
    const at = Date.parse("2030-01-01T00:00:00Z");
    const wait = (n: number) => (Date.parse(nextTry(n, at)) - at) / 60_000;
    expect([1, 2, 3, 4].map(wait)).toEqual([2, 4, 8, 16]);
    expect(wait(0)).toBe(1);
    expect(wait(30)).toBe(360);
  });
});

describe("money Stripe takes after its booking closed", () => {
  it("is owed back with the event's record: a Stripe failure leaves it to the cron, never lost to a replay", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const res = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "20:00",
      pax: 2,
      guest: GUEST,
    });
    expect(res.status, res.text).toBe(201);
    const step = (await r.guest.call(`/pay/${res.json.data[0].manage_token}`)).json.data[0];
    const id: number = step.reservation_id;
    // The guest pays; the restaurant cancels the PREPAY booking before Stripe's event arrives.
    await confirmInBrowser(step, CARDS.visa);
    const { json: taken } = await standin("/__standin/events/take", { method: "POST" });
    const paid = (taken as { type: string; payload: string; signature: string }[]).find(
      (e) =>
        e.type === "payment_intent.succeeded" &&
        JSON.parse(e.payload).data.object.id === step.client_secret.split("_secret_")[0],
    )!;
    expect(paid).toBeDefined();
    const cancelled = await r.client.call(`/api/v2/reservations/${id}`, { method: "DELETE" });
    expect(cancelled.status, cancelled.text).toBe(200);
    await outage(r.account, true);
    try {
      // The event, while Stripe's refunds are down: answered, the refund owed and its first try counted.
      expect((await postEvent(paid.payload, paid.signature)).status).toBe(200);
      const first = (await owed(r, id))!;
      expect(first).toMatchObject({ refund_due: 4000, refund_attempts: 1 });
      // the reservation says so: the money on its way back, in its history too
      const owing = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
      expect(owing.payment).toMatchObject({ refund_pending: 4000, amount_refunded: 0 });
      const said = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
      expect(said.filter((h: { action: string }) => h.action === "refund_owed")).toHaveLength(1);
      // Stripe sends it again (it got no 2xx elsewhere, or resends): a replay, still owed once.
      expect((await postEvent(paid.payload, paid.signature)).status).toBe(200);
      expect(await owed(r, id)).toMatchObject({ refund_due: 4000, refund_attempts: 1 });
      await outage(r.account, false);
      setClock(new Date(Date.parse(first.refund_next_at!) + 1000).toISOString());
      expect(await retryOwedRefunds(shardDb(r.client.d1), config(env).stripe)).toEqual([id]);
    } finally {
      await outage(r.account, false);
    }
    const done = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(done.status).toBe("CANCELLED");
    expect(done.payment).toMatchObject({ status: "refunded", amount_refunded: 4000, refund_pending: 0 });
    const refunds = (await requestsOn(r.account)).filter(
      (q) => q.path === "/v1/refunds" && q.params.payment_intent === step.client_secret.split("_secret_")[0],
    );
    expect(new Set(refunds.map((q) => q.idempotencyKey))).toEqual(
      new Set([`reservation-${id}-refund-on-close-4000`]),
    );
  });
});
