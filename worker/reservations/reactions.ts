/**
 * What follows a reservation's change plugs in here: guest and restaurant messages, waiting-list
 * offers, the console's live feed. Each registers itself (worker/wiring.ts, at start); the
 * booking code hands every change to all of them and names none. A reaction's statements join the
 * change's own batch, so a change is never written without what follows it, nor the reverse.
 *
 * Webhook events and search-engine notices need no entry: the shard's triggers write them in the
 * same batch from the rows themselves, whichever code wrote them.
 */
import type { SQL } from "drizzle-orm";
import type { Db } from "../env";
import type { Statement } from "../lib/d1";
import type { BookingContext } from "./context";
import type { ReservationRow } from "./reservations.repo";

/** One change of a reservation, as the reactions see it before it is written. */
export interface ReservationChange {
  ctx: BookingContext;
  /** null: the reservation is being created */
  before: ReservationRow | null;
  /** the reservation as the write leaves it (a new one has no id yet: see `reservationId`) */
  after: ReservationRow;
  /** its id, or for a reservation inserted in the same batch the SQL that reads it */
  reservationId: number | SQL;
  /** its version once written (a calendar entry's SEQUENCE) */
  version: number;
  /** the history's name of the move: "created", "updated", "checkin", "cancelled", "expired_unpaid"... */
  action: string;
  /** the change frees the tables the reservation held */
  releasesTables: boolean;
}

export type { Statement };

export interface ReservationReaction {
  readonly name: string;
  /** fields the reaction adds to the row before it is written (a manage link, say) */
  amend?(change: ReservationChange): Promise<Partial<ReservationRow>>;
  /**
   * statements read with reservation `reservationId` and its property's row, in the first round
   * trip of a request that may change it; what they answer reaches `plan` as `preloaded`
   */
  preload?(db: Db, propertyId: number, reservationId: number): Statement[];
  /**
   * statements for the change's own batch, after the reservation's; `preloaded`: what `preload`'s
   * statements answered, on a change of the row read with them (a retry reads afresh: none)
   */
  plan?(change: ReservationChange, preloaded?: readonly unknown[]): Promise<Statement[]>;
  /** plans only once every other reaction has (its statements read what theirs write, due when they said) */
  planLast?: boolean;
  /**
   * once the batch has committed, with what its own statements answered in it; never fails the
   * change (errors are the reaction's to log)
   */
  committed?(change: ReservationChange, row: ReservationRow, answered: readonly unknown[]): void;
}

/** What follows a change in its batch: every reaction's statements, and how many are whose. */
export interface Follow {
  statements: Statement[];
  counts: number[];
}

const registry: ReservationReaction[] = [];

/** Adds a reaction once (by name); reactions run in the order they were registered. */
export function registerReaction(reaction: ReservationReaction): void {
  if (!registry.some((r) => r.name === reaction.name)) registry.push(reaction);
}

/** Every reaction's additions to the row, merged in registration order. */
export async function amendments(change: ReservationChange): Promise<Partial<ReservationRow>> {
  const out: Partial<ReservationRow> = {};
  for (const r of registry)
    if (r.amend) Object.assign(out, await r.amend({ ...change, after: { ...change.after, ...out } }));
  return out;
}

/** What every reaction reads with reservation `reservationId`, for a request that may change it. */
export function reactionPreloads(db: Db, propertyId: number, reservationId: number): Follow {
  const lists = registry.map((r) => r.preload?.(db, propertyId, reservationId) ?? []);
  return { statements: lists.flat(), counts: lists.map((l) => l.length) };
}

/** Each reaction's preload answers, by the row read with them: a change of that very row gets them, once. */
const preloads = new WeakMap<ReservationRow, (readonly unknown[])[]>();

/** Keeps what `preload`'s statements answered (`answered`: all of `follow`'s) for the changes of `row`. */
export function keepPreloads(row: ReservationRow, follow: Follow, answered: readonly unknown[]): void {
  preloads.set(row, byReaction(follow, answered));
}

/** Every reaction's statements for the change's batch, in registration order. */
export async function reactionStatements(change: ReservationChange): Promise<Follow> {
  const pre = change.before ? preloads.get(change.before) : undefined;
  if (change.before) preloads.delete(change.before);
  const plan = (r: ReservationReaction, i: number) => r.plan?.(change, pre?.[i]) ?? [];
  const early = await Promise.all(registry.map((r, i) => (r.planLast ? null : plan(r, i))));
  const lists = await Promise.all(registry.map((r, i) => early[i] ?? plan(r, i)));
  return { statements: lists.flat(), counts: lists.map((l) => l.length) };
}

/** Tells every reaction the change committed, each with the answers of its own statements (`answered`: all of `follow`'s). */
export function afterCommit(
  change: ReservationChange,
  row: ReservationRow,
  follow: Follow,
  answered: readonly unknown[],
): void {
  const own = byReaction(follow, answered);
  for (const [i, r] of registry.entries()) r.committed?.(change, row, own[i] ?? []);
}

/** `answered` cut into each reaction's own answers, by `follow`'s counts. */
function byReaction(follow: Follow, answered: readonly unknown[]): (readonly unknown[])[] {
  let at = 0;
  return registry.map((_, i) => {
    const from = at;
    at += follow.counts[i] ?? 0;
    return answered.slice(from, at);
  });
}
