/**
 * Webhook subscriptions (SPEC, CONTRACT 9), with SPEC's paths exactly: the singular `webhook`
 * in PUT and DELETE. Beyond SPEC: secret rotation, the delivery log and replay.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { authoriseProperty } from "../properties/authorise";
import type { AppEnv, Db, PropertyRow } from "../env";
import { ApiError, invalidField } from "../errors";
import { AUTHED, bearerSecurity, envelope, errorResponses, json, listEnvelope, PROPERTY_SCOPED, propertyHeader, urlField } from "../lib/openapi";
import { namesNothing } from "../lib/crud";
import { decodeCursor, idCursor, page, paginationQuery } from "../lib/pagination";
import { createRouter } from "../lib/router";
import { addSeconds, nowIso } from "../lib/time";
import { grantedByShard } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import { dispatchDue } from "../outbox/dispatch";
import { endpointProblem, resolvedProblem } from "./endpoint";
import { resolveName } from "./transport";
import { generateSecret } from "./signing";
import * as repo from "./webhooks.repo";

export const WEBHOOK_TYPES = ["RESERVATION_CREATED", "RESERVATION_UPDATED"] as const;

const Subscription = z
  .object({
    id: z.number().int(),
    endpoint: z.string().openapi({ example: "https://integrator.example/hooks/reservations" }),
    webhook_type: z.enum(WEBHOOK_TYPES),
    property_id: z.number().int(),
    enabled: z.boolean().openapi({ description: "false once the endpoint answered 410 Gone or stopped being allowed; a PUT enables it again" }),
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("WebhookSubscription");

const SubscriptionWithSecret = Subscription.extend({
  secret: z.string().openapi({ description: "Standard Webhooks signing secret; shown only here", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
}).openapi("WebhookSubscriptionWithSecret");

const SubscriptionInput = z
  .object({
    endpoint: z.string().pipe(urlField).openapi({ description: "https and a public address; sandbox properties may also use http://localhost" }),
    webhook_type: z.enum(WEBHOOK_TYPES),
  })
  .openapi("WebhookSubscriptionInput", { example: { endpoint: "https://integrator.example/hooks/reservations", webhook_type: "RESERVATION_CREATED" } });

const Attempt = z
  .object({
    at: z.string(),
    status: z.number().int().nullable().openapi({ description: "the receiver's HTTP status; null when no answer came" }),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable().openapi({ description: "the first 512 bytes of the receiver's answer" }),
  })
  .openapi("WebhookAttempt");

const Delivery = z
  .object({
    id: z.number().int(),
    webhook_id: z.string().openapi({ description: "the webhook-id header: the same on every retry and replay (msg_ and the event's id, unique across shards)", example: "msg_1000000004217" }),
    type: z.enum(WEBHOOK_TYPES),
    reservation_id: z.number().int(),
    event_created_at: z.string(),
    state: z.enum(["pending", "delivered", "failed"]),
    attempts: z.array(Attempt),
    next_attempt_at: z.string().nullable().openapi({ description: "pending deliveries only" }),
    delivered_at: z.string().nullable(),
    last_error: z.string().nullable(),
  })
  .openapi("WebhookDelivery");

const SubscriptionId = z.object({
  id: z.string().regex(/^[1-9]\d{0,14}$/, "expected a positive integer id").transform(Number).openapi({ param: { name: "id", in: "path" }, type: "integer", example: 1 }),
});
const DeliveryParams = SubscriptionId.extend({
  delivery_id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "expected a positive integer id")
    .transform(Number)
    .openapi({ param: { name: "delivery_id", in: "path" }, type: "integer", example: 1 }),
});

function toDto(row: repo.SubscriptionRow) {
  return {
    id: row.id,
    endpoint: row.endpoint,
    webhook_type: row.webhookType as (typeof WEBHOOK_TYPES)[number],
    property_id: row.propertyId,
    enabled: row.disabledAt === null,
    disabled_reason: row.disabledReason,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function toDeliveryDto(r: repo.DeliveryListItem) {
  return {
    id: r.delivery.id,
    webhook_id: r.event.uid,
    type: r.event.type as (typeof WEBHOOK_TYPES)[number],
    reservation_id: r.event.reservationId,
    event_created_at: r.event.createdAt,
    state: r.delivery.state,
    attempts: r.attempts.map((a) => ({ at: a.at, status: a.statusCode, latency_ms: a.latencyMs, error: a.error, response_excerpt: a.responseExcerpt })),
    next_attempt_at: r.delivery.state === "pending" ? r.delivery.nextAttemptAt : null,
    delivered_at: r.delivery.deliveredAt,
    last_error: r.delivery.lastError,
  };
}

/**
 * The endpoint rules of the property's kind; a production endpoint's name is resolved now too
 * (and again before each attempt), so one pointing at a private address is refused here. A name
 * that cannot be resolved at the moment is taken: the attempts check it again.
 */
