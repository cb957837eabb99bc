/**
 * Payments in the browser suites: the shared Worker runs with the local Stripe stand-in
 * (tests/support/shared-worker.mjs; its address is `env.stripe`), which posts its signed events to
 * the Worker as Stripe would. These helpers connect the file's restaurant's Stripe account, set a
 * service's policy, and pay as the guest's Stripe.js would (the card confirmed with the publishable
 * key and the client secret), for the tests whose subject is not the card form itself.
 */
import { env, restaurant, staff } from "./env.js";

export const CARDS = {
  visa: "4242424242424242",
  declined: "4000000000009995",
  threeDS: "4000002760003184",
};

export const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "EUR", refund_until: 1440 };

const accountPath = () => `properties/${restaurant().propertyId}/payments/account`;

/** The restaurant's Stripe account as the Worker knows it (undefined: none connected). */
export async function account() {
  const res = await staff(accountPath());
  return res.status === 200
    ? (res.body.data[0] as { account_id: string; charges_enabled: boolean })
    : undefined;
}

/** Connects the file's restaurant's Stripe account and finishes its onboarding. */
export async function connectStripe() {
  const link = await staff(accountPath(), { method: "POST", body: {} });
  if (link.status !== 200) throw new Error(`onboarding link: ${link.status} ${JSON.stringify(link.body)}`);
  await onboard(link.body.data[0].url);
}

/** Follows a Stripe onboarding link (the stand-in completes onboarding at once) until the Worker has Stripe's event. */
export async function onboard(url: string) {
  await fetch(url, { mode: "no-cors" });
  for (let i = 0; i < 100 && !(await account())?.charges_enabled; i++)
    await new Promise((r) => setTimeout(r, 100));
  if (!(await account())?.charges_enabled) throw new Error("the Stripe account cannot take charges");
}

/** Sets a service's payment policy through the integrator API. */
export async function setPolicy(serviceId: number, payment: Record<string, unknown> | null) {
  const res = await staff(`services/${serviceId}`, { method: "PUT", body: { payment } });
  if (res.status !== 200) throw new Error(`policy: ${res.status} ${JSON.stringify(res.body)}`);
}

export interface PayStep {
  reservation_id: number;
  client_secret: string;
  publishable_key: string;
  stripe_account: string;
  intent?: string;
}

/** The guest's pay step (the public route, from another address). */
export async function payStep(token: string): Promise<PayStep> {
  const res = await fetch(`/other-guest/${restaurant().publicKey}/pay/${token}`);
  if (res.status !== 200) throw new Error(`pay step: ${res.status} ${await res.text()}`);
  return (await res.json()).data[0];
}

/** What Stripe.js sends when the guest confirms a card; answers the stand-in's status and body. */
export async function confirmCard(step: PayStep, card: string) {
  const id = step.client_secret.split("_secret_")[0]!;
  const path = id.startsWith("seti_") ? "setup_intents" : "payment_intents";
  const res = await fetch(`${env.stripe}/v1/${path}/${id}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "stripe-account": step.stripe_account },
    body: new URLSearchParams({
      key: step.publishable_key,
      client_secret: step.client_secret,
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": card,
      "payment_method_data[card][exp_month]": "12",
      "payment_method_data[card][exp_year]": "2034",
      "payment_method_data[card][cvc]": "123",
    }),
  });
  return { status: res.status, body: await res.json() };
}

/** The stand-in's 3-D Secure challenge answered (`complete` or `fail`), as the guest would in its frame. */
export async function answerChallenge(step: PayStep, outcome: "complete" | "fail") {
  const id = step.client_secret.split("_secret_")[0]!;
  const res = await fetch(`${env.stripe}/__standin/3ds/${id}`, {
    method: "POST",
    body: JSON.stringify({ client_secret: step.client_secret, outcome }),
  });
  if (res.status !== 200) throw new Error(`3-D Secure: ${res.status} ${await res.text()}`);
}

/** The reservation as the staff reads it, once `check` holds (Stripe's event reaches the Worker on its own). */
export async function reservationWhen(id: number, check: (r: any) => boolean) {
  let last: any;
  for (let i = 0; i < 150; i++) {
    last = (await staff(`reservations/${id}`)).body.data?.[0];
    if (last && check(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`reservation ${id} never got there: ${JSON.stringify(last?.payment)}`);
}
