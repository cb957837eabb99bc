/**
 * A customer's erasure, and what else it scrubs. Whoever keeps copies of a guest's data outside
 * the reservations (their emails, say) registers a step here (worker/wiring.ts does, at start);
 * the customers feature names none of them. Each step gives statements for the erasure's own
 * batch, so no copy outlives the erasure, and the erasure never lands without them.
 */
import type { SQLWrapper } from "drizzle-orm";
import type { Db } from "../env";
import type { Statement } from "../lib/d1";
import * as repo from "./customers.repo";

/** Statements that scrub the erased customer's reservations, selected by `reservationIds` (SQL). */
export type ErasureStep = (db: Db, reservationIds: SQLWrapper) => Statement[];

const steps: ErasureStep[] = [];

/** Adds a step once; steps run in the order they were registered, after the erasure's own statements. */
export function registerErasure(step: ErasureStep): void {
  if (!steps.includes(step)) steps.push(step);
}

/** Erases the customer's personal data and every registered copy of it, in one batch. */
export async function eraseCustomer(db: Db, id: number, actor: string): Promise<void> {
  await repo.eraseCustomer(db, id, actor, (reservationIds) => steps.flatMap((step) => step(db, reservationIds)));
}
