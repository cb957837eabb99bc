/**
 * A customer's erasure, and what else it scrubs. Whoever keeps copies of a guest's data outside
 * the reservations (their emails, say) registers a step here (worker/wiring.ts does, at start);
 * the customers feature names none of them. Each step gives statements for the erasure's own
 * batch, so no copy outlives the erasure, and the erasure never lands without them.
 */
import type { SQLWrapper } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import type { Statement } from "../lib/d1";
import type { CustomerRow } from "./customers.repo";
import * as repo from "./customers.repo";

/** Statements that scrub the erased customer's reservations, selected by `reservationIds` (SQL). */
export type ErasureStep = (db: Db, reservationIds: SQLWrapper) => Statement[];

const steps: ErasureStep[] = [];

/** Adds a step once; steps run in the order they were registered, after the erasure's own statements. */
export function registerErasure(step: ErasureStep): void {
  if (!steps.includes(step)) steps.push(step);
}

/** Who is erased, for the copies kept outside the property's shard (the stored answers of idempotent writes). */
export interface ErasedPerson {
  customerId: number;
  email: string | null;
  phone: string | null;
}

/** Forgets the copies of an erased person kept outside the shard; may run more than once. */
export type ForgetStep = (env: Bindings, person: ErasedPerson) => Promise<void>;

const forgetSteps: ForgetStep[] = [];

export function registerForget(step: ForgetStep): void {
  if (!forgetSteps.includes(step)) forgetSteps.push(step);
}

/**
 * Erases the customer's personal data and every registered copy of it: the shard's copies in one
 * batch, the copies elsewhere before it (so a failed erasure leaves none behind) and after it
 * (for one written meanwhile).
 */
export async function eraseCustomer(
  env: Bindings,
  db: Db,
  customer: CustomerRow,
  actor: string,
): Promise<void> {
  const person = { customerId: customer.id, email: customer.email, phone: customer.phone };
  const forget = () => Promise.all(forgetSteps.map((step) => step(env, person)));
  await forget();
  await repo.eraseCustomer(db, customer.id, actor, (reservationIds) =>
    steps.flatMap((step) => step(db, reservationIds)),
  );
  await forget();
}
