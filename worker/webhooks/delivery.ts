/**
 * Webhook deliveries, one kind of the outbox (worker/outbox/dispatch.ts, which
 * decides when an attempt runs): attempt() leases the delivery (so two copies of a message never
 * send at once), sends it signed, records the attempt, and schedules the retry. SQL is in
 * webhooks.repo.ts, the wire in transport.ts.
 */
import type { Bindings } from "../env";
import { config } from "../config";
import { now as clockNow, nowIso } from "../lib/clock";
import { enqueue } from "../outbox/queue";
import { ensureIdRange, shardDb, shardD1 } from "../shards/shards";
import { endpointProblem, resolvedProblem } from "./endpoint";
import { fixedPayload } from "./payload";
import { retryDelay } from "../outbox/retry";
import { webhookHeaders } from "./signing";
import { type Outcome, resolveName, send } from "./transport";
import * as repo from "./webhooks.repo";

/** How long a delivery waits in the consumer for an earlier one of the same reservation (often in the same batch). */
const ORDER_WAIT_MS = 3000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Subscriptions of a reserved type have a transport of their own instead of the signed POST (the
 * search engine's notification API); each registers itself (worker/wiring.ts).
 */
export type Transport = (env: Bindings, d1: D1Database, event: repo.EventRow, timeoutMs: number) => Promise<Outcome>;
const transports = new Map<string, Transport>();

export function registerTransport(webhookType: string, transport: Transport): void {
  transports.set(webhookType, transport);
}

/**
 * One attempt of delivery `id` in shard `shard`, if it is due and nobody else holds it.
 * Deliveries of one reservation to one subscription go in order while the earlier one has not
 * been tried yet.
 */
export async function attempt(env: Bindings, shard: number, id: number): Promise<void> {
  const d1 = shardD1(env, shard);
  await ensureIdRange(env, shard); // the attempt's row takes an id of the shard's range
  const { retryScale: scale, webhookTimeoutMs: timeoutMs } = config(env);
  const claimed = await claim(env, d1, id, timeoutMs);
  if (!claimed) return;
  const at = iso(clockNow());
  const started = Date.now();

  let outcome: Outcome & { final?: boolean };
  try {
    const sent = await sendDelivery(env, d1, claimed, timeoutMs);
    if (sent === "gone") return;
    outcome = sent;
  } catch (err) {
    // Our own failure (D1, building the body) counts as an attempt, so it is retried on the
    // schedule and ends as failed, instead of holding the reservation's later events forever.
    console.error(JSON.stringify({ level: "error", where: "webhook attempt", delivery_id: id, message: String((err as Error)?.stack ?? err) }));
    outcome = { status: null, error: "internal error before sending; retried", excerpt: null, retryAfter: undefined, latencyMs: Date.now() - started };
  }
  const record = repo.recordAttempt(d1, claimed.id, { at, status: outcome.status, latencyMs: outcome.latencyMs, error: outcome.error, excerpt: outcome.excerpt });
  await conclude(env, d1, claimed, outcome, scale, record);
}

/** What an attempt's outcome makes of its delivery: delivered, disabled, retried or failed. */
async function conclude(env: Bindings, d1: D1Database, claimed: repo.ClaimedDelivery, outcome: Outcome & { final?: boolean }, scale: number, record: D1PreparedStatement) {
  const at = nowIso();
  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
    return repo.finishDelivery(d1, claimed.id, { state: "delivered", status: outcome.status }, at, [record]);
  }
  // Gone (the receiver asks us to stop) or an endpoint no longer allowed: the subscription is
  // disabled with everything it had pending; a PUT enables it again.
  const disable = outcome.status === 410 ? "the endpoint answered 410 Gone" : outcome.final ? outcome.error! : undefined;
  if (disable) {
    const also = [record, ...repo.disableSubscription(d1, claimed.subscription_id, claimed.id, at, disable)];
    return repo.finishDelivery(d1, claimed.id, { state: "failed", status: outcome.status, error: `${disable}: subscription disabled` }, at, also);
  }
  const delay = retryDelay(claimed.cycle_attempts + 1, scale, outcome.retryAfter);
  const error = outcome.error ?? `the endpoint answered ${outcome.status}`;
  if (delay === undefined) return repo.finishDelivery(d1, claimed.id, { state: "failed", status: outcome.status, error: `${error}; retries exhausted` }, at, [record]);
  await repo.finishDelivery(d1, claimed.id, { state: "pending", status: outcome.status, error, nextAttemptAt: iso(clockNow() + delay * 1000) }, at, [record]);
  await enqueue(env, "webhook", [{ property_id: claimed.property_id, id: claimed.id }], delay);
}

