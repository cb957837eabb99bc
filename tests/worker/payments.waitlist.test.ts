/**
 * The waiting list and payments: a waiting party given a table of a service that asks its size to
 * pay is ACCEPTED owing the payment (its window, its pay link emailed), paid from the pay step
 * (staying ACCEPTED, then confirmed), or expired unpaid by the cron; a PREPAY booking staff accept
 * by hand is let off its payment.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { config } from "../../worker/config";
import { expireUnpaidPayments } from "../../worker/payments/expiry";
import { shardDb } from "../../worker/shards/shards";
import { expectProblem, unique } from "./helpers";
import { captureMail, mailsTo, messagesOf } from "./messages.helpers";
import {
  CARDS,
  confirmInBrowser,
  deliverEvents,
  type PayingRestaurant,
  payingRestaurant,
  setPolicy,
} from "./payments.helpers";

let capture: ReturnType<typeof captureMail> | undefined;
afterEach(() => {
  capture?.stop();
  capture = undefined;
});

const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "EUR", refund_until: 1440 };

async function waiting(r: PayingRestaurant, email: string): Promise<number> {
  const res = await r.client.call("/api/v2/reservations", {
    body: {
      start_date: r.date,
      start_hour: "19:00:00",
      pax: 2,
      service_id: r.service.id,
      waiting_list: true,
      customer: { first_name: "Grace", last_name: "Hopper", email },
    },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.json.data[0].status).toBe("WAITING");
  expect(res.json.data[0].payment).toBeNull();
  return res.json.data[0].id;
}

const accept = (r: PayingRestaurant, id: number) =>
  r.client.call(`/api/v2/reservations/${id}/status?status=ACCEPTED`, { method: "PATCH" });

const read = async (r: PayingRestaurant, id: number) =>
  (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];

describe("a waiting party given a table of a service that asks it to pay", () => {
  it("is ACCEPTED owing the payment, gets the pay link, and once paid stays ACCEPTED and is confirmed", async () => {
    capture = captureMail();
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const email = `${unique("waiter")}@example.com`;
    const id = await waiting(r, email);
    const accepted = await accept(r, id);
    expect(accepted.status, accepted.text).toBe(200);
    const owing = await read(r, id);
    expect(owing.status).toBe("ACCEPTED");
    expect(owing.payment).toMatchObject({ mode: "deposit", amount: 4000, status: "requires_payment" });
    expect(Date.parse(owing.payment_due_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const token = owing.payment.pay_url.split("/pay/")[1];
    const [, due] = await mailsTo(capture, email, 2);
    expect(due!.text).toContain(owing.payment.pay_url);

    const step = (await r.guest.call(`/pay/${token}`)).json.data[0];
    expect(step).toMatchObject({ reservation_id: id, amount: 4000 });
    await confirmInBrowser(step, CARDS.visa);
    await deliverEvents();
    const paid = await read(r, id);
    expect(paid).toMatchObject({ status: "ACCEPTED", payment: { status: "paid", pay_url: null } });
    expect(paid.payment_due_at).toBeUndefined();
    expectProblem(await r.guest.call(`/pay/${token}`), 404);
    await mailsTo(capture, email, 3);
    const guest = (await messagesOf(r.client, id)).filter((m) => m.recipient === "guest");
    expect(guest.map((m) => m.template)).toEqual(["waiting", "payment_due", "confirmation", "reminder"]);
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history.at(-1)).toMatchObject({
      action: "payment_paid",
      from_status: "ACCEPTED",
      to_status: "ACCEPTED",
    });
  });

  it("expires unpaid when its window closes, and frees the table", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const id = await waiting(r, `${unique("late")}@example.com`);
    expect((await accept(r, id)).status).toBe(200);
    await r.client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(id)
      .run();
    const c = config(env);
    expect(
      await expireUnpaidPayments(shardDb(r.client.d1), c.stripe, { linkSecret: c.linkSecret }),
    ).toContain(id);
    expect(await read(r, id)).toMatchObject({
      status: "EXPIRED",
      status_reason: "unpaid",
      payment: { status: "canceled" },
    });
  });

  it("asks nothing of a party smaller than the policy's from_pax", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, { ...DEPOSIT, from_pax: 3 });
    const id = await waiting(r, `${unique("small")}@example.com`);
    expect((await accept(r, id)).status).toBe(200);
    expect(await read(r, id)).toMatchObject({ status: "ACCEPTED", payment: null });
  });
});

describe("a PREPAY booking staff accept by hand", () => {
  it("is let off its payment: nothing owed, no pay step, nothing for the cron to expire", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const res = await r.client.call("/api/v2/reservations", {
      body: {
        start_date: r.date,
        start_hour: "19:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", email: `${unique("byhand")}@example.com` },
      },
    });
    const id = res.json.data[0].id;
    const token = (await read(r, id)).payment.pay_url.split("/pay/")[1];
    expect((await accept(r, id)).status).toBe(200);
    const after = await read(r, id);
    expect(after).toMatchObject({ status: "ACCEPTED", payment: { status: "canceled", pay_url: null } });
    expectProblem(await r.guest.call(`/pay/${token}`), 404);
  });
});