async function checkEndpoint(endpoint: string, property: PropertyRow) {
  const problem = endpointProblem(endpoint, property.sandbox);
  if (problem) throw invalidField("endpoint", problem);
  if (property.sandbox) return;
  const dns = await resolvedProblem(endpoint, resolveName);
  if (dns && !dns.transient) throw invalidField("endpoint", `endpoint must be a public address: ${dns.reason}`);
}

/** The client's own subscription, on a property it may still act on; anything else is a 404. */
/** The client's subscriptions live in the shards of its properties: one read of each, side by side. */
async function acrossShards<T>(c: Context<AppEnv>, read: (db: Db, propertyIds: number[]) => Promise<T[]>): Promise<T[]> {
  const byShard = await grantedByShard(c.get("control"), c.get("client").id, c.get("client").propertyId);
  return (await Promise.all([...byShard].map(([shard, ids]) => read(shardDb(openShard(c.env, shard, { write: false })), ids)))).flat();
}

/** The client's subscription `id`, with its property authorised and the request bound to its shard. */
async function ownSubscription(c: Context<AppEnv>, id: number) {
  const [found] = await acrossShards(c, (db, ids) => repo.findSubscription(db, c.get("client").id, ids, id).then((r) => (r ? [r] : [])));
  if (!found) throw new ApiError("subscription_not_found", `subscription ${id} does not exist`);
  const property = await authoriseProperty(c, found.propertyId, { allowExpired: c.req.method === "GET" || c.req.method === "DELETE" });
  // Read again in the bound session: a write below must start from the primary's row.
  const row = (await repo.findSubscription(c.get("db"), c.get("client").id, [property.id], id)) ?? found;
  return { row, property };
}

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
  responses: { 200: json(listEnvelope(Subscription), "the subscriptions, by id"), ...errorResponses(...AUTHED) },
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
  request: { headers: propertyHeader, body: { content: { "application/json": { schema: SubscriptionInput } }, required: true } },
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
  request: { params: SubscriptionId, body: { content: { "application/json": { schema: SubscriptionInput.partial() } }, required: true } },
  responses: { 200: json(envelope(Subscription), "the updated subscription"), ...errorResponses(...notFound) },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/webhook/subscription/{id}",
  tags,
  security,
  summary: "Delete a webhook subscription",
  description: "Nothing more is sent to it; its delivery log is kept.",
  request: { params: SubscriptionId },
  responses: { 200: json(envelope(Subscription), "the deleted subscription"), ...errorResponses(...notFound) },
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
      content: { "application/json": { schema: z.object({ overlap_seconds: z.number().int().min(0).max(604_800).default(86_400) }).openapi("RotateSecretInput") } },
      required: false,
    },
  },
  responses: { 200: json(envelope(SubscriptionWithSecret), "the subscription with its new secret"), ...errorResponses(...notFound, "idempotency_key_in_use", "idempotency_key_reused") },
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
      state: z.enum(["pending", "delivered", "failed"]).optional().openapi({ param: { name: "state", in: "query" } }),
    }),
  },
  responses: { 200: json(listEnvelope(Delivery), "the deliveries, newest first"), ...errorResponses(...notFound) },
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
    ...errorResponses(...notFound, "delivery_not_found", "delivery_not_failed", "idempotency_key_in_use", "idempotency_key_reused"),
  },
});

