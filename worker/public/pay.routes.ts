/** GET /api/v2/public/{public_key}/pay/{token}: what the guest's payment step needs. */
import { createRoute, z } from "@hono/zod-openapi";
import { PublicPay } from "../../shared/public";
import { envelope, errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { pay } from "./pay.handlers";
import { ManageParam } from "./public.schemas";

const PaySchema = z.object(PublicPay.shape).openapi("PublicPay");

const payRoute = createRoute({
  tags: ["public"],
  method: "get",
  path: "/{public_key}/pay/{token}",
  summary: "The guest's payment step",
  description:
    "For a booking that waits for its payment (PREPAY, its service taking a deposit, a prepayment or a card as a guarantee): the amount " +
    "and the refund rule, and what Stripe.js needs to take it on the restaurant's Stripe account (the intent's client secret, the " +
    "publishable key, the connected account). The token is the manage link's. 404 once nothing is owed: paid, the card saved, expired or cancelled.",
  request: { params: ManageParam },
  responses: {
    200: json(envelope(PaySchema), "the payment step"),
    ...errorResponses(
      "property_not_found",
      "reservation_not_found",
      "payment_provider_error",
      "service_unavailable",
    ),
  },
});

export const payRouter = createRouter().openapi(payRoute, (c) => pay(c, c.req.valid("param")));
