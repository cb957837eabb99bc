/**
 * Delivery of the outbox (CONTRACT 9). The shard is the source of truth; the queue only carries
 * "try delivery N of property P now":
 * - dispatchDue() queues a shard's due deliveries that no message is on its way for. It runs
 *   after each write that may have made events (post-commit) and from the cron (the sweeper),
 *   so a Worker stopped between the commit and the send loses nothing.
 * - attempt() is the queue consumer's work: it leases the delivery (so two copies of a message
 *   never send at once), sends it signed, records the attempt, and schedules the retry.
 * SQL is in webhooks.repo.ts, the wire in transport.ts.
 */
import { drizzle } from "drizzle-orm/d1";
import type { MiddlewareHandler } from "hono";
import * as controlSchema from "../db/control.schema";
import type { AppEnv, Bindings, DeliveryMessage } from "../env";
import { now as clockNow, nowIso } from "../lib/clock";
import { abortReason } from "../lib/d1";
import { shardsOf } from "../properties/directory.repo";
import { shardDb, shardD1 } from "../shards/shards";
import { sendNotification } from "../searchengine/notify";
import { SEARCHENGINE_EVENT } from "../searchengine/searchengine.repo";
import { endpointProblem, resolvedProblem } from "./endpoint";
import { fixedPayload } from "./payload";
import { retryDelay } from "./retry";
import { webhookHeaders } from "./signing";
import { type Outcome, resolveName, send } from "./transport";
import * as repo from "./webhooks.repo";

/** A queued message not acted on within this long is queued again by the sweeper. */
const QUEUE_GRACE_MS = 60_000;
/** Queues limit a message's delay to 12 hours; a longer wait is queued again by claim() on arrival. */
const MAX_QUEUE_DELAY_SECONDS = 43_200;
/** How long a delivery waits in the consumer for an earlier one of the same reservation (often in the same batch). */
const ORDER_WAIT_MS = 3000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Subscriptions of a reserved kind have a sender of their own instead of the signed POST: the
 * search engine's notification API (worker/searchengine/notify.ts).
 */
type Sender = (env: Bindings, d1: D1Database, event: repo.EventRow, timeoutMs: number) => Promise<Outcome>;
const SENDERS: Record<string, Sender> = { [SEARCHENGINE_EVENT]: sendNotification };

export function webhookSettings(env: Bindings) {
  const scale = Number(env.WEBHOOK_RETRY_SCALE ?? "1");
  const timeout = Number(env.WEBHOOK_TIMEOUT_MS ?? "10000");
  return {
    scale: Number.isFinite(scale) && scale >= 0 ? scale : 1,
    timeoutMs: Number.isFinite(timeout) && timeout >= 100 ? Math.min(timeout, 30_000) : 10_000,
  };
}

async function enqueue(env: Bindings, messages: DeliveryMessage[], delaySeconds = 0) {
  const delay = Math.min(Math.ceil(delaySeconds), MAX_QUEUE_DELAY_SECONDS);
  for (let i = 0; i < messages.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(messages.slice(i, i + 100).map((body) => ({ body, delaySeconds: delay })));
  }
}

/**
 * Queues shard `shard`'s due deliveries that no message is on its way for, `batch` at a time,
 * until `until` (epoch ms) when given; answers how many.
 */
export async function dispatchDue(env: Bindings, shard: number, o: { batch?: number; until?: number } = {}): Promise<number> {
  const batch = o.batch ?? 500;
  const d1 = shardD1(env, shard);
  let total = 0;
  for (let round = 0; round < 20; round++) {
    const now = clockNow();
    const due = await repo.takeDue(d1, { now: iso(now), graceBefore: iso(now - QUEUE_GRACE_MS), limit: batch });
    if (due.length) await enqueue(env, due.map((r) => ({ property_id: r.property_id, delivery_id: r.id })));
    total += due.length;
    if (due.length < batch || (o.until !== undefined && clockNow() > o.until)) break;
  }
  return total;
}

/**
 * After a successful write, queue the deliveries its events made, without holding the answer.
 * If this never runs (the Worker stopped), the cron's sweeper finds them within a minute.
 */
export function dispatchAfterWrite(): MiddlewareHandler<AppEnv> {
  return async function dispatchAfterWriteMiddleware(c, next) {
    await next();
    const shard = c.get("shard");
    if (c.req.method !== "GET" && c.res.status < 400 && shard !== undefined) {
      c.executionCtx.waitUntil(dispatchDue(c.env, shard).catch((err) => console.error(JSON.stringify({ level: "error", where: "webhook dispatch", message: String(err) }))));
    }
  };
}

/**
 * One attempt of delivery `id` in shard `shard`, if it is due and nobody else holds it.
 * Deliveries of one reservation to one subscription go in order while the earlier one has not
 * been tried yet.
 */
export async function attempt(env: Bindings, shard: number, id: number): Promise<void> {
  const d1 = shardD1(env, shard);
  const { scale, timeoutMs } = webhookSettings(env);
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
  await enqueue(env, [{ property_id: claimed.property_id, delivery_id: claimed.id }], delay);
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
  const sender = SENDERS[sub.webhook_type];
  if (sender) return sender(env, d1, event, timeoutMs);
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
      await enqueue(env, [{ property_id: row.property_id, delivery_id: id }], wait);
      return undefined;
    }
    // Due, but an earlier delivery of the same reservation is being tried: keep the order.
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The queue consumer: each message is one attempt, in the shard the directory names for its
 * property (a property moved since the message was sent is found where it is now). A property
 * being moved waits; a crash leaves the message to the queue's retry.
 */
export async function consume(batch: MessageBatch<DeliveryMessage>, env: Bindings): Promise<void> {
  const control = drizzle(env.DB, { schema: controlSchema });
  const entries = await shardsOf(control, [...new Set(batch.messages.map((m) => m.body.property_id).filter(Number.isInteger))]);
  await Promise.all(
    batch.messages.map(async (message) => {
      const { property_id, delivery_id } = message.body;
      const entry = entries.get(property_id);
      try {
        if (!entry) return message.ack(); // no such property (or a message of another format): nothing to send
        if (entry.movingSince) return message.retry({ delaySeconds: 5 });
        await attempt(env, entry.shard, delivery_id);
        message.ack();
      } catch (err) {
        // The property started moving mid-attempt: its shard refuses the bookkeeping; try again there later.
        if (!abortReason(err, ["property_moving"] as const)) {
          console.error(JSON.stringify({ level: "error", where: "webhook delivery", delivery_id, message: String((err as Error)?.stack ?? err) }));
        }
        message.retry({ delaySeconds: 5 });
      }
    }),
  );
}