export const webhooksRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const { limit, next_cursor } = c.req.valid("query");
    const after = decodeCursor(next_cursor, idCursor);
    const rows = await acrossShards(c, (db, ids) => repo.listSubscriptions(db, c.get("client").id, ids, limit, after?.id));
    const result = page(rows.sort((a, b) => a.id - b.id), limit, (r) => ({ id: r.id }));
    return c.json({ data: result.data.map(toDto), next_cursor: result.next_cursor }, 200);
  })
  .openapi(getRoute, async (c) => {
    const { row } = await ownSubscription(c, c.req.valid("param").id);
    return c.json({ data: [toDto(row)] }, 200);
  })
  .openapi(createSubscriptionRoute, async (c) => {
    const body = c.req.valid("json");
    const property = c.get("property");
    await checkEndpoint(body.endpoint, property);
    const row = await repo.insertSubscription(c.get("db"), {
      clientId: c.get("client").id,
      propertyId: property.id,
      endpoint: body.endpoint,
      webhookType: body.webhook_type,
      secret: generateSecret(),
    });
    return c.json({ data: [{ ...toDto(row), secret: row.secret }] }, 201);
  })
  .openapi(updateRoute, async (c) => {
    const { row, property } = await ownSubscription(c, c.req.valid("param").id);
    const body = c.req.valid("json");
    // Naming nothing changes nothing, except that it enables a disabled subscription again.
    if (namesNothing(body) && row.disabledAt === null) return c.json({ data: [toDto(row)] }, 200);
    if (body.endpoint !== undefined) await checkEndpoint(body.endpoint, property);
    const updated = await repo.updateSubscription(c.get("db"), row.id, {
      ...(body.endpoint !== undefined && { endpoint: body.endpoint }),
      ...(body.webhook_type !== undefined && { webhookType: body.webhook_type }),
      disabledAt: null,
      disabledReason: null,
    });
    return c.json({ data: [toDto(updated)] }, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { row } = await ownSubscription(c, c.req.valid("param").id);
    const deleted = await repo.updateSubscription(c.get("db"), row.id, { deletedAt: nowIso() });
    return c.json({ data: [toDto(deleted)] }, 200);
  })
  .openapi(rotateRoute, async (c) => {
    const { row } = await ownSubscription(c, c.req.valid("param").id);
    // The body is optional: without one, the default overlap.
    const overlap_seconds = (c.req.valid("json") as { overlap_seconds?: number } | undefined)?.overlap_seconds ?? 86_400;
    const updated = await repo.updateSubscription(c.get("db"), row.id, {
      secret: generateSecret(),
      previousSecret: overlap_seconds > 0 ? row.secret : null,
      previousSecretExpiresAt: overlap_seconds > 0 ? addSeconds(nowIso(), overlap_seconds) : null,
    });
    return c.json({ data: [{ ...toDto(updated), secret: updated.secret }] }, 200);
  })
  .openapi(deliveriesRoute, async (c) => {
    const { row } = await ownSubscription(c, c.req.valid("param").id);
    const { limit, next_cursor, state } = c.req.valid("query");
    const before = decodeCursor(next_cursor, idCursor);
    const rows = await repo.listDeliveries(c.get("db"), row.id, limit, before?.id, state);
    const result = page(rows, limit, (r) => ({ id: r.delivery.id }));
    return c.json({ data: result.data.map(toDeliveryDto), next_cursor: result.next_cursor }, 200);
  })
  .openapi(replayRoute, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    const { row } = await ownSubscription(c, id);
    const outcome = await repo.replayDelivery(c.get("db"), row.id, delivery_id);
    if (outcome === "not_found") throw new ApiError("delivery_not_found", `subscription ${id} has no delivery ${delivery_id}`);
    if (outcome === "not_failed") throw new ApiError("delivery_not_failed", "only a failed delivery can be replayed; this one is pending or delivered");
    if (row.disabledAt) await repo.updateSubscription(c.get("db"), row.id, { disabledAt: null, disabledReason: null });
    c.executionCtx.waitUntil(dispatchDue(c.env, c.get("shard")));
    const [item] = await repo.listDeliveries(c.get("db"), row.id, 1, delivery_id + 1, undefined);
    return c.json({ data: [toDeliveryDto(item!)] }, 202);
  });
