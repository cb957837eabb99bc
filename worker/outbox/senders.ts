/**
 * The outbox's senders, one per kind of row: each feature that writes outbox rows registers its
 * own (worker/wiring.ts, at start), so the dispatcher names none of them.
 */
import type { Bindings, OutboxKind } from "../env";
import type { Due } from "./queue";

export interface Sender {
  /** marks due rows as queued now and answers them; `propertyId`: that property's only */
  takeDue(d1: D1Database, o: { now: string; graceBefore: string; limit: number; propertyId?: number | undefined }): Promise<Due[]>;
  /** one attempt of row `id`, if it is due and nobody else holds it */
  attempt(env: Bindings, shard: number, id: number): Promise<void>;
}

const senders = new Map<OutboxKind, Sender>();

export function registerSender(kind: OutboxKind, sender: Sender): void {
  senders.set(kind, sender);
}

/** The kinds with a sender, in the order they registered. */
export function kinds(): OutboxKind[] {
  return [...senders.keys()];
}

export function senderOf(kind: OutboxKind): Sender {
  const sender = senders.get(kind);
  if (!sender) throw new Error(`no outbox sender registered for "${kind}"`);
  return sender;
}