/**
 * Sends a claimed delivery once: "gone" when its subscription no longer takes deliveries (the
 * delivery is closed as failed), else what the receiver answered. `final`: an endpoint that is
 * not allowed is not retried.
 */
async function sendDelivery(env: Bindings, d1: D1Database, claimed: repo.ClaimedDelivery, timeoutMs: number): Promise<"gone" | (Outcome & { final?: boolean })> {
  const { sub, event, sandbox } = await repo.sendTarget(d1, claimed);
  if (!sub || sub.deleted_at || sub.disabled_at) {
    await repo.finishDelivery(d1, claimed.id, { state: "failed", error: sub?.deleted_at ? "subscription deleted" : "subscription disabled" }, nowIso());
    return "gone";
  }
  const transport = transports.get(sub.webhook_type);
  if (transport) return transport(env, d1, event, timeoutMs);
  const body = await fixedPayload(shardDb(d1), d1, event);
  const refused = endpointProblem(sub.endpoint, sandbox);
  if (refused) return { status: null, error: `endpoint not allowed: ${refused}`, excerpt: null, retryAfter: undefined, latencyMs: 0, final: true };
  // Production endpoints: the name's addresses are checked at each attempt, not only when subscribed.
  if (!sandbox) {
    const dns = await resolvedProblem(sub.endpoint, resolveName);
    if (dns) return { status: null, error: `endpoint not allowed: ${dns.reason}`, excerpt: null, retryAfter: undefined, latencyMs: 0, final: !dns.transient };
  }
  const secrets = [sub.secret, ...(sub.previous_secret && sub.previous_secret_expires_at && sub.previous_secret_expires_at > nowIso() ? [sub.previous_secret] : [])];
  // The signature's timestamp is the real time: receivers check it against their own clocks.
  return send(sub.endpoint, await webhookHeaders(secrets, event.uid, body), body, timeoutMs);
}

/**
 * Leases delivery `id` if it is due, nobody else holds it, and no earlier delivery of the same
 * reservation to the same subscription is still untried. Answers undefined when there is nothing
 * to do now; a delivery that is not due yet or keeps waiting for its predecessor is queued again.
 */
async function claim(env: Bindings, d1: D1Database, id: number, timeoutMs: number): Promise<repo.ClaimedDelivery | undefined> {
  const started = Date.now();
  for (;;) {
    const now = clockNow();
    const claimed = await repo.leaseDelivery(d1, id, iso(now), iso(now + timeoutMs + 15_000));
    if (claimed) return claimed;
    const row = await repo.deliveryState(d1, id);
    // Done, or another consumer holds it: nothing to do.
    if (!row || row.state !== "pending" || (row.lease_until && row.lease_until >= iso(now))) return undefined;
    // A first attempt is due now, whatever the database's clock stamped it with.
    const dueIn = row.cycle_attempts === 0 ? 0 : Date.parse(row.next_attempt_at) - now;
    if (dueIn > 1000 || Date.now() - started > ORDER_WAIT_MS) {
      const wait = Math.max(1, dueIn / 1000);
      await repo.markQueued(d1, id, iso(now + wait * 1000));
      await enqueue(env, "webhook", [{ property_id: row.property_id, id }], wait);
      return undefined;
    }
    // Due, but an earlier delivery of the same reservation is being tried: keep the order.
    await new Promise((r) => setTimeout(r, 50));
  }
}
