/**
 * The outbox's dispatcher, shared by every kind of outbox row (webhook deliveries, messages):
 * each kind has a table of its own and a sender that registers itself (senders.ts), and the
 * shard is the source of truth. Three ways a due row gets attempted:
 * - sendNow(): right after the write that made it, the request itself attempts its property's
 *   due rows (a few), once it has answered. The commit-to-receiver path is then one attempt,
 *   not a hop through the queue, whose local simulation runs one batch at a time. A write may
 *   take those rows in its own batch instead (takeDueWithWrite), one round trip less, and hand
 *   them to the request; its dispatch then attempts what the writes took (sendTaken) and takes
 *   nothing more: whatever else the request wrote is the sweeper's.
 * - the queue: whatever sendNow leaves, every retry (sent with its delay), and the sweeper's finds.
 * - the sweeper: dispatchDue() from the cron queues what nobody took (a Worker stopped between the
 *   commit and the send), so nothing is lost.
 * A lease on the row (in each sender) keeps two attempts apart, so the paths never send twice.
 */

import type { MiddlewareHandler } from "hono";
import { controlDb } from "../db/handles";
import type { AppEnv, Bindings, Db, DeliveryMessage, OutboxKind } from "../env";
import { abortReason } from "../errors";
import { now as clockNow } from "../lib/clock";
import { batch, type Statement } from "../lib/d1";
import { shardsOf } from "../shards/directory.repo";
import { shardD1, shardDb } from "../shards/shards";
import { enqueue, kindOf, QUEUE_GRACE_MS } from "./queue";
import { attemptAll, dueRows, kinds, senderOf, type TakeDue } from "./senders";

/** How many rows of each kind a write's request attempts itself; more are left to the queue. */
const INLINE = 10;

const iso = (ms: number) => new Date(ms).toISOString();
const logged = (where: string) => (err: unknown) =>
  console.error(JSON.stringify({ level: "error", where, message: String((err as Error)?.stack ?? err) }));

/**
 * Queues shard `shard`'s due rows of every kind that no message is on its way for, `batch` at a
 * time, until `until` (epoch ms) when given; answers how many.
 */
export async function dispatchDue(
  env: Bindings,
  shard: number,
  o: { batch?: number; until?: number; kinds?: OutboxKind[] } = {},
): Promise<number> {
  const batch = o.batch ?? 500;
  const db = shardDb(shardD1(env, shard));
  let total = 0;
  for (const kind of o.kinds ?? kinds()) {
    for (let round = 0; round < 20; round++) {
      const [answered] = await db.batch([senderOf(kind).takeDue(db, taking(batch))]);
      const due = dueRows(answered);
      if (due.length) await enqueue(env, kind, due);
      total += due.length;
      if (due.length < batch || (o.until !== undefined && clockNow() > o.until)) break;
    }
  }
  return total;
}

/** The options of a takeDue now. */
function taking(limit: number, propertyId?: number): TakeDue {
  const now = clockNow();
  return { now: iso(now), graceBefore: iso(now - QUEUE_GRACE_MS), limit, propertyId };
}

/**
 * The statements that take the property's due rows of every kind, a few of each, to join a
 * write's own batch (after the statements that write them); sendTaken() attempts what they answered.
 */
export function takeDueWithWrite(db: Db, propertyId: number): Statement[] {
  return kinds().map((kind) => {
    const sender = senderOf(kind);
    return (sender.held?.take ?? sender.takeDue)(db, taking(INLINE, propertyId));
  });
}

/**
 * Attempts the property's due rows of every kind at once (a few of each, found in one round trip);
 * queues the rest of the shard's.
 */
export async function sendNow(env: Bindings, shard: number, propertyId: number | undefined): Promise<void> {
  const db = shardDb(shardD1(env, shard));
  const found = await batch(
    db,
    kinds().map((kind) => senderOf(kind).takeDue(db, taking(INLINE, propertyId))),
  );
  await sendTaken(env, shard, found, { held: false });
}

/**
 * Attempts the rows takeDueWithWrite's statements (or, `held: false`, sendNow's) answered, in
 * their order; queues the rest of the shard's when they were a full take.
 */
