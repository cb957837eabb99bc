/**
 * Webhook deliveries, one kind of the outbox (worker/outbox/dispatch.ts, which
 * decides when an attempt runs): attempt() leases the delivery (so two copies of a message never
 * send at once), sends it signed, records the attempt, and schedules the retry. SQL is in
 * webhooks.repo.ts, the wire in transport.ts.
 */

import { config } from "../config";
import { controlDb } from "../db/handles";
import type { Bindings } from "../env";
import { now as clockNow, nowIso } from "../lib/clock";
import { enqueue } from "../outbox/queue";
import { retryDelay } from "../outbox/retry";
import { ensureIdRange, shardD1, shardDb } from "../shards/shards";
import { endpointProblem, loopbackEndpoint, resolvedProblem } from "./endpoint";
import { fixedPayloads } from "./payload";
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
export type Transport = (
  env: Bindings,
  d1: D1Database,
  event: repo.EventRow,
  timeoutMs: number,
) => Promise<Outcome>;
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
  const { webhookTimeoutMs: timeoutMs } = config(env);
  const claimed = await claim(env, d1, id, timeoutMs);
  if (claimed) await attemptClaimed(env, d1, [claimed]);
}

/**
 * One attempt of each of deliveries `ids` of shard `shard` (a queue batch, a write's due rows), in
 * a few round trips however many: one lease, one read of their targets, one write of their bodies,
 * the sends side by side, one batch closing them all. Those not leased at once (not due, held
 * elsewhere, or behind an earlier one of their reservation) go one by one through attempt().
 * Answers the ids whose attempt failed on our side, each with its error.
 */
export async function attemptMany(
  env: Bindings,
  shard: number,
  ids: number[],
): Promise<Map<number, unknown>> {
  const d1 = shardD1(env, shard);
  await ensureIdRange(env, shard);
  const { webhookTimeoutMs: timeoutMs } = config(env);
  const now = clockNow();
  const leased = ids.length
    ? await repo.leaseDeliveries(d1, ids, iso(now), iso(now + timeoutMs + 15_000))
    : [];
  const held = new Set(leased.map((c) => c.id));
  const failed = new Map<number, unknown>();
  const keep = (ids: number[]) => (err: unknown) => {
    for (const id of ids) failed.set(id, err);
  };
  // Those done or held elsewhere (a duplicate message, a write's own attempt) are read in one round trip and left.
  const rest = ids.filter((id) => !held.has(id));
  const waiting = rest.length ? await repo.unheld(d1, rest, iso(now)).catch(() => rest) : [];
  await Promise.all([
    attemptClaimed(env, d1, leased).catch(keep([...held])),
    ...waiting.map((id) => attempt(env, shard, id).catch(keep([id]))),
  ]);
  return failed;
}

/** Sends the claimed deliveries and closes their attempts: delivered, disabled, retried or failed. */
async function attemptClaimed(env: Bindings, d1: D1Database, claimed: repo.ClaimedDelivery[]): Promise<void> {
  if (!claimed.length) return;
  const { retryScale: scale, webhookTimeoutMs: timeoutMs } = config(env);
  const at = iso(clockNow());
  const prepared = await prepareSends(env, d1, claimed);
  const outcomes = await Promise.all(claimed.map((c) => outcomeOf(env, d1, c, prepared, timeoutMs)));
  const closings = closingsOf(d1, claimed, outcomes, scale, at);
  await runClosings(d1, closings);
  await queueRetries(env, closings);
}

/** The retries, queued in bulk: one sendBatch per delay (a receiver that is down fails a whole batch alike). */
async function queueRetries(env: Bindings, closings: Closing[]): Promise<void> {
  const byDelay = new Map<number, { id: number; property_id: number }[]>();
  for (const { retry, retryIn } of closings) {
    if (retry && retryIn !== undefined)
      byDelay.set(retryIn, [
        ...(byDelay.get(retryIn) ?? []),
        { id: retry.id, property_id: retry.property_id },
      ]);
  }
  await Promise.all([...byDelay].map(([delay, rows]) => enqueue(env, "webhook", rows, delay)));
}

const accepted = (o: Sent): o is Outcome =>
  !("gone" in o) && o.status !== null && o.status >= 200 && o.status < 300;

