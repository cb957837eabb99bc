/**
 * The outbox's senders, one per kind of row: each feature that writes outbox rows registers its
 * own (worker/wiring.ts, at start), so the dispatcher names none of them.
 */
import type { Bindings, Db, OutboxKind } from "../env";
import type { Statement } from "../lib/d1";
import type { Due } from "./queue";

/** What a takeDue statement takes: rows due by `now`, not queued since `graceBefore`, at most `limit`. */
export interface TakeDue {
  now: string;
  graceBefore: string;
  limit: number;
  /** that property's only */
  propertyId?: number | undefined;
}

/** The rows a takeDue statement answered in a batch, oldest first. */
export const dueRows = (answered: unknown): Due[] => [...(answered as Due[])].sort((a, b) => a.id - b.id);

export interface Sender {
  /**
   * the statement that marks due rows as queued now and answers them (id, property_id). A
   * statement, so every kind is asked in one round trip, or in a write's own batch.
   */
  takeDue(db: Db, o: TakeDue): Statement;
  /** one attempt of row `id`, if it is due and nobody else holds it */
  attempt(env: Bindings, shard: number, id: number): Promise<void>;
  /**
   * one attempt of each of rows `ids` of one shard, in fewer round trips than one by one;
   * answers the ids whose attempt failed on our side. Without it, attemptAll tries each alone.
   */
  attemptMany?(env: Bindings, shard: number, ids: number[]): Promise<Map<number, unknown>>;
  /**
   * Both or neither: the statement a write's own batch takes due rows by, each held for its
   * attempt already (takeDue's rows, leased, with what sending them needs), and the attempt of
   * what it answered. The request that wrote them skips the round trip of taking its hold.
   */
  held?: {
    take(db: Db, o: TakeDue): Statement;
    attempt(env: Bindings, shard: number, answered: unknown): Promise<Map<number, unknown>>;
  };
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

/** One attempt of each of rows `ids` of kind `kind` in shard `shard`; answers the failed ids with their errors. */
export async function attemptAll(
  env: Bindings,
  kind: OutboxKind,
  shard: number,
  ids: number[],
): Promise<Map<number, unknown>> {
  const sender = senderOf(kind);
  if (sender.attemptMany) return sender.attemptMany(env, shard, ids);
  const failed = new Map<number, unknown>();
  await Promise.all(
    ids.map((id) => sender.attempt(env, shard, id).catch((err: unknown) => failed.set(id, err))),
  );
  return failed;
}
