/**
 * The payments suites' set-up: a restaurant whose Stripe account (on the local stand-in,
 * scripts/stripe-standin/) finished onboarding, the stand-in's events handed to the Worker's
 * endpoint as Stripe would post them (the Worker under test has no address of its own), and the
 * browser's side of a payment (Stripe.js confirming with the publishable key and the client secret).
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { call } from "./helpers";
import { type SmallRestaurant, smallRestaurant } from "./public.fixtures";

export const STANDIN = env.STRIPE_API_BASE!;

export const CARDS = {
  visa: "4242424242424242",
  declined: "4000000000009995",
  threeDS: "4000002760003184",
};

export async function standin(path: string, init: RequestInit = {}) {
  const res = await fetch(`${STANDIN}${path}`, init);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Hands every event the stand-in made since the last call to the Worker, signed; answers the Worker's answers. */
export async function deliverEvents() {
  const { json: events } = await standin("/__standin/events/take", { method: "POST" });
  const out: { type: string; id: string; status: number; json: any }[] = [];
  for (const e of events as { id: string; type: string; payload: string; signature: string }[]) {
    const res = await postEvent(e.payload, e.signature);
    out.push({ type: e.type, id: e.id, status: res.status, json: res.json });
  }
  return out;
}

export function postEvent(payload: string, signature: string) {
  return call("/payments/stripe/events", {
    body: payload,
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
  });
}

/** What the guest's browser sends through Stripe.js: the card typed, confirmed with the publishable key and the client secret. */
export async function confirmInBrowser(
  pay: { client_secret: string; stripe_account: string; publishable_key: string; intent: string },
  card: string,
) {
  const id = pay.client_secret.split("_secret_")[0]!;
  const path = pay.intent === "setup" ? "setup_intents" : "payment_intents";
  const body = new URLSearchParams({
    key: pay.publishable_key,
    client_secret: pay.client_secret,
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": card,
    "payment_method_data[card][exp_month]": "12",
    "payment_method_data[card][exp_year]": "2034",
    "payment_method_data[card][cvc]": "123",
  });
  return standin(`/v1/${path}/${id}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "stripe-account": pay.stripe_account },
    body,
  });
}

/** The stand-in's record of the Worker's API calls on one connected account. */
export async function requestsOn(account: string) {
  const { json } = await standin("/__standin/requests");
  return (
    json as {
      account: string | null;
      path: string;
      method: string;
      idempotencyKey: string | null;
      params: any;
      publishable: boolean;
    }[]
  ).filter((r) => r.account === account && !r.publishable);
}

export interface PayingRestaurant extends SmallRestaurant {
  account: string;
}

/** A small restaurant (public.fixtures.ts) with its Stripe account connected, onboarded and able to take charges. */
export async function payingRestaurant(): Promise<PayingRestaurant> {
  const r = await smallRestaurant();
  const path = `/api/v2/properties/${r.client.propertyId}/payments/account`;
  const link = await r.client.call(path, { method: "POST", property: undefined });
  expect(link.status, link.text).toBe(200);
  const onboarded = await fetch(link.json.data[0].url, { redirect: "manual" });
  expect(onboarded.status).toBe(302);
  await deliverEvents();
  const account = await r.client.call(path, { property: undefined });
  expect(account.json.data[0]).toMatchObject({ charges_enabled: true, details_submitted: true });
  return { ...r, account: account.json.data[0].account_id };
}

/** Sets the service's payment policy. */
export async function setPolicy(r: SmallRestaurant, payment: Record<string, unknown> | null) {
  const res = await r.client.call(`/api/v2/services/${r.service.id}`, { method: "PUT", body: { payment } });
  expect(res.status, res.text).toBe(200);
  return res.json.data[0];
}
