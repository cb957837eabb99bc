/** POST /payments/stripe/events: where Stripe sends its events (register it in Stripe's dashboard, docs/payments.md). */
import { createRoute, z } from "@hono/zod-openapi";
import { config } from "../config";
import { ApiError } from "../errors";
import { errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { applyEvent } from "./events";
import { verifiedEvent } from "./stripe";

// Not rate-limited: Stripe posts from its own addresses, and a forged event costs one signature check.
const { 429: _notLimited, ...problems } = errorResponses(
  "invalid_request",
  "payment_provider_error",
  "service_unavailable",
);

const eventsRoute = createRoute({
  method: "post",
  path: "/payments/stripe/events",
  tags: ["Payments"],
  summary: "Stripe's events",
  description:
    "For Stripe only: each event's `Stripe-Signature` must verify against the endpoint's signing secret (else 400). Used: " +
    "payment_intent.succeeded, payment_intent.payment_failed, payment_intent.canceled, setup_intent.succeeded, " +
    "setup_intent.setup_failed, charge.refunded, account.updated; any other type is answered 200 and left. Each event applies " +
    "once (a replay changes nothing), in any order: the reservation's state decides.",
  request: {
    headers: z.object({ "stripe-signature": z.string().optional() }),
  },
  responses: {
    200: json(
      z.object({ received: z.literal(true), applied: z.boolean(), note: z.string().optional() }),
      "received (applied: whether it changed anything)",
    ),
    ...problems,
  },
});

export const stripeEventsRouter = createRouter().openapi(eventsRoute, async (c) => {
  const cfg = config(c.env);
  if (!cfg.stripe.webhookSecret)
    throw new ApiError(
      "service_unavailable",
      "payments are not set up on this server (no STRIPE_WEBHOOK_SECRET)",
    );
  const event = await verifiedEvent(cfg.stripe, await c.req.text(), c.req.header("stripe-signature"));
  if (!event)
    throw new ApiError("invalid_request", "the Stripe-Signature header does not verify for this body");
  const { answer, target } = await applyEvent(c.env, cfg.stripe, event, cfg.linkSecret);
  // what the change wrote to the outbox (webhooks, the guest's confirmation) goes at once (app.ts's dispatchAfterWrite)
  if (target) {
    c.set("shard", target.shard);
    c.set("property", target.property);
  }
  return c.json(answer, 200);
});