/**
 * How the attempts close: those the receivers accepted all together (the common case, three
 * statements however many), every other one with statements of its own.
 */
function closingsOf(
  d1: D1Database,
  claimed: repo.ClaimedDelivery[],
  outcomes: Sent[],
  scale: number,
  at: string,
): Closing[] {
  const delivered: repo.Delivered[] = [];
  const closings: Closing[] = [];
  claimed.forEach((c, i) => {
    const o = outcomes[i]!;
    if (accepted(o))
      delivered.push({
        id: c.id,
        status: o.status!,
        latencyMs: o.latencyMs,
        error: o.error,
        excerpt: o.excerpt,
      });
    else closings.push(closing(d1, c, o, scale, at));
  });
  // After the others: a subscription disabled in this batch leaves its accepted deliveries delivered.
  if (delivered.length) closings.push({ statements: repo.deliveredStatements(d1, delivered, at, nowIso()) });
  return closings;
}

/** What the claimed deliveries need to be sent: their targets and their events' bodies, in two round trips. */
async function prepareSends(env: Bindings, d1: D1Database, claimed: repo.ClaimedDelivery[]) {
  const targets = await repo.sendTargets(d1, claimed).catch((err: unknown) => err as Error);
  if (targets instanceof Error)
    return {
      targets: new Map(claimed.map((c) => [c.id, targets])),
      bodies: new Map<number, string | Error>(),
    };
  const webhooks = [...targets.values()].filter(
    (t): t is repo.SendTarget => !(t instanceof Error) && !!t.sub && !transports.has(t.sub.webhook_type),
  );
  const bodies = await fixedPayloads(
    { db: shardDb(d1), d1, control: controlDb(env.DB) },
    webhooks.map((t) => t.event),
  ).catch((err: unknown) => new Map(webhooks.map((t) => [t.event.id, err as Error])));
  return { targets, bodies };
}

type Prepared = Awaited<ReturnType<typeof prepareSends>>;
/** What a send came to; `gone`: the subscription no longer takes deliveries, and why. */
type Sent = { gone: string } | (Outcome & { final?: boolean });

/** One claimed delivery sent: what the receiver answered, gone, or our own failure as a failed attempt. */
async function outcomeOf(
  env: Bindings,
  d1: D1Database,
  claimed: repo.ClaimedDelivery,
  p: Prepared,
  timeoutMs: number,
): Promise<Sent> {
  const started = Date.now();
  try {
    const target = p.targets.get(claimed.id);
    if (target instanceof Error) throw target;
    return await sendDelivery(env, d1, target!, p.bodies.get(target!.event.id), timeoutMs);
  } catch (err) {
    // Our own failure (D1, building the body) counts as an attempt, so it is retried on the
    // schedule and ends as failed, instead of holding the reservation's later events forever.
    console.error(
      JSON.stringify({
        level: "error",
        where: "webhook attempt",
        delivery_id: claimed.id,
        message: String((err as Error)?.stack ?? err),
      }),
    );
    return {
      status: null,
      error: "internal error before sending; retried",
      excerpt: null,
      retryAfter: undefined,
      latencyMs: Date.now() - started,
    };
  }
}

interface Closing {
  statements: D1PreparedStatement[];
  /** the delivery to queue again, and in how many seconds, when there is a retry */
  retry?: repo.ClaimedDelivery;
  retryIn?: number | undefined;
}

/**
 * The statements that close an attempt the receiver did not accept (accepted ones close together,
 * closingsOf): disabled, retried or failed (gone: failed without an attempt).
 */
