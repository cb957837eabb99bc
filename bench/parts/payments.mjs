// Part "payments": the two figures of paying through Stripe, on the local Stripe stand-in
// (scripts/stripe-standin/) that `npm start` and the tests use. A busy restaurant's Dinner asks a
// deposit; guests book it one after the other through the public API, open the pay step, and pay
// as Stripe.js would. Figures: the Stripe calls the Worker makes inside a booking's answer and
// inside the pay step's (the stand-in records every call; goal at most one each), and the time from
// Stripe's payment (the confirmation answered, its event posted to the Worker) to the
// reservation ACCEPTED with its RESERVATION_UPDATED webhook at a local receiver (goal p99 <= 1 s).
import { STANDIN_KEYS, startStripeStandin } from "../../scripts/stripe-standin/server.mjs";
import { startReceiver } from "../../tests/receiver.mjs";
import { call } from "./api.mjs";
import { percentile } from "./load.mjs";
import { addRestaurant, startPhase } from "./phase.mjs";
import { fmt, say } from "./report.mjs";
import * as seed from "./seed.mjs";

const BOOKINGS = Number(process.env.PAY_BENCH_BOOKINGS) || 60;
const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "EUR", refund_until: 1440 };
const HOURS = ["19:00", "19:30", "20:00", "20:30", "21:00", "21:30"];
export const PAYMENT_GOALS = { callsPerAnswer: 1, eventToWebhookP99Ms: 1000 };

/** Connects the restaurant's Stripe account on the stand-in (onboarded at once) and sets Dinner's deposit. */
async function payingRestaurant(phase) {
  const r = await addRestaurant(phase, "bench-payments");
  const as = (path, o = {}) => call(phase.url, `/api/v2${path}`, { token: r.owner.token, ...o });
  const pid = r.catalog.propertyId;
  const link = await as(`/properties/${pid}/payments/account`, { method: "POST", body: {} });
  await fetch(link.json.data[0].url, { redirect: "manual" });
  for (let i = 0; ; i++) {
    const account = await as(`/properties/${pid}/payments/account`);
    if (account.json.data[0].charges_enabled) break;
    if (i > 100) throw new Error("payments: the stand-in's account never took charges");
    await new Promise((done) => setTimeout(done, 100));
  }
  const dinner = r.catalog.services[2];
  await as(`/services/${dinner}`, { method: "PUT", property: pid, body: { payment: DEPOSIT } });
  const { public_key } = (await as(`/properties/${pid}`)).json.data[0];
  return { ...r, dinner, publicKey: public_key };
}

/** The Worker's own Stripe calls (not Stripe.js's) the stand-in recorded since `from`. */
const workerCalls = (standin, from) => standin.requests.slice(from).filter((q) => !q.publishable);

/** One guest's booking and pay step, each answer's Stripe calls counted; answers the pay step. */
async function bookAndOpen(phase, r, standin, n) {
  const date = seed.addDays(seed.today(), 2 + Math.floor(n / HOURS.length));
  const before = standin.requests.length;
  // each guest from an address of their own: the public API takes 10 writes a minute from one
  const res = await fetch(`${phase.url}/api/v2/public/${r.publicKey}/reservations`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": `10.77.${n >> 8}.${n & 255}` },
    body: JSON.stringify({
      service_id: r.dinner,
      date,
      hour: HOURS[n % HOURS.length],
      pax: 2,
      guest: { first_name: "Bench", last_name: `Payer ${n}`, email: `payer-${n}@bench.example` },
    }),
  });
  if (res.status !== 201) throw new Error(`payments: a booking answered ${res.status}: ${await res.text()}`);
  const booked = { json: await res.json() };
  const bookingCalls = workerCalls(standin, before).length;
  const token = booked.json.data[0].manage_token;
  const opened = standin.requests.length;
  const step = (await call(phase.url, `/api/v2/public/${r.publicKey}/pay/${token}`)).json.data[0];
  return { step, bookingCalls, payStepCalls: workerCalls(standin, opened).length };
}

