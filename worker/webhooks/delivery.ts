/**
 * Delivery of the outbox (CONTRACT 9). The database is the source of truth; the queue only
 * carries "try delivery N now":
 * - dispatchDue() queues every due delivery no message is on its way for. It runs after each
 *   write that may have made events (post-commit) and from the cron (the sweeper), so a Worker
 *   stopped between the commit and the send loses nothing.
 * - attempt() is the queue consumer's work: it leases the delivery (so two copies of a message
 *   never send at once), sends it signed, records the attempt, and schedules the retry.
 */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../db/schema";
import type { MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "../env";
import { now as clockNow, nowIso } from "../lib/time";
import { endpointProblem, resolvedProblem } from "./endpoint";
import { fixedPayload, type EventRow } from "./payload";
import { parseRetryAfter, retryDelay } from "./retry";
import { webhookHeaders } from "./signing";

export interface DeliveryMessage {
  delivery_id: number;
}

/** A queued message not acted on within this long is queued again by the sweeper. */
const QUEUE_GRACE_MS = 60_000;
const EXCERPT_BYTES = 512;

const iso = (ms: number) => new Date(ms).toISOString();

export function webhookSettings(env: Bindings) {
  const scale = Number(env.WEBHOOK_RETRY_SCALE ?? "1");
  const timeout = Number(env.WEBHOOK_TIMEOUT_MS ?? "10000");
  return {
    scale: Number.isFinite(scale) && scale >= 0 ? scale : 1,
    timeoutMs: Number.isFinite(timeout) && timeout >= 100 ? Math.min(timeout, 30_000) : 10_000,
  };
}

/** Queues limit a message's delay to 12 hours; a longer wait is queued again by claim() on arrival. */
const MAX_QUEUE_DELAY_SECONDS = 43_200;

async function enqueue(env: Bindings, ids: number[], delaySeconds = 0) {
  const delay = Math.min(Math.ceil(delaySeconds), MAX_QUEUE_DELAY_SECONDS);
  for (let i = 0; i < ids.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(ids.slice(i, i + 100).map((id) => ({ body: { delivery_id: id } satisfies DeliveryMessage, delaySeconds: delay })));
  }
}

/** Queues due deliveries that no message is on its way for, `batch` at a time; answers how many. */
export async function dispatchDue(env: Bindings, batch = 500, maxBatches = 20): Promise<number> {
  let total = 0;
  for (let round = 0; round < maxBatches; round++) {
    const now = clockNow();
    // Due by the database's own clock: the one the outbox trigger stamped next_attempt_at with.
    const { results } = await env.DB.prepare(
      `UPDATE webhook_deliveries SET queued_at = ?1 WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE state = 'pending' AND next_attempt_at <= max(?1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
           AND (queued_at IS NULL OR queued_at < ?2)
         ORDER BY id LIMIT ?3)
       RETURNING id`,
    )
      .bind(iso(now), iso(now - QUEUE_GRACE_MS), batch)
      .all<{ id: number }>();
    const ids = results.map((r) => r.id).sort((a, b) => a - b);
    if (ids.length) await enqueue(env, ids);
    total += ids.length;
    if (ids.length < batch) break;
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
    if (c.req.method !== "GET" && c.res.status < 400) c.executionCtx.waitUntil(dispatchDue(c.env).catch((err) => console.error(JSON.stringify({ level: "error", where: "webhook dispatch", message: String(err) }))));
  };
}

/** The queue consumer: each message is one attempt; a crash leaves the message to the queue's retry. */
export async function consume(batch: MessageBatch<DeliveryMessage>, env: Bindings): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await attempt(env, message.body.delivery_id);
        message.ack();
      } catch (err) {
        console.error(JSON.stringify({ level: "error", where: "webhook delivery", delivery_id: message.body.delivery_id, message: String((err as Error)?.stack ?? err) }));
        message.retry({ delaySeconds: 5 });
      }
    }),
  );
}

type DeliveryRow = { id: number; event_id: number; subscription_id: number; attempts: number; cycle_attempts: number };

/** A and AAAA records over DNS-over-HTTPS (Workers have no resolver API). */
async function dohResolve(name: string): Promise<string[]> {
  const answers = await Promise.all(
    ["A", "AAAA"].map(async (type) => {
      const res = await fetch(`https://cloudflare-dns.com/dns-query?name=${encodeURIComponent(name)}&type=${type}`, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(3000),
      });
      if (!res.ok) throw new Error(`DNS over HTTPS answered ${res.status}`);
      const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
      return (body.Answer ?? []).filter((a) => a.type === 1 || a.type === 28).map((a) => a.data);
    }),
  );
  return answers.flat();
}

/** Reads at most EXCERPT_BYTES of a response body, without waiting for the rest. */
async function excerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < EXCERPT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), (at += c.byteLength));
  const text = new TextDecoder().decode(bytes.slice(0, EXCERPT_BYTES));
  return text === "" ? null : text;
}

interface Outcome {
  status: number | null;
  error: string | null;
  excerpt: string | null;
  retryAfter: number | undefined;
  latencyMs: number;
}