function closing(
  d1: D1Database,
  claimed: repo.ClaimedDelivery,
  outcome: Sent,
  scale: number,
  at: string,
): Closing {
  const finish = (o: repo.Finish, also: D1PreparedStatement[]) => ({
    statements: repo.finishStatements(d1, claimed.id, o, also),
  });
  if ("gone" in outcome) return finish({ state: "failed", error: outcome.gone }, []);
  const record = repo.recordAttempt(d1, claimed.id, {
    at,
    status: outcome.status,
    latencyMs: outcome.latencyMs,
    error: outcome.error,
    excerpt: outcome.excerpt,
  });
  // Gone (the receiver asks us to stop) or an endpoint no longer allowed: the subscription is
  // disabled with everything it had pending; a PUT enables it again.
  const disable =
    outcome.status === 410 ? "the endpoint answered 410 Gone" : outcome.final ? outcome.error! : undefined;
  if (disable) {
    const also = [
      record,
      ...repo.disableSubscription(d1, claimed.subscription_id, claimed.id, nowIso(), disable),
    ];
    return finish(
      { state: "failed", status: outcome.status, error: `${disable}: subscription disabled` },
      also,
    );
  }
  const delay = retryDelay(claimed.cycle_attempts + 1, scale, outcome.retryAfter);
  const error = outcome.error ?? `the endpoint answered ${outcome.status}`;
  if (delay === undefined)
    return finish({ state: "failed", status: outcome.status, error: `${error}; retries exhausted` }, [
      record,
    ]);
  return {
    ...finish(
      { state: "pending", status: outcome.status, error, nextAttemptAt: iso(clockNow() + delay * 1000) },
      [record],
    ),
    retry: claimed,
    retryIn: delay,
  };
}

/** All closings in one batch; should it fail, each in a batch of its own, so one bad row holds back only itself. */
async function runClosings(d1: D1Database, closings: Closing[]): Promise<void> {
  try {
    await d1.batch(closings.flatMap((k) => k.statements));
  } catch (err) {
    if (closings.length === 1) throw err;
    const settled = await Promise.allSettled(closings.map((k) => d1.batch(k.statements)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }
}

/**
 * Sends a claimed delivery once: `gone` when its subscription no longer takes deliveries (the
 * delivery is closed as failed), else what the receiver answered. `final`: an endpoint that is
 * not allowed is not retried.
 */
async function sendDelivery(
  env: Bindings,
  d1: D1Database,
  target: repo.SendTarget,
  body: string | Error | undefined,
  timeoutMs: number,
): Promise<Sent> {
  const { sub, event, sandbox } = target;
  if (!sub || sub.deleted_at || sub.disabled_at)
    return { gone: sub?.deleted_at ? "subscription deleted" : "subscription disabled" };
  const transport = transports.get(sub.webhook_type);
  if (transport) return transport(env, d1, event, timeoutMs);
  if (body === undefined || body instanceof Error)
    throw body ?? new Error(`webhook event ${event.id} has no body built`);
  const { loopbackWebhooks } = config(env);
  const refused = endpointProblem(sub.endpoint, sandbox, loopbackWebhooks);
  if (refused)
    return {
      status: null,
      error: `endpoint not allowed: ${refused}`,
      excerpt: null,
      retryAfter: undefined,
      latencyMs: 0,
      final: true,
    };
  // Production endpoints: the name's addresses are checked at each attempt, not only when subscribed.
  if (!sandbox && !(loopbackWebhooks && loopbackEndpoint(sub.endpoint))) {
    const dns = await resolvedProblem(sub.endpoint, resolveName);
    if (dns)
      return {
        status: null,
        error: `endpoint not allowed: ${dns.reason}`,
        excerpt: null,
        retryAfter: undefined,
        latencyMs: 0,
        final: !dns.transient,
      };
  }
  const secrets = [
    sub.secret,
    ...(sub.previous_secret && sub.previous_secret_expires_at && sub.previous_secret_expires_at > nowIso()
      ? [sub.previous_secret]
      : []),
  ];
  // The signature's timestamp is the real time: receivers check it against their own clocks.
  return send(sub.endpoint, await webhookHeaders(secrets, event.uid, body), body, timeoutMs);
}

/**
 * Leases delivery `id` if it is due, nobody else holds it, and no earlier delivery of the same
 * reservation to the same subscription is still untried. Answers undefined when there is nothing
 * to do now; a delivery that is not due yet or keeps waiting for its predecessor is queued again.
 */
async function claim(
  env: Bindings,
  d1: D1Database,
  id: number,
  timeoutMs: number,
): Promise<repo.ClaimedDelivery | undefined> {
  const started = Date.now();
  for (;;) {
    const now = clockNow();
    const [claimed] = await repo.leaseDeliveries(d1, [id], iso(now), iso(now + timeoutMs + 15_000));
    if (claimed) return claimed;
    const row = await repo.deliveryState(d1, id);
    // Done, or another consumer holds it: nothing to do.
    if (row?.state !== "pending" || (row.lease_until && row.lease_until >= iso(now))) return undefined;
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