/** Pays as Stripe.js would (the stand-in then posts payment_intent.succeeded); answers when Stripe answered. */
async function pay(standin, step) {
  const id = step.client_secret.split("_secret_")[0];
  const res = await fetch(`${standin.url}/v1/payment_intents/${id}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "stripe-account": step.stripe_account },
    body: new URLSearchParams({
      key: step.publishable_key,
      client_secret: step.client_secret,
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": "4242424242424242",
      "payment_method_data[card][exp_month]": "12",
      "payment_method_data[card][exp_year]": "2034",
      "payment_method_data[card][cvc]": "123",
    }),
  });
  const intent = await res.json();
  if (intent.status !== "succeeded")
    throw new Error(`payments: the stand-in answered ${JSON.stringify(intent)}`);
  return Date.now();
}

/** When the receiver got reservation `id`'s RESERVATION_UPDATED saying ACCEPTED (ms), waiting up to 10 s. */
async function acceptedAt(receiver, id) {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const hit = (receiver.hooks.get("pay")?.received ?? []).find((m) => {
      const body = JSON.parse(m.body);
      const r = body.data?.reservation ?? body.data ?? body.reservation;
      return r?.id === id && r?.status === "ACCEPTED";
    });
    if (hit) return hit.at;
    await new Promise((done) => setTimeout(done, 20));
  }
  return undefined;
}

export async function paymentsPart() {
  const standin = await startStripeStandin({});
  const phase = await startPhase("payments", {
    vars: {
      STRIPE_SECRET_KEY: STANDIN_KEYS.secretKey,
      STRIPE_PUBLISHABLE_KEY: STANDIN_KEYS.publishableKey,
      STRIPE_WEBHOOK_SECRET: STANDIN_KEYS.webhookSecret,
      STRIPE_API_BASE: standin.url,
      STRIPE_JS_URL: standin.jsUrl,
    },
  });
  standin.target(`${phase.url}/payments/stripe/events`);
  const receiver = await startReceiver();
  try {
    const r = await payingRestaurant(phase);
    await call(phase.url, "/api/v2/webhooks/subscription", {
      token: r.owner.token,
      property: r.catalog.propertyId,
      body: { endpoint: `${receiver.url}/hook/pay`, webhook_type: "RESERVATION_UPDATED" },
    });
    say(
      `payments: ${BOOKINGS} guests book Dinner (a deposit), open the pay step and pay, one after the other`,
    );
    const rows = [];
    for (let n = 0; n < BOOKINGS; n++) {
      const { step, bookingCalls, payStepCalls } = await bookAndOpen(phase, r, standin, n);
      const paidAt = await pay(standin, step);
      const heard = await acceptedAt(receiver, step.reservation_id);
      rows.push({ bookingCalls, payStepCalls, ms: heard === undefined ? undefined : heard - paidAt });
    }
    return summary(rows);
  } finally {
    await receiver.close?.();
    standin.server.closeAllConnections();
    await standin.close();
    await phase.stop();
  }
}

function summary(rows) {
  const times = rows
    .map((r) => r.ms)
    .filter((ms) => ms !== undefined)
    .sort((a, b) => a - b);
  const result = {
    bookings: rows.length,
    bookingCallsMax: Math.max(...rows.map((r) => r.bookingCalls)),
    payStepCallsMax: Math.max(...rows.map((r) => r.payStepCalls)),
    missed: rows.length - times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1),
  };
  const ok = (yes) => (yes ? "OK" : "ABOVE GOAL");
  console.log(
    [
      "",
      `  Stripe calls inside a booking's answer: at most ${result.bookingCallsMax} (goal <= ${PAYMENT_GOALS.callsPerAnswer})  ${ok(result.bookingCallsMax <= PAYMENT_GOALS.callsPerAnswer)}`,
      `  Stripe calls inside the pay step's answer: at most ${result.payStepCallsMax} (goal <= ${PAYMENT_GOALS.callsPerAnswer})  ${ok(result.payStepCallsMax <= PAYMENT_GOALS.callsPerAnswer)}`,
      `  Stripe's payment to ACCEPTED and its webhook at the receiver: p50 ${fmt(result.p50 / 1000, 3)} s, p99 ${fmt(result.p99 / 1000, 3)} s, max ${fmt(result.max / 1000, 3)} s over ${times.length} payments${result.missed ? ` (${result.missed} never heard within 10 s)` : ""} (goal p99 <= 1 s)  ${ok(!result.missed && result.p99 <= PAYMENT_GOALS.eventToWebhookP99Ms)}`,
    ].join("\n"),
  );
  return result;
}
