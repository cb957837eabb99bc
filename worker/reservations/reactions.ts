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
  /** once the batch has committed; never fails the change (errors are the reaction's to log) */
  committed?(change: ReservationChange, row: ReservationRow): void;
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
export async function reactionStatements(change: ReservationChange): Promise<Statement[]> {
  const lists = await Promise.all(registry.map((r) => r.plan?.(change) ?? []));
  return lists.flat();
}

export function afterCommit(change: ReservationChange, row: ReservationRow): void {
  for (const r of registry) r.committed?.(change, row);
}
