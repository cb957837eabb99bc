/**
 * Webhook subscriptions, at the API's documented paths: the singular `webhook` in PUT and DELETE.
 * Beyond the basic four: secret rotation, the delivery log and replay.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  AUTHED,
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  listEnvelope,
  PROPERTY_SCOPED,
  propertyHeader,
} from "../lib/openapi";
import { paginationQuery } from "../lib/pagination";
import { createRouter } from "../lib/router";
import * as h from "./webhooks.handlers";
import {
  Delivery,
  DeliveryParams,
  PreviousAttributes,
  ReservationCreatedEvent,
  ReservationUpdatedEvent,
  RotateSecretInput,
  Subscription,
  SubscriptionId,
  SubscriptionInput,
  SubscriptionWithSecret,
} from "./webhooks.schemas";

const tags = ["Webhooks"];
const security = bearerSecurity;
const notFound = [...AUTHED, "subscription_not_found", "property_forbidden", "sandbox_expired"] as const;

const listRoute = createRoute({
  method: "get",
  path: "/webhooks/subscriptions",
  tags,
  security,
  summary: "List the client's webhook subscriptions",
  request: { query: z.object(paginationQuery) },
  responses: {
    200: json(listEnvelope(Subscription), "the subscriptions, by id"),
    ...errorResponses(...AUTHED),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/webhooks/subscription/{id}",
  tags,
  security,
  summary: "Find a webhook subscription",
  request: { params: SubscriptionId },
  responses: { 200: json(envelope(Subscription), "the subscription"), ...errorResponses(...notFound) },
});

const createSubscriptionRoute = createRoute({
  method: "post",
  path: "/webhooks/subscription",
  tags,
  security,
  summary: "Subscribe an endpoint to a property's events",
  description:
    "The subscription belongs to the property of the Property header. The answer carries the signing `secret`, shown only here (and on rotation). " +
    "Deliveries are signed as Standard Webhooks: headers webhook-id, webhook-timestamp, webhook-signature.",
  request: {
    headers: propertyHeader,
    body: { content: { "application/json": { schema: SubscriptionInput } }, required: true },
  },
  responses: {
    201: json(envelope(SubscriptionWithSecret), "the created subscription, with its secret"),
    ...errorResponses(...PROPERTY_SCOPED, "idempotency_key_in_use", "idempotency_key_reused"),
  },
});

const updateRoute = createRoute({
  method: "put",
  path: "/webhook/subscription/{id}",
  tags,
  security,
  summary: "Update a webhook subscription",
  description: "Partial: only the fields given change. A subscription disabled by a 410 is enabled again.",
  request: {
    params: SubscriptionId,
    body: { content: { "application/json": { schema: SubscriptionInput.partial() } }, required: true },
  },
  responses: {
    200: json(envelope(Subscription), "the updated subscription"),
    ...errorResponses(...notFound),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/webhook/subscription/{id}",
  tags,
  security,
  summary: "Delete a webhook subscription",
  description: "Nothing more is sent to it; its delivery log is kept.",
  request: { params: SubscriptionId },
  responses: {
    200: json(envelope(Subscription), "the deleted subscription"),
    ...errorResponses(...notFound),
  },
});

const rotateRoute = createRoute({
  method: "post",
  path: "/webhooks/subscription/{id}/rotate-secret",
  tags,
  security,
  summary: "Rotate the signing secret",
  description:
    "Answers a new secret. For `overlap_seconds` (default 86400, at most 7 days) each delivery carries two signatures, " +
    "one with the new secret and one with the previous, so receivers can switch without losing a message.",
  request: {
    params: SubscriptionId,
    body: {
      content: { "application/json": { schema: RotateSecretInput } },
      required: false,
    },
  },
  responses: {
    200: json(envelope(SubscriptionWithSecret), "the subscription with its new secret"),
    ...errorResponses(...notFound, "idempotency_key_in_use", "idempotency_key_reused"),
  },
});

const deliveriesRoute = createRoute({
  method: "get",
  path: "/webhooks/subscription/{id}/deliveries",
  tags,
  security,
  summary: "List a subscription's deliveries, newest first, with every attempt",
  request: {
    params: SubscriptionId,
    query: z.object({
      ...paginationQuery,
      state: z
        .enum(["pending", "delivered", "failed"])
        .optional()
        .openapi({ param: { name: "state", in: "query" } }),
    }),
  },
  responses: {
    200: json(listEnvelope(Delivery), "the deliveries, newest first"),
    ...errorResponses(...notFound),
  },
});

const replayRoute = createRoute({
  method: "post",
  path: "/webhooks/subscription/{id}/deliveries/{delivery_id}/replay",
  tags,
  security,
  summary: "Send a failed delivery again",
  description:
    "The delivery starts the retry schedule over, with the same webhook-id and body. A subscription disabled by a 410 " +
    "(or by an endpoint no longer allowed) is enabled again: replaying says the endpoint is ready.",
  request: { params: DeliveryParams },
  responses: {
    202: json(envelope(Delivery), "the delivery, pending again"),
    ...errorResponses(
      ...notFound,
      "delivery_not_found",
      "delivery_not_failed",
      "idempotency_key_in_use",
      "idempotency_key_reused",
    ),
  },
});

export const webhooksRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(await h.listSubscriptions(c, c.req.valid("query")), 200))
  .openapi(getRoute, async (c) => c.json(await h.getSubscription(c, c.req.valid("param").id), 200))
  .openapi(createSubscriptionRoute, async (c) =>
    c.json(await h.createSubscription(c, c.req.valid("json")), 201),
  )
  .openapi(updateRoute, async (c) =>
    c.json(await h.updateSubscription(c, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteRoute, async (c) => c.json(await h.deleteSubscription(c, c.req.valid("param").id), 200))
  .openapi(rotateRoute, async (c) => {
    // The body is optional: without one, the default overlap.
    const overlap =
      (c.req.valid("json") as { overlap_seconds?: number } | undefined)?.overlap_seconds ?? 86_400;
    return c.json(await h.rotateSecret(c, c.req.valid("param").id, overlap), 200);
  })
  .openapi(deliveriesRoute, async (c) =>
    c.json(await h.listDeliveries(c, c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(replayRoute, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    return c.json(await h.replayDelivery(c, id, delivery_id), 202);
  });

/** The headers of every delivery (Standard Webhooks). */
const deliveryHeaders = z.object({
  "webhook-id": z.string().openapi({
    description: "the event's id: the same on every retry; deduplicate on it",
    example: "msg_1000000004217",
  }),
  "webhook-timestamp": z
    .string()
    .openapi({ description: "seconds since the epoch, when this attempt was signed", example: "1795661496" }),
  "webhook-signature": z.string().openapi({
    description:
      "`v1,<base64 HMAC-SHA256>` with the endpoint's secret, space-separated with one by the previous secret during a rotation",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

/** What the OpenAPI document's `webhooks` says of each event: the POST we send to the endpoint. */
function eventOperation(type: string, schema: z.ZodType, what: string) {
  return {
    method: "post" as const,
    path: type,
    tags,
    summary: type,
    description: `${what} Signed as Standard Webhooks with the endpoint's one secret.`,
    request: {
      headers: deliveryHeaders,
      body: { content: { "application/json": { schema } }, required: true },
    },
    responses: {
      200: { description: "received (any 2xx): the delivery is done" },
      410: { description: "Gone: the subscription is disabled" },
      default: {
        description:
          "anything else, or no answer within 10 s: retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h)",
      },
    },
  };
}

/** The event types in the document's `webhooks`, so that generated clients type every payload. */
export function registerWebhookEvents(app: Pick<OpenAPIHono, "openAPIRegistry">) {
  // the generator lists the components the paths reach; these only the webhooks reach
  app.openAPIRegistry.register("ReservationPreviousAttributes", PreviousAttributes);
  app.openAPIRegistry.register("ReservationCreatedEvent", ReservationCreatedEvent);
  app.openAPIRegistry.register("ReservationUpdatedEvent", ReservationUpdatedEvent);
  app.openAPIRegistry.registerWebhook(
    eventOperation(
      "RESERVATION_CREATED",
      ReservationCreatedEvent,
      "A new reservation, whatever its channel: the reservation as GET /reservations/{id} shows it.",
    ),
  );
  app.openAPIRegistry.registerWebhook(
    eventOperation(
      "RESERVATION_UPDATED",
      ReservationUpdatedEvent,
      "Any later change (an update, a status move, check-in or check-out, a cancellation, an expiry, a guest's own change): the reservation after it, and in previous_attributes the fields it changed with their values before.",
    ),
  );
}