async function send(endpoint: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Outcome> {
  const started = Date.now();
  try {
    // redirect "manual": a 3xx is the receiver's answer, never followed (it could point anywhere).
    const res = await fetch(endpoint, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    const text = await excerpt(res).catch(() => null);
    const latencyMs = Date.now() - started;
    const error = res.status >= 300 && res.status < 400 ? `redirect to ${res.headers.get("location") ?? "?"} not followed` : null;
    return { status: res.status, error, excerpt: text, retryAfter: parseRetryAfter(res.headers.get("retry-after")), latencyMs };
  } catch (err) {
    const e = err as Error;
    const error = e?.name === "TimeoutError" || e?.name === "AbortError" ? `no answer within ${timeoutMs} ms` : `could not connect: ${e?.message ?? String(err)}`;
    return { status: null, error, excerpt: null, retryAfter: undefined, latencyMs: Date.now() - started };
  }
}

/**
 * One attempt of delivery `id`, if it is due and nobody else holds it. Deliveries of one
 * reservation to one subscription go in order while the earlier one has not been tried yet.
 */
export async function attempt(env: Bindings, id: number): Promise<void> {
  const { scale, timeoutMs } = webhookSettings(env);
  const claimed = await claim(env, id, timeoutMs);
  if (!claimed) return;
  const now = clockNow();
  const started = Date.now();

  let outcome: Outcome & { final?: boolean };
  try {
    const sent = await sendDelivery(env, claimed, timeoutMs);
    if (sent === "gone") return;
    outcome = sent;
  } catch (err) {
    // Our own failure (D1, building the body) counts as an attempt, so it is retried on the
    // schedule and ends as failed, instead of holding the reservation's later events forever.
    console.error(JSON.stringify({ level: "error", where: "webhook attempt", delivery_id: id, message: String((err as Error)?.stack ?? err) }));
    outcome = { status: null, error: "internal error before sending; retried", excerpt: null, retryAfter: undefined, latencyMs: Date.now() - started };
  }

  const record = env.DB.prepare(
    "INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_ms, error, response_excerpt) VALUES (?, ?, ?, ?, ?, ?)",
  ).bind(claimed.id, iso(now), outcome.status, outcome.latencyMs, outcome.error, outcome.excerpt);

  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
    await finish(env, claimed, { state: "delivered", status: outcome.status }, [record]);
    return;
  }
  // Gone (the receiver asks us to stop) or an endpoint no longer allowed: the subscription is
  // disabled with everything it had pending; a PUT enables it again.
  const disable = outcome.status === 410 ? "the endpoint answered 410 Gone" : outcome.final ? outcome.error! : undefined;
  if (disable) {
    const at = nowIso();
    await finish(env, claimed, { state: "failed", status: outcome.status, error: `${disable}: subscription disabled` }, [
      record,
      env.DB.prepare("UPDATE webhook_subscriptions SET disabled_at = ?2, disabled_reason = ?3, updated_at = ?2 WHERE id = ?1 AND disabled_at IS NULL").bind(claimed.subscription_id, at, disable),
      env.DB.prepare("UPDATE webhook_deliveries SET state = 'failed', last_error = ?3 WHERE subscription_id = ?1 AND state = 'pending' AND id <> ?2").bind(
        claimed.subscription_id,
        claimed.id,
        `subscription disabled (${disable})`,
      ),
    ]);
    return;
  }
  const delay = retryDelay(claimed.cycle_attempts + 1, scale, outcome.retryAfter);
  const error = outcome.error ?? `the endpoint answered ${outcome.status}`;
  if (delay === undefined) {
    await finish(env, claimed, { state: "failed", status: outcome.status, error: `${error}; retries exhausted` }, [record]);
    return;
  }
  const due = iso(clockNow() + delay * 1000);
  await finish(env, claimed, { state: "pending", status: outcome.status, error, nextAttemptAt: due }, [record]);
  await enqueue(env, [claimed.id], delay);
}

/**
 * Sends a claimed delivery once: "gone" when its subscription no longer takes deliveries (the
 * delivery is closed as failed), else what the receiver answered. `final`: an endpoint that is
 * not allowed is not retried.
 */
async function sendDelivery(env: Bindings, claimed: DeliveryRow, timeoutMs: number): Promise<"gone" | (Outcome & { final?: boolean })> {
  const [sub, event, property] = await env.DB.batch([
    env.DB.prepare("SELECT endpoint, secret, previous_secret, previous_secret_expires_at, disabled_at, deleted_at FROM webhook_subscriptions WHERE id = ?").bind(claimed.subscription_id),
    env.DB.prepare("SELECT id, uid, property_id AS propertyId, reservation_id AS reservationId, type, snapshot, previous, payload, created_at AS createdAt FROM webhook_events WHERE id = ?").bind(claimed.event_id),
    env.DB.prepare("SELECT p.sandbox FROM properties p JOIN webhook_subscriptions s ON s.property_id = p.id WHERE s.id = ?").bind(claimed.subscription_id),
  ]);
  const s = sub!.results[0] as
    | { endpoint: string; secret: string; previous_secret: string | null; previous_secret_expires_at: string | null; disabled_at: string | null; deleted_at: string | null }
    | undefined;
  const ev = event!.results[0] as EventRow;
  const sandbox = (property!.results[0] as { sandbox: number } | undefined)?.sandbox === 1;
  if (!s || s.deleted_at || s.disabled_at) {
    await finish(env, claimed, { state: "failed", error: s?.deleted_at ? "subscription deleted" : "subscription disabled" });
    return "gone";
  }
  const body = await fixedPayload(drizzle(env.DB, { schema }), env.DB, ev);
  const refused = endpointProblem(s.endpoint, sandbox);
  if (refused) return { status: null, error: `endpoint not allowed: ${refused}`, excerpt: null, retryAfter: undefined, latencyMs: 0, final: true };
  // Production endpoints: the name's addresses are checked at each attempt, not only when subscribed.
  if (!sandbox) {
    const dns = await resolvedProblem(s.endpoint, dohResolve);
    if (dns) return { status: null, error: `endpoint not allowed: ${dns.reason}`, excerpt: null, retryAfter: undefined, latencyMs: 0, final: !dns.transient };
  }
  const secrets = [s.secret, ...(s.previous_secret && s.previous_secret_expires_at && s.previous_secret_expires_at > nowIso() ? [s.previous_secret] : [])];
  return send(s.endpoint, await webhookHeaders(secrets, ev.uid, body), body, timeoutMs);
}

async function finish(
  env: Bindings,
  d: DeliveryRow,
  o: { state: "pending" | "delivered" | "failed"; status?: number | null; error?: string; nextAttemptAt?: string },
  also: D1PreparedStatement[] = [],
) {
  const tried = also.length > 0;
  const at = nowIso();
  await env.DB.batch([
    ...also,
    env.DB.prepare(
      `UPDATE webhook_deliveries SET state = ?2, attempts = attempts + ?3, cycle_attempts = cycle_attempts + ?3,
         last_status = coalesce(?4, last_status), last_error = ?5, lease_until = NULL,
         delivered_at = CASE WHEN ?2 = 'delivered' THEN ?6 ELSE delivered_at END,
         next_attempt_at = coalesce(?7, next_attempt_at), queued_at = coalesce(?7, queued_at)
       WHERE id = ?1`,
    ).bind(d.id, o.state, tried ? 1 : 0, o.status ?? null, o.error ?? null, at, o.nextAttemptAt ?? null),
  ]);
}

/** How long a delivery waits in the consumer for an earlier one of the same reservation (often in the same batch). */
const ORDER_WAIT_MS = 3000;

/**
 * Leases delivery `id` if it is due, nobody else holds it, and no earlier delivery of the same
 * reservation to the same subscription is still untried. Answers undefined when there is nothing
 * to do now; a delivery that is not due yet or keeps waiting for its predecessor is queued again.
 */
async function claim(env: Bindings, id: number, timeoutMs: number): Promise<DeliveryRow | undefined> {
  const started = Date.now();
  for (;;) {
    const now = clockNow();
    const claimed = await env.DB.prepare(
      // A first attempt is due at once (the schedule starts at 0), whatever the database's clock
      // stamped it with; a retry waits for its full delay (Retry-After included).
      `UPDATE webhook_deliveries AS d SET lease_until = ?2
       WHERE d.id = ?1 AND d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < ?3)
         AND (d.next_attempt_at <= ?3 OR d.cycle_attempts = 0)
         AND NOT EXISTS (
           SELECT 1 FROM webhook_deliveries p
           WHERE p.subscription_id = d.subscription_id AND p.reservation_id = d.reservation_id AND p.id < d.id
             AND p.state = 'pending' AND p.cycle_attempts = 0)
       RETURNING id, event_id, subscription_id, attempts, cycle_attempts`,
    )
      .bind(id, iso(now + timeoutMs + 15_000), iso(now))
      .first<DeliveryRow>();
    if (claimed) return claimed;
    const row = await env.DB.prepare("SELECT state, next_attempt_at, lease_until, cycle_attempts FROM webhook_deliveries WHERE id = ?")
      .bind(id)
      .first<{ state: string; next_attempt_at: string; lease_until: string | null; cycle_attempts: number }>();
    // Done, or another consumer holds it: nothing to do.
    if (!row || row.state !== "pending" || (row.lease_until && row.lease_until >= iso(now))) return undefined;
    // A first attempt is due now, whatever the database's clock stamped it with.
    const dueIn = row.cycle_attempts === 0 ? 0 : Date.parse(row.next_attempt_at) - now;
    if (dueIn > 1000 || Date.now() - started > ORDER_WAIT_MS) {
      const wait = Math.max(1, dueIn / 1000);
      await env.DB.prepare("UPDATE webhook_deliveries SET queued_at = ?2 WHERE id = ?1").bind(id, iso(now + wait * 1000)).run();
      await enqueue(env, [id], wait);
      return undefined;
    }
    // Due, but an earlier delivery of the same reservation is being tried: keep the order.
    await new Promise((r) => setTimeout(r, 50));
  }
}
