/**
 * Paying through Stripe (the local stand-in): the restaurant's account, a service's policy, the
 * guest's payment step, Stripe's events (once, in any order, signed), the cron that asks Stripe
 * before expiring, refunds and the guarantee's no-show fee.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { config } from "../../worker/config";
import { expireUnpaidPayments } from "../../worker/payments/expiry";
import { shardDb } from "../../worker/shards/shards";
import { expectProblem } from "./helpers";
import {
  CARDS,
  confirmInBrowser,
  deliverEvents,
  payingRestaurant,
  postEvent,
  requestsOn,
  setPolicy,
  standin,
} from "./payments.helpers";
import { GUEST, smallRestaurant } from "./public.fixtures";

const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "eur", refund_until: 1440 };

async function bookOnline(r: Awaited<ReturnType<typeof payingRestaurant>>, hour = "19:00") {
  const res = await r.guest.book({ service_id: r.service.id, date: r.date, hour, pax: 2, guest: GUEST });
  expect(res.status, res.text).toBe(201);
  return res.json.data[0];
}

async function reservationOf(r: Awaited<ReturnType<typeof payingRestaurant>>, token: string) {
  const mine = await r.guest.call(`/manage/${token}`);
  expect(mine.status, mine.text).toBe(200);
  return mine.json.data[0];
}

describe("a restaurant's Stripe account", () => {
  it("is made on the first call, onboarded through Stripe's link, and kept current by account.updated", async () => {
    const r = await smallRestaurant();
    const path = `/api/v2/properties/${r.client.propertyId}/payments/account`;
    expectProblem(await r.client.call(path, { property: undefined }), 404);
    const first = await r.client.call(path, { method: "POST", property: undefined });
    expect(first.status, first.text).toBe(200);
    expect(first.json.data[0].url).toMatch(/\/connect\/onboard\/acct_/);
    const before = await r.client.call(path, { property: undefined });
    expect(before.json.data[0]).toMatchObject({ charges_enabled: false, details_submitted: false });
    // A paying policy is refused while the account cannot charge, naming the field.
    const refused = await r.client.call(`/api/v2/services/${r.service.id}`, {
      method: "PUT",
      body: { payment: DEPOSIT },
    });
    expectProblem(refused, 400, "invalid input data");
    expect(refused.json.errors[0].path).toBe("payment");
    const again = await r.client.call(path, { method: "POST", property: undefined });
    expect(again.json.data[0].url.split("?")[0]).toBe(first.json.data[0].url.split("?")[0]);
    await fetch(first.json.data[0].url, { redirect: "manual" });
    const delivered = await deliverEvents();
    expect(delivered.find((e) => e.type === "account.updated")?.json).toMatchObject({ applied: true });
    const after = await r.client.call(path, { property: undefined });
    expect(after.json.data[0]).toMatchObject({
      charges_enabled: true,
      details_submitted: true,
      default_currency: "EUR",
    });
    const service = await setPolicy(r, DEPOSIT);
    expect(service.payment).toEqual({ ...DEPOSIT, currency: "EUR", from_pax: 1, no_show_fee: null });
  });
});

describe("a guest paying a deposit online", () => {
  it("starts PREPAY, pays after a decline, and becomes ACCEPTED with the card shown", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const booking = await bookOnline(r);
    expect(booking.status).toBe("PREPAY");
    expect(booking.payment).toMatchObject({
      mode: "deposit",
      amount: 4000,
      currency: "EUR",
      status: "requires_payment",
    });
    const due = Date.parse(booking.payment.due_at);
    expect(due - Date.now()).toBeGreaterThan(10 * 60_000);
    expect(due - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const pay = await r.guest.call(`/pay/${booking.manage_token}`);
    expect(pay.status, pay.text).toBe(200);
    const step = pay.json.data[0];
    expect(step).toMatchObject({
      amount: 4000,
      currency: "EUR",
      intent: "payment",
      stripe_account: r.account,
    });
    expect(step.publishable_key).toMatch(/^pk_test_/);
    expect(step.client_secret).toMatch(/^pi_\w+_secret_/);
    // Made once: a second visit reads the same intent.
    const again = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    expect(again.client_secret).toBe(step.client_secret);
    const made = (await requestsOn(r.account)).filter(
      (q) => q.method === "POST" && q.path === "/v1/payment_intents",
    );
    expect(made).toHaveLength(1);
    expect(made[0]!.params).toMatchObject({ amount: "4000", currency: "eur" });
    expect(made[0]!.idempotencyKey).toMatch(/^reservation-\d+-payment-intent$/);

    const declined = await confirmInBrowser(step, CARDS.declined);
    expect(declined.status).toBe(402);
    await deliverEvents();
    const failed = await reservationOf(r, booking.manage_token);
    expect(failed.status).toBe("PREPAY");
    expect(failed.payment.status).toBe("failed");

    expect((await confirmInBrowser(step, CARDS.visa)).json.status).toBe("succeeded");
    await deliverEvents();
    const paid = await reservationOf(r, booking.manage_token);
    expect(paid.status).toBe("ACCEPTED");
    expect(paid.payment).toMatchObject({
      status: "paid",
      card: { brand: "visa", last4: "4242" },
      due_at: null,
    });
    expectProblem(await r.guest.call(`/pay/${booking.manage_token}`), 404);

    const id = step.reservation_id;
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history.at(-1)).toMatchObject({
      actor: "stripe",
      action: "payment_paid",
      from_status: "PREPAY",
      to_status: "ACCEPTED",
    });
    const api = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(api.payment).toMatchObject({ status: "paid", amount: 4000, pay_url: null });
    expect(JSON.stringify(api)).not.toMatch(/secret|4000000000009995|4242424242424242/);
  });

  it("applies each event once: a replay and a forged signature change nothing", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const booking = await bookOnline(r);
    const step = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    await confirmInBrowser(step, CARDS.visa);
    const events = (await standin("/__standin/events/take", { method: "POST" })).json as {
      type: string;
      payload: string;
      signature: string;
    }[];
    const succeeded = events.find((e) => e.type === "payment_intent.succeeded")!;
    const forged = await postEvent(
      succeeded.payload.replace(/"amount":4000/, '"amount":1'),
      succeeded.signature,
    );
    expectProblem(forged, 400);
    expect((await reservationOf(r, booking.manage_token)).status).toBe("PREPAY");
    expect((await postEvent(succeeded.payload, succeeded.signature)).json).toMatchObject({ applied: true });
    const entries = (await r.client.call(`/api/v2/reservations/${step.reservation_id}/history`)).json.data
      .length;
    const replay = await postEvent(succeeded.payload, succeeded.signature);
    expect(replay.status).toBe(200);
    expect(replay.json.applied).toBe(false);
    expect(
      (await r.client.call(`/api/v2/reservations/${step.reservation_id}/history`)).json.data,
    ).toHaveLength(entries);
    // An event of a type not used is answered 200 and left.
    const created = events.find((e) => e.type === "payment_intent.created")!;
    expect((await postEvent(created.payload, created.signature)).json).toMatchObject({ applied: false });
  });
});

describe("a booking made by staff or an integrator", () => {
  it("waits 24 hours for its payment and carries its pay link", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, { ...DEPOSIT, per: "booking", amount: 5000 });
    const res = await r.client.call("/api/v2/reservations", {
      body: {
        start_date: r.date,
        start_hour: "19:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
      },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data[0].id;
    const got = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(got.status).toBe("PREPAY");
    expect(got.payment).toMatchObject({ amount: 5000, status: "requires_payment" });
    expect(got.payment.pay_url).toMatch(new RegExp(`/p/${r.publicKey}/pay/[\\w-]{40,}$`));
    expect(Date.parse(got.payment_due_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
  });
});

describe("the cron's expiry of unpaid bookings", () => {
  it("asks Stripe first: a paid booking whose event was lost is accepted, an unpaid one expires and its intent is cancelled", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const paid = await bookOnline(r, "19:00");
    const unpaid = await bookOnline(r, "20:00");
    const paidStep = (await r.guest.call(`/pay/${paid.manage_token}`)).json.data[0];
    const unpaidStep = (await r.guest.call(`/pay/${unpaid.manage_token}`)).json.data[0];
    await confirmInBrowser(paidStep, CARDS.visa);
    await standin("/__standin/events/take", { method: "POST" }); // lost
    await r.client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2000-01-01T00:00:00.000Z' WHERE id IN (?, ?)")
      .bind(paidStep.reservation_id, unpaidStep.reservation_id)
      .run();
    const expired = await expireUnpaidPayments(shardDb(r.client.d1), config(env).stripe, {
      linkSecret: config(env).linkSecret,
    });
    expect(expired).toContain(unpaidStep.reservation_id);
    expect(expired).not.toContain(paidStep.reservation_id);
    expect((await reservationOf(r, paid.manage_token)).status).toBe("ACCEPTED");
    const gone = await reservationOf(r, unpaid.manage_token);
    expect(gone).toMatchObject({ status: "EXPIRED", payment: { status: "canceled" } });
    const api = (await r.client.call(`/api/v2/reservations/${unpaidStep.reservation_id}`)).json.data[0];
    expect(api.status_reason).toBe("unpaid");
    const cancelled = (await requestsOn(r.account)).filter((q) => q.path.endsWith("/cancel"));
    expect(cancelled.map((q) => q.path)).toEqual([
      `/v1/payment_intents/${unpaidStep.client_secret.split("_secret_")[0]}/cancel`,
    ]);
    // The table is free again.
    expect((await bookOnline(r, "20:00")).status).toBe("PREPAY");
  });
});

describe("refunds", () => {
  it("refunds part, then the rest, each step in the history with its actor; nothing more after", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const booking = await bookOnline(r);
    const step = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    await confirmInBrowser(step, CARDS.visa);
    await deliverEvents();
    const path = `/api/v2/reservations/${step.reservation_id}/payment/refund`;
    const part = await r.client.call(path, { body: { amount: 1500 } });
    expect(part.status, part.text).toBe(200);
    expect(part.json.data[0].payment).toMatchObject({ status: "partially_refunded", amount_refunded: 1500 });
    expectInvalidAmount(await r.client.call(path, { body: { amount: 9999 } }));
    const rest = await r.client.call(path, { body: {} });
    expect(rest.json.data[0].payment).toMatchObject({ status: "refunded", amount_refunded: 4000 });
    expectProblem(await r.client.call(path, { body: {} }), 409, "payment not available");
    // Stripe's charge.refunded events find the refunds counted already.
    const events = await deliverEvents();
    expect(events.filter((e) => e.type === "charge.refunded").every((e) => e.json.applied === false)).toBe(
      true,
    );
    const history = (await r.client.call(`/api/v2/reservations/${step.reservation_id}/history`)).json.data;
    const refunds = history.filter((h: { action: string }) => h.action === "refund");
    expect(refunds).toHaveLength(2);
    expect(refunds[0].actor).toBe(`client:${r.client.id}`);
    const keys = (await requestsOn(r.account))
      .filter((q) => q.path === "/v1/refunds")
      .map((q) => q.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
  });

  it("gives a guest who cancels before the refund deadline their deposit back", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const booking = await bookOnline(r);
    const step = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    await confirmInBrowser(step, CARDS.visa);
    await deliverEvents();
    const cancelled = await r.guest.call(`/manage/${booking.manage_token}`, { method: "DELETE" });
    expect(cancelled.status, cancelled.text).toBe(200);
    let payment: any;
    for (let i = 0; i < 50 && payment?.status !== "refunded"; i++) {
      await new Promise((done) => setTimeout(done, 100));
      payment = (await reservationOf(r, booking.manage_token)).payment;
    }
    expect(payment).toMatchObject({ status: "refunded", amount_refunded: 4000 });
  });
});

describe("a guarantee", () => {
  it("saves the card (ACCEPTED), charges the no-show fee once, off session", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, {
      mode: "guarantee",
      amount: 0,
      currency: "EUR",
      no_show_fee: 2500,
      refund_until: 120,
    });
    const booking = await bookOnline(r);
    expect(booking.payment).toMatchObject({ mode: "guarantee", amount: 0, no_show_fee: 5000 });
    const step = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    expect(step.intent).toBe("setup");
    expect((await confirmInBrowser(step, CARDS.visa)).json.status).toBe("succeeded");
    await deliverEvents();
    const saved = await reservationOf(r, booking.manage_token);
    expect(saved).toMatchObject({
      status: "ACCEPTED",
      payment: { status: "card_saved", card: { last4: "4242" } },
    });
    const fee = `/api/v2/reservations/${step.reservation_id}/payment/no-show-fee`;
    const charged = await r.client.call(fee, { method: "POST" });
    expect(charged.status, charged.text).toBe(200);
    expect(charged.json.data[0].payment).toMatchObject({ status: "no_show_charged", no_show_charged: 5000 });
    expectProblem(await r.client.call(fee, { method: "POST" }), 409, "payment not available");
    const offSession = (await requestsOn(r.account)).filter((q) => q.params?.off_session === "true");
    expect(offSession).toHaveLength(1);
    expect(offSession[0]!.idempotencyKey).toBe(`reservation-${step.reservation_id}-no-show-fee`);
  });

  it("says a declined no-show fee (402) on the reservation and does not retry it", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, { mode: "guarantee", amount: 0, currency: "EUR", no_show_fee: 2500 });
    const booking = await bookOnline(r);
    const step = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    await confirmInBrowser(step, CARDS.threeDS);
    await standin(`/__standin/3ds/${step.client_secret.split("_secret_")[0]}`, {
      method: "POST",
      body: JSON.stringify({ client_secret: step.client_secret, outcome: "complete" }),
    });
    await deliverEvents();
    const res = await r.client.call(`/api/v2/reservations/${step.reservation_id}/payment/no-show-fee`, {
      method: "POST",
    });
    expectProblem(res, 402, "payment declined");
    const after = (await r.client.call(`/api/v2/reservations/${step.reservation_id}`)).json.data[0];
    expect(after.payment).toMatchObject({ status: "card_saved", no_show_charged: null });
    expect(after.payment.failure).toMatch(/authentication/);
  });
});

function expectInvalidAmount(res: { status: number; headers: Headers; json: any }) {
  expectProblem(res, 400, "invalid input data");
  expect(res.json.errors[0].path).toBe("amount");
}
