// The local Stripe stand-in checked against Stripe's published OpenAPI description (the subset in
// shared/stripe-openapi.json, made by scripts/stripe-standin/openapi-subset.mjs from the commit it
// names): every call the Worker makes through the official SDK, with the Worker's own parameters
// (worker/payments/accounts.ts, intents.ts, money.ts, refunds.ts), and Stripe.js's confirmations,
// are sent to the stand-in; each request body must fit the operation's request schema, each answer
// its response schema (an error, Stripe's error body), and each event Stripe's event and object.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import Ajv from "ajv";
import Stripe from "stripe";
import { parseForm } from "../../scripts/stripe-standin/form.mjs";
import { startStripeStandin } from "../../scripts/stripe-standin/server.mjs";

/** OpenAPI 3.0's `nullable: true` in JSON Schema's words: the schema, or null. */
function nullables(node) {
  if (Array.isArray(node)) return node.map(nullables);
  if (!node || typeof node !== "object") return node;
  const { nullable, ...rest } = node;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, nullables(v)]));
  return nullable === true ? { anyOf: [out, { type: "null" }] } : out;
}

const spec = nullables(
  JSON.parse(readFileSync(new URL("../../shared/stripe-openapi.json", import.meta.url), "utf8")),
);
// Form bodies carry strings: "4000" is Stripe's integer, "true" its boolean.
const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: true, validateFormats: false });
ajv.addSchema(spec, "stripe");
const ref = (name) => ajv.getSchema(`stripe#/components/schemas/${name}`);

/** The operation of a recorded call: its path template in the spec, and the method. */
function operationOf(method, path) {
  for (const [template, ops] of Object.entries(spec.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    if (pattern.test(path) && ops[method]) return { template, op: ops[method] };
  }
  return undefined;
}

/** Whether `value` fits the schema at `pointer` of the operation (JSON Pointer in the spec); the errors if not. */
function check(pointer, value) {
  const validate = ajv.getSchema(`stripe#${pointer}`);
  assert.ok(validate, `no schema at ${pointer}`);
  const copy = structuredClone(value);
  return validate(copy) ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message}`);
}

const pointerEscape = (s) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * What of a request the public description covers. Stripe.js's own wire format is not in it: its
 * publishable `key`, and the card typed into the Payment Element's frame (raw card data the public
 * API refuses) ride in its confirm's body; they are left out. And `automatic_payment_methods` on a
 * SetupIntent came to Stripe's API after the newest spec3.json the snapshots hold (the SDK we ship
 * types it): left out too.
 */
function publicPart(c) {
  const { key: _key, payment_method_data: typed, ...body } = c.body;
  if (typed && !typed.card) body.payment_method_data = typed;
  if (c.path === "/v1/setup_intents") delete body.automatic_payment_methods;
  return body;
}

let standin;
let stripe;
let account;
/** every call made, as the network saw it */
const calls = [];

function recordingFetch(input, init = {}) {
  const url = new URL(typeof input === "string" ? input : input.url);
  return fetch(input, init).then(async (res) => {
    const text = await res.clone().text();
    calls.push({
      method: (init.method ?? "GET").toLowerCase(),
      path: url.pathname,
      body: init.body ? parseForm(String(init.body), "application/x-www-form-urlencoded") : {},
      status: res.status,
      answer: text ? JSON.parse(text) : undefined,
    });
    return res;
  });
}

before(async () => {
  standin = await startStripeStandin();
  const u = new URL(standin.url);
  stripe = new Stripe(standin.keys.secretKey, {
    host: u.hostname,
    port: Number(u.port),
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(recordingFetch),
    maxNetworkRetries: 0,
  });
});
after(() => standin.close());

const on = (key) => ({ stripeAccount: account, ...(key && { idempotencyKey: key }) });
const metadata = { reservation_id: "12", property_id: "3" };

/** What the browser's Stripe.js sends: the publishable key and the client secret, the card typed. */
async function confirmInBrowser(intent, card) {
  const kind = intent.id.startsWith("seti_") ? "setup_intents" : "payment_intents";
  const body = new URLSearchParams({
    key: standin.keys.publishableKey,
    client_secret: intent.client_secret,
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": card,
    "payment_method_data[card][exp_month]": "12",
    "payment_method_data[card][exp_year]": "2034",
    "payment_method_data[card][cvc]": "123",
  });
  await recordingFetch(`${standin.url}/v1/${kind}/${intent.id}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "stripe-account": account },
    body: body.toString(),
  });
}

