/**
 * Webhook subscriptions of the calling client: each lives in the shard of its property, and a
 * subscription the client may no longer reach (another client's, a grant revoked) is a 404.
 */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv, Db } from "../env";
import { ApiError } from "../errors";
import { namesNothing } from "../lib/crud";
import { decodeCursor, idCursor, page } from "../lib/pagination";
import { addSeconds, nowIso } from "../lib/time";
import { dispatchDue } from "../outbox/dispatch";
import { authoriseProperty } from "../properties/authorise";
import { grantedByShard } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import { generateSecret } from "./signing";
import { toDeliveryDto, toSubscriptionDto } from "./webhooks.dto";
import * as repo from "./webhooks.repo";
import { checkEndpoint } from "./webhooks.rules";
import type { SubscriptionChange, WebhookType } from "./webhooks.schemas";

/** The client's subscriptions live in the shards of its properties: one read of each, side by side. */
async function acrossShards<T>(
  c: Context<AppEnv>,
  read: (db: Db, propertyIds: number[]) => Promise<T[]>,
): Promise<T[]> {
  const byShard = await grantedByShard(c.get("control"), c.get("client").id, c.get("client").propertyId);
  return (
    await Promise.all(
      [...byShard].map(([shard, ids]) => read(shardDb(openShard(c.env, shard, { write: false })), ids)),
    )
  ).flat();
}

/** The client's subscription `id`, with its property authorised and the request bound to its shard. */
async function ownSubscription(c: Context<AppEnv>, id: number) {
  const [found] = await acrossShards(c, (db, ids) =>
    repo.findSubscription(db, c.get("client").id, ids, id).then((r) => (r ? [r] : [])),
  );
  if (!found) throw new ApiError("subscription_not_found", `subscription ${id} does not exist`);
  const property = await authoriseProperty(c, found.propertyId, {
    allowExpired: c.req.method === "GET" || c.req.method === "DELETE",
  });
  // Read again in the bound session: a write below must start from the primary's row.
  const row = (await repo.findSubscription(c.get("db"), c.get("client").id, [property.id], id)) ?? found;
  return { row, property };
}

interface Page {
  limit: number;
  next_cursor?: string | undefined;
}

export async function listSubscriptions(c: Context<AppEnv>, q: Page) {
  const after = decodeCursor(q.next_cursor, idCursor);
  const rows = await acrossShards(c, (db, ids) =>
    repo.listSubscriptions(db, c.get("client").id, ids, q.limit, after?.id),
  );
  const result = page(
    rows.sort((a, b) => a.id - b.id),
    q.limit,
    (r) => ({ id: r.id }),
  );
  return { data: result.data.map(toSubscriptionDto), next_cursor: result.next_cursor };
}

export async function getSubscription(c: Context<AppEnv>, id: number) {
  const { row } = await ownSubscription(c, id);
  return { data: [toSubscriptionDto(row)] };
}

/**
 * A subscription of the property of the Property header, with its signing secret, shown only
 * here: a new one, or the one the client's subscriptions of this property to the endpoint share.
 */
export async function createSubscription(
  c: Context<AppEnv>,
  body: { endpoint: string; webhook_type: WebhookType },
) {
  const property = c.get("property");
  await checkEndpoint(body.endpoint, property, config(c.env).loopbackWebhooks);
  const row = await repo.insertSubscription(c.get("db"), {
    clientId: c.get("client").id,
    propertyId: property.id,
    endpoint: body.endpoint,
    webhookType: body.webhook_type,
    secret: generateSecret(),
  });
  return { data: [{ ...toSubscriptionDto(row), secret: row.secret }] };
}

/** Only the fields given change; any update enables a disabled subscription again. */
export async function updateSubscription(c: Context<AppEnv>, id: number, body: SubscriptionChange) {
  const { row, property } = await ownSubscription(c, id);
  // Naming nothing changes nothing, except that it enables a disabled subscription again.
  if (namesNothing(body) && row.disabledAt === null) return { data: [toSubscriptionDto(row)] };
  if (body.endpoint !== undefined)
    await checkEndpoint(body.endpoint, property, config(c.env).loopbackWebhooks);
  // At an endpoint the client already subscribed, it signs with that endpoint's secret.
  const moved = body.endpoint !== undefined && body.endpoint !== row.endpoint;
  const shared = moved
    ? await repo.endpointSecret(c.get("db"), row.clientId, row.propertyId, body.endpoint!, row.id)
    : undefined;
  const updated = await repo.updateSubscription(c.get("db"), row.id, {
    ...(body.endpoint !== undefined && { endpoint: body.endpoint }),
    ...shared,
    ...(body.webhook_type !== undefined && { webhookType: body.webhook_type }),
    disabledAt: null,
    disabledReason: null,
  });
  return { data: [toSubscriptionDto(updated)] };
}

export async function deleteSubscription(c: Context<AppEnv>, id: number) {
  const { row } = await ownSubscription(c, id);
  const deleted = await repo.updateSubscription(c.get("db"), row.id, { deletedAt: nowIso() });
  return { data: [toSubscriptionDto(deleted)] };
}

/**
 * A new secret for the subscription's endpoint: every subscription of the client and property
 * there takes it; the previous one still signs alongside it for `overlapSeconds`.
 */
export async function rotateSecret(c: Context<AppEnv>, id: number, overlapSeconds: number) {
  const { row } = await ownSubscription(c, id);
  const updated = await repo.rotateEndpointSecret(
    c.get("db"),
    row,
    generateSecret(),
    overlapSeconds > 0 ? addSeconds(nowIso(), overlapSeconds) : null,
  );
  return { data: [{ ...toSubscriptionDto(updated), secret: updated.secret }] };
}

export async function listDeliveries(
  c: Context<AppEnv>,
  id: number,
  q: Page & { state?: repo.DeliveryRow["state"] | undefined },
) {
  const { row } = await ownSubscription(c, id);
  const before = decodeCursor(q.next_cursor, idCursor);
  const rows = await repo.listDeliveries(c.get("db"), row.id, q.limit, before?.id, q.state);
  const result = page(rows, q.limit, (r) => ({ id: r.delivery.id }));
  return { data: result.data.map(toDeliveryDto), next_cursor: result.next_cursor };
}

/** A failed delivery pending again, its subscription enabled again: replaying says the endpoint is ready. */
export async function replayDelivery(c: Context<AppEnv>, id: number, deliveryId: number) {
  const { row } = await ownSubscription(c, id);
  const outcome = await repo.replayDelivery(c.get("db"), row.id, deliveryId);
  if (outcome === "not_found")
    throw new ApiError("delivery_not_found", `subscription ${id} has no delivery ${deliveryId}`);
  if (outcome === "not_failed")
    throw new ApiError(
      "delivery_not_failed",
      "only a failed delivery can be replayed; this one is pending or delivered",
    );
  if (row.disabledAt)
    await repo.updateSubscription(c.get("db"), row.id, { disabledAt: null, disabledReason: null });
  c.executionCtx.waitUntil(dispatchDue(c.env, c.get("shard")));
  const [item] = await repo.listDeliveries(c.get("db"), row.id, 1, deliveryId + 1, undefined);
  return { data: [toDeliveryDto(item!)] };
}
