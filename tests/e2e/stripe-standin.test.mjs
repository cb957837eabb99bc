// The local Stripe stand-in (scripts/stripe-standin/) as the Worker and Stripe.js use it: the
// official SDK's calls on a connected account, idempotency, the test cards and payment methods,
// 3-D Secure, refunds, onboarding links, and events signed so that the SDK's own check accepts them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Stripe from "stripe";
import { startStripeStandin } from "../../scripts/stripe-standin/server.mjs";

let standin;
let stripe;
let account;

before(async () => {
  standin = await startStripeStandin();
  const u = new URL(standin.url);
  stripe = new Stripe(standin.keys.secretKey, {
    host: u.hostname,
    port: Number(u.port),
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 0,
  });
  account = (await stripe.accounts.create({ type: "standard", country: "IT" })).id;
});
after(() => standin.close());

const on = (extra = {}) => ({ stripeAccount: account, ...extra });
const intent = (amount = 4000) =>
  stripe.paymentIntents.create(
    {
      amount,
      currency: "eur",
      metadata: { reservation_id: "7" },
      automatic_payment_methods: { enabled: true },
    },
    on(),
  );

describe("the Stripe stand-in", () => {
  it("completes a connected account's onboarding link at once and says so in account.updated", async () => {
    const link = await stripe.accountLinks.create({
      account,
      refresh_url: "http://127.0.0.1/refresh",
      return_url: "http://127.0.0.1/back",
      type: "account_onboarding",
    });
    assert.ok(link.expires_at > Date.now() / 1000);
    const res = await fetch(link.url, { redirect: "manual" });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "http://127.0.0.1/back");
    const after = await stripe.accounts.retrieve(account);
    assert.equal(after.charges_enabled, true);
    assert.equal(after.details_submitted, true);
    const updated = standin.events.list().find((e) => e.type === "account.updated");
    assert.equal(updated.account, account);
  });

  it("keeps an intent to its connected account", async () => {
    const pi = await intent();
    await assert.rejects(stripe.paymentIntents.retrieve(pi.id), /No such payment_intent/);
    assert.equal((await stripe.paymentIntents.retrieve(pi.id, {}, on())).id, pi.id);
  });

  it("replays an idempotent create and refuses the key with other parameters", async () => {
    const params = { amount: 5000, currency: "eur", metadata: { reservation_id: "9" } };
    const a = await stripe.paymentIntents.create(params, on({ idempotencyKey: "reservation-9-intent" }));
    const b = await stripe.paymentIntents.create(params, on({ idempotencyKey: "reservation-9-intent" }));
    assert.equal(a.id, b.id);
    await assert.rejects(
      stripe.paymentIntents.create(
        { ...params, amount: 6000 },
        on({ idempotencyKey: "reservation-9-intent" }),
      ),
      (err) => err.type === "StripeIdempotencyError",
    );
  });

  it("declines pm_card_chargeDeclined, then takes pm_card_visa on the same intent", async () => {
    const pi = await intent();
    await assert.rejects(
      stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_chargeDeclined" }, on()),
      (err) => err.type === "StripeCardError" && err.code === "card_declined",
    );
    const paid = await stripe.paymentIntents.confirm(
      pi.id,
      { payment_method: "pm_card_visa", expand: ["latest_charge"] },
      on(),
    );
    assert.equal(paid.status, "succeeded");
    assert.deepEqual(paid.latest_charge.payment_method_details.card, { brand: "visa", last4: "4242" });
  });

  it("asks for 3-D Secure on session and refuses it off session", async () => {
    const pi = await intent();
    const asked = await stripe.paymentIntents.confirm(
      pi.id,
      { payment_method: "pm_card_threeDSecure2Required" },
      on(),
    );
    assert.equal(asked.status, "requires_action");
    const res = await fetch(`${standin.url}/__standin/3ds/${pi.id}`, {
      method: "POST",
      body: JSON.stringify({ client_secret: pi.client_secret, outcome: "complete" }),
    });
    assert.equal((await res.json()).status, "succeeded");
    await assert.rejects(
      stripe.paymentIntents.create(
        {
          amount: 3000,
          currency: "eur",
          payment_method: "pm_card_threeDSecure2Required",
          confirm: true,
          off_session: true,
        },
        on(),
      ),
      (err) => err.code === "authentication_required",
    );
  });

  it("lets the publishable key read and confirm an intent with its client secret only", async () => {
    const pi = await intent();
    const read = (secret) =>
      fetch(
        `${standin.url}/v1/payment_intents/${pi.id}?key=${standin.keys.publishableKey}&client_secret=${secret}`,
        {
          headers: { "stripe-account": account },
        },
      );
    assert.equal((await read(pi.client_secret)).status, 200);
    assert.equal((await read(`${pi.id}_secret_wrong`)).status, 404);
    const cancel = await fetch(`${standin.url}/v1/payment_intents/${pi.id}/cancel`, {
      method: "POST",
      headers: { "stripe-account": account, authorization: `Bearer ${standin.keys.publishableKey}` },
    });
    assert.equal(cancel.status, 404);
  });

  it("saves a card with a SetupIntent and charges it off session later", async () => {
    const customer = await stripe.customers.create({ email: "guest@example.com" }, on());
    const si = await stripe.setupIntents.create(
      { customer: customer.id, usage: "off_session", payment_method_types: ["card"] },
      on(),
    );
    const saved = await stripe.setupIntents.confirm(si.id, { payment_method: "pm_card_visa" }, on());
    assert.equal(saved.status, "succeeded");
    const fee = await stripe.paymentIntents.create(
      {
        amount: 2500,
        currency: "eur",
        customer: customer.id,
        payment_method: saved.payment_method,
        confirm: true,
        off_session: true,
      },
      on({ idempotencyKey: "reservation-12-no-show-fee" }),
    );
    assert.equal(fee.status, "succeeded");
  });

  it("refunds in part, then the rest, and no more", async () => {
    const pi = await intent(4000);
    await stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa" }, on());
    assert.equal((await stripe.refunds.create({ payment_intent: pi.id, amount: 1500 }, on())).amount, 1500);
    assert.equal((await stripe.refunds.create({ payment_intent: pi.id }, on())).amount, 2500);
    await assert.rejects(
      stripe.refunds.create({ payment_intent: pi.id, amount: 1 }, on()),
      /greater than unrefunded/,
    );
    const refunded = standin.events
      .list()
      .filter((e) => e.type === "charge.refunded")
      .at(-1);
    assert.equal(JSON.parse(refunded.payload).data.object.amount_refunded, 4000);
  });

  it("signs its events so that the SDK's check accepts them, and a forged one fails it", async () => {
    const [event] = standin.events.take();
    const verified = await stripe.webhooks.constructEventAsync(
      event.payload,
      event.signature,
      standin.keys.webhookSecret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    assert.equal(verified.id, event.id);
    await assert.rejects(
      stripe.webhooks.constructEventAsync(
        event.payload.replace('"livemode":false', '"livemode":true'),
        event.signature,
        standin.keys.webhookSecret,
        undefined,
        Stripe.createSubtleCryptoProvider(),
      ),
      /No signatures found matching/,
    );
  });
});
