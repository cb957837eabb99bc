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
  /** statements for the change's own batch, after the reservation's */
  plan?(change: ReservationChange): Promise<Statement[]>;
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
  for (const r of registry) if (r.amend) Object.assign(out, await r.amend({ ...change, after: { ...change.after, ...out } }));
  return out;
}

/** Every reaction's statements for the change's batch, in registration order. */
export async function reactionStatements(change: ReservationChange): Promise<Follow> {
  const early = await Promise.all(registry.map((r) => (r.planLast ? null : (r.plan?.(change) ?? []))));
  const lists = await Promise.all(registry.map((r, i) => early[i] ?? r.plan?.(change) ?? []));
  return { statements: lists.flat(), counts: lists.map((l) => l.length) };
}

/** Tells every reaction the change committed, each with the answers of its own statements (`answered`: all of `follow`'s). */
export function afterCommit(change: ReservationChange, row: ReservationRow, follow: Follow, answered: readonly unknown[]): void {
  let at = 0;
  registry.forEach((r, i) => {
    const n = follow.counts[i] ?? 0;
    r.committed?.(change, row, answered.slice(at, at + n));
    at += n;
  });
}
