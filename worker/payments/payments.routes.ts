/**
 * The payments API: a restaurant connects its Stripe account (/properties/{id}/payments/account),
 * and money steps on a reservation (/reservations/{id}/payment/refund and .../no-show-fee). The
 * console's API mounts the same routes.
 */
import { createRoute } from "@hono/zod-openapi";
import type { ErrorCode } from "../errors";
import {
  AUTHED,
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  PROPERTY_SCOPED,
  PropertyIdParam,
  propertyHeader,
  ReservationIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { Reservation } from "../reservations/reservations.schemas";
import * as h from "./payments.handlers";
import { ConnectBody, OnboardingLinkSchema, PaymentAccountSchema, RefundBody } from "./payments.schemas";

const security = bearerSecurity;
const PROPERTY_ERRORS: ErrorCode[] = [
  ...AUTHED,
  "property_not_found",
  "property_forbidden",
  "sandbox_expired",
];
const MONEY_ERRORS: ErrorCode[] = [
  ...(PROPERTY_SCOPED as readonly ErrorCode[]),
  "reservation_not_available",
  "reservation_not_found",
  "payment_not_available",
  "payment_declined",
  "payment_provider_error",
  "service_unavailable",
];

const connectRoute = createRoute({
  method: "post",
  path: "/{property_id}/payments/account",
  tags: ["Payments"],
  security,
  summary: "Connect the restaurant's Stripe account",
  description:
    "Stripe Connect: the restaurant's money goes to its own Stripe account (direct charges). The first call makes the account; " +
    "each call answers a fresh, short-lived link to Stripe's onboarding, where the restaurant says who it is and where its money goes. " +
    "Once Stripe lets the account take charges (GET, kept current by Stripe's events), services may ask for payment.",
  request: {
    params: PropertyIdParam,
    body: { content: { "application/json": { schema: ConnectBody } }, required: false },
  },
  responses: {
    200: json(envelope(OnboardingLinkSchema), "Stripe's onboarding link"),
    ...errorResponses(
      ...PROPERTY_ERRORS,
      "invalid_input_data",
      "payment_provider_error",
      "service_unavailable",
    ),
  },
});

const accountRoute = createRoute({
  method: "get",
  path: "/{property_id}/payments/account",
  tags: ["Payments"],
  security,
  summary: "The restaurant's Stripe account",
  description:
    "Whether it can take charges and has finished onboarding, as Stripe last said; 404 while none is connected.",
  request: { params: PropertyIdParam },
  responses: {
    200: json(envelope(PaymentAccountSchema), "the account"),
    ...errorResponses(...PROPERTY_ERRORS, "not_found"),
  },
});

const refundRoute = createRoute({
  method: "post",
  path: "/{reservation_id}/payment/refund",
  tags: ["Payments"],
  security,
  summary: "Refund a reservation's payment, in full or in part",
  description:
    "Refunds `amount` (minor units; default all that is left) of what the booking paid (or of a no-show fee) on the restaurant's Stripe account. " +
    "The step is in the reservation's history with who took it, and in its RESERVATION_UPDATED webhook (`payment`). 409 when nothing is left to refund.",
  request: {
    headers: propertyHeader,
    params: ReservationIdParam,
    body: { content: { "application/json": { schema: RefundBody } }, required: false },
  },
  responses: {
    200: json(envelope(Reservation), "the reservation, its payment refunded"),
    ...errorResponses(...MONEY_ERRORS, "invalid_input_data"),
  },
});

const feeRoute = createRoute({
  method: "post",
  path: "/{reservation_id}/payment/no-show-fee",
  tags: ["Payments"],
  security,
  summary: "Charge a guarantee's no-show fee",
  description:
    "Charges the card the guest saved as a guarantee, off session, the fee the service's policy named per guest. A decline is 402 with the " +
    "bank's words and is said on the reservation (`payment.failure`); nothing is retried on its own. Charged once: a second call is 409.",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: {
    200: json(envelope(Reservation), "the reservation, its fee charged"),
    ...errorResponses(...MONEY_ERRORS),
  },
});

/** Under {base}/properties. */
export const paymentAccountRouter = createRouter()
  .openapi(connectRoute, async (c) => {
    const body = (c.req.valid("json") ?? {}) as { return_url?: string; refresh_url?: string };
    return h.connectAccount(c, c.req.valid("param").property_id, body);
  })
  .openapi(accountRoute, (c) => h.getAccount(c, c.req.valid("param").property_id));

/** Under {base}/reservations. */
export const reservationPaymentRouter = createRouter()
  .openapi(refundRoute, (c) =>
    h.refundPayment(c, c.req.valid("param").reservation_id, c.req.valid("json")?.amount),
  )
  .openapi(feeRoute, (c) => h.noShowFee(c, c.req.valid("param").reservation_id));
