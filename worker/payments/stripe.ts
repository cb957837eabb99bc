/**
 * Every call to Stripe, through the official SDK on the Workers runtime (its fetch HTTP client and
 * SubtleCrypto provider). Money is taken on the restaurant's own connected account (direct charges:
 * `Stripe-Account`), each money step with an idempotency key made of the reservation and the step,
 * so a retried request never charges or refunds twice. Locally the SDK talks to the stand-in
 * (STRIPE_API_BASE, honoured only in development).
 */
import Stripe from "stripe";
import type { Config } from "../config";
import { ApiError } from "../errors";

export type { Stripe };
export type StripeConfig = Config["stripe"];

const clients = new Map<string, Stripe>();
const crypto = Stripe.createSubtleCryptoProvider();

/** The SDK for this Worker's keys (one per isolate); 503 when payments are not set up. */
export function stripeClient(c: StripeConfig): Stripe {
  if (!c.secretKey)
    throw new ApiError(
      "service_unavailable",
      "payments are not set up on this server (no STRIPE_SECRET_KEY)",
    );
  const id = `${c.secretKey} ${c.apiBase ?? ""}`;
  let client = clients.get(id);
  if (!client) {
    const base = c.apiBase ? new URL(c.apiBase) : undefined;
    client = new Stripe(c.secretKey, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 1,
      timeout: 15_000,
      ...(base && {
        host: base.hostname,
        port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
        protocol: base.protocol === "https:" ? "https" : "http",
      }),
    });
    clients.set(id, client);
  }
  return client;
}

/** An event Stripe signed (Stripe-Signature), or null when the signature does not verify. */
export async function verifiedEvent(
  c: StripeConfig,
  payload: string,
  signature: string | undefined,
): Promise<Stripe.Event | null> {
  if (!c.webhookSecret || !signature) return null;
  try {
    return await stripeClient(c).webhooks.constructEventAsync(
      payload,
      signature,
      c.webhookSecret,
      undefined,
      crypto,
    );
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) return null;
    throw err;
  }
}

/** The idempotency key of one money step of one reservation ("reservation-12-refund-2"). */
export const stepKey = (reservationId: number, step: string) => `reservation-${reservationId}-${step}`;

/**
 * Stripe's refusal as the API's problem: a card declined is the guest's or the staff's to know
 * (402, Stripe's own words); anything else is Stripe's side (502), its message kept from the answer.
 */
export function providerError(err: unknown): ApiError {
  if (err instanceof Stripe.errors.StripeCardError)
    return new ApiError("payment_declined", err.message ?? "the card was declined");
  if (err instanceof Stripe.errors.StripeError)
    return new ApiError("payment_provider_error", `Stripe refused the request: ${err.message}`);
  return new ApiError("payment_provider_error", "Stripe could not be reached; try again");
}

/** Runs a Stripe call, its failures as the API's problems. */
export async function atStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw providerError(err);
  }
}