describe("the Stripe stand-in against Stripe's OpenAPI description", () => {
  it("comes from a named commit of github.com/stripe/openapi", () => {
    assert.match(spec.source.commit, /^[0-9a-f]{40}$/);
    assert.equal(spec.source.path, "openapi/spec3.json");
  });

  it("answers the Worker's calls and Stripe.js's as the description says, to requests that fit it", async () => {
    // accounts.ts: the restaurant's account and its onboarding link
    account = (
      await stripe.accounts.create(
        { type: "standard", email: "owner@example.com", metadata: { property_id: "3" } },
        { idempotencyKey: "property-3-pk_1-account" },
      )
    ).id;
    const link = await stripe.accountLinks.create({
      account,
      type: "account_onboarding",
      refresh_url: "http://127.0.0.1/console/restaurant",
      return_url: "http://127.0.0.1/console/restaurant",
    });
    await fetch(link.url, { redirect: "manual" });
    await stripe.accounts.retrieve(account);
    // intents.ts: a deposit's PaymentIntent, declined, then paid; read back with its charge
    const pi = await stripe.paymentIntents.create(
      {
        amount: 4000,
        currency: "eur",
        automatic_payment_methods: { enabled: true },
        description: "Trattoria: reservation 12, 2030-05-04 19:00",
        metadata,
        application_fee_amount: 200,
        receipt_email: "guest@example.com",
      },
      on("reservation-12-payment-intent"),
    );
    await confirmInBrowser(pi, "4000000000009995");
    await confirmInBrowser(pi, "4242424242424242");
    await stripe.paymentIntents.retrieve(pi.id, { expand: ["latest_charge"] }, on());
    // money.ts and refunds.ts: part refunded by a manager, the rest owed by a cancellation
    await stripe.refunds.create(
      { payment_intent: pi.id, amount: 1500, metadata: { reservation_id: "12" } },
      on("reservation-12-refund-0-1500"),
    );
    await stripe.refunds.create(
      { payment_intent: pi.id, amount: 2500, metadata: { reservation_id: "12", reason: "booking closed" } },
      on("reservation-12-refund-on-close-2500"),
    );
    await stripe.refunds.create({ payment_intent: pi.id, amount: 1 }, on()).catch(() => undefined);
    // an unpaid intent cancelled when the window closes
    const unpaid = await stripe.paymentIntents.create(
      { amount: 2000, currency: "eur", automatic_payment_methods: { enabled: true }, metadata },
      on("reservation-13-payment-intent"),
    );
    await stripe.paymentIntents.cancel(
      unpaid.id,
      { cancellation_reason: "abandoned" },
      on("reservation-13-cancel-intent"),
    );
    // a guarantee: customer, SetupIntent through 3-D Secure, read back, then the no-show fee off session
    const customer = await stripe.customers.create(
      { email: "guest@example.com", name: "Ada Lovelace", metadata },
      on("reservation-14-customer"),
    );
    const si = await stripe.setupIntents.create(
      {
        customer: customer.id,
        usage: "off_session",
        automatic_payment_methods: { enabled: true },
        description: "Trattoria: reservation 14",
        metadata,
      },
      on("reservation-14-setup-intent"),
    );
    await confirmInBrowser(si, "4242424242424242");
    const saved = await stripe.setupIntents.retrieve(si.id, { expand: ["payment_method"] }, on());
    await stripe.paymentIntents.create(
      {
        amount: 5000,
        currency: "eur",
        customer: customer.id,
        payment_method: saved.payment_method.id,
        off_session: true,
        confirm: true,
        description: "No-show fee, reservation 14",
        metadata: { ...metadata, step: "no_show_fee" },
      },
      on("reservation-14-no-show-fee"),
    );
    const unsaved = await stripe.setupIntents.create({ customer: customer.id, usage: "off_session" }, on());
    await stripe.setupIntents.cancel(unsaved.id, {}, on());

    const problems = [];
    for (const c of calls) {
      if (c.path.startsWith("/connect/")) continue;
      const found = operationOf(c.method, c.path);
      if (!found) {
        problems.push(`${c.method} ${c.path}: not an operation of the description`);
        continue;
      }
      const at = `/paths/${pointerEscape(found.template)}/${c.method}`;
      const form = found.op.requestBody?.content?.["application/x-www-form-urlencoded"];
      if (form)
        problems.push(
          ...check(`${at}/requestBody/content/application~1x-www-form-urlencoded/schema`, publicPart(c)).map(
            (p) => `${c.method} ${c.path} request: ${p}`,
          ),
        );
      const response = c.status === 200 ? "200" : "default";
      problems.push(
        ...check(`${at}/responses/${response}/content/application~1json/schema`, c.answer).map(
          (p) => `${c.method} ${c.path} ${c.status}: ${p}`,
        ),
      );
    }
    assert.ok(
      calls.some((c) => c.status === 402),
      "a decline was answered",
    );
    assert.ok(calls.length >= 18, `${calls.length} calls`);
    assert.deepEqual(problems, []);
  });

  it("sends events that fit Stripe's event and the object each names", () => {
    const problems = [];
    const events = standin.events.list();
    const types = new Set(events.map((e) => e.type));
    for (const type of [
      "account.updated",
      "payment_intent.payment_failed",
      "payment_intent.succeeded",
      "charge.refunded",
      "payment_intent.canceled",
      "setup_intent.succeeded",
    ])
      assert.ok(types.has(type), `an event ${type}`);
    for (const e of events) {
      const body = JSON.parse(e.payload);
      const event = ref("event");
      if (!event(structuredClone(body))) problems.push(`${e.type}: ${ajv.errorsText(event.errors)}`);
      const object = ref(body.data.object.object);
      assert.ok(object, `a schema for ${body.data.object.object}`);
      if (!object(structuredClone(body.data.object)))
        problems.push(`${e.type} ${body.data.object.object}: ${ajv.errorsText(object.errors)}`);
    }
    assert.deepEqual(problems, []);
  });
});
