/**
 * The queue's side of the outbox: "attempt row N of kind K of property P". A webhook delivery's
 * message keeps its first shape, `{property_id, delivery_id}`; other kinds add `kind`.
 */
import type { Bindings, DeliveryMessage, OutboxKind } from "../env";

/** Queues limit a message's delay to 12 hours; a longer wait is queued again on arrival. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;
/** A queued row not acted on within this long is queued again by the sweeper. */
export const QUEUE_GRACE_MS = 60_000;

export interface Due {
  id: number;
  property_id: number;
}

export function queueMessage(kind: OutboxKind, row: Due): DeliveryMessage {
  return kind === "webhook"
    ? { property_id: row.property_id, delivery_id: row.id }
    : { property_id: row.property_id, delivery_id: row.id, kind };
}

/** The kind a queue message names; a message without one is a webhook delivery. */
export function kindOf(body: DeliveryMessage): OutboxKind | undefined {
  const kind = body.kind ?? "webhook";
  return kind === "webhook" || kind === "message" ? kind : undefined;
}

export async function enqueue(env: Bindings, kind: OutboxKind, rows: Due[], delaySeconds = 0): Promise<void> {
  const delay = Math.min(Math.ceil(delaySeconds), MAX_QUEUE_DELAY_SECONDS);
  for (let i = 0; i < rows.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(
      rows.slice(i, i + 100).map((r) => ({ body: queueMessage(kind, r), delaySeconds: delay })),
    );
  }
}