export async function sendTaken(
  env: Bindings,
  shard: number,
  answered: readonly unknown[],
  o = { held: true },
): Promise<void> {
  const all = kinds();
  await Promise.all(
    all.map(async (kind, i) => {
      const due = dueRows(answered[i] ?? []);
      if (!due.length) return;
      const held = o.held ? senderOf(kind).held : undefined;
      const failed = await (held
        ? held.attempt(env, shard, answered[i])
        : attemptAll(
            env,
            kind,
            shard,
            due.map((r) => r.id),
          ));
      for (const err of failed.values()) logged(`${kind} attempt`)(err);
      if (due.length === INLINE) await dispatchDue(env, shard, { kinds: [kind] });
    }),
  );
}

/**
 * After a successful write, send what it put in the outbox, without holding the answer. If this
 * never runs (the Worker stopped), the cron's sweeper finds the rows within a minute.
 */
export function dispatchAfterWrite(): MiddlewareHandler<AppEnv> {
  return async function dispatchAfterWriteMiddleware(c, next) {
    await next();
    const shard = c.get("shard");
    if (c.req.method === "GET" || shard === undefined) return;
    // what the request's writes took in their own batches (takeDueWithWrite), whatever it answered; or else a take now
    const taken = c.get("outboxTaken") ?? [];
    if (taken.length)
      c.executionCtx.waitUntil(
        Promise.all(taken.map((answered) => sendTaken(c.env, shard, answered))).catch(
          logged("outbox dispatch"),
        ),
      );
    else if (c.res.status < 400)
      c.executionCtx.waitUntil(sendNow(c.env, shard, c.get("property")?.id).catch(logged("outbox dispatch")));
  };
}

/**
 * The queue consumer: each message is one attempt, in the shard the directory names for its
 * property (a property moved since the message was sent is found where it is now). The batch's
 * rows of one kind in one shard are attempted together (attemptAll: a few round trips for all).
 * A property being moved waits; a crash leaves the message to the queue's retry.
 */
export async function consume(batch: MessageBatch<DeliveryMessage>, env: Bindings): Promise<void> {
  const control = controlDb(env.DB);
  const entries = await shardsOf(control, [
    ...new Set(batch.messages.map((m) => m.body.property_id).filter(Number.isInteger)),
  ]);
  const groups = new Map<string, { kind: OutboxKind; shard: number; messages: Message<DeliveryMessage>[] }>();
  for (const message of batch.messages) {
    const kind = kindOf(message.body);
    const entry = entries.get(message.body.property_id);
    if (!entry || !kind)
      message.ack(); // no such property, or a message of another format: nothing to send
    else if (entry.movingSince) message.retry({ delaySeconds: 5 });
    else {
      const key = `${kind}:${entry.shard}`;
      const group = groups.get(key) ?? { kind, shard: entry.shard, messages: [] };
      groups.set(key, group);
      group.messages.push(message);
    }
  }
  await Promise.all([...groups.values()].map((g) => consumeGroup(env, g.kind, g.shard, g.messages)));
}

/** One kind's messages of one shard: attempted together; each failed one is retried by the queue. */
async function consumeGroup(
  env: Bindings,
  kind: OutboxKind,
  shard: number,
  messages: Message<DeliveryMessage>[],
): Promise<void> {
  const ids = messages.map((m) => m.body.delivery_id);
  const failed = await attemptAll(env, kind, shard, ids).catch(
    (err: unknown) => new Map(ids.map((id) => [id, err])),
  );
  for (const message of messages) {
    const { delivery_id } = message.body;
    if (!failed.has(delivery_id)) {
      message.ack();
      continue;
    }
    const err = failed.get(delivery_id);
    // The property started moving mid-attempt: its shard refuses the bookkeeping; try again there later.
    if (!abortReason(err, ["property_moving"] as const)) {
      console.error(
        JSON.stringify({
          level: "error",
          where: "outbox consumer",
          kind,
          delivery_id,
          message: String((err as Error)?.stack ?? err),
        }),
      );
    }
    message.retry({ delaySeconds: 5 });
  }
}
