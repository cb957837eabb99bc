/**
 * The SQL of payments: the directory of connected accounts (control database), the account's state
 * on the property's row, Stripe's ids of each reservation's payment, and the Stripe events applied
 * in a shard (each once).
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { PaymentAccount } from "../../shared/payment";
import { paymentAccounts } from "../db/control.schema";
import { properties, reservationPayments, stripeEvents } from "../db/shard.schema";
import type { ControlDb, Db } from "../env";

export type PaymentRef = typeof reservationPayments.$inferSelect;

/** The property a connected account belongs to. */
export async function accountProperty(control: ControlDb, accountId: string): Promise<number | undefined> {
  const [row] = await control
    .select({ propertyId: paymentAccounts.propertyId })
    .from(paymentAccounts)
    .where(eq(paymentAccounts.accountId, accountId))
    .limit(1);
  return row?.propertyId;
}

/** The account a property connected (made once: a second POST reuses it). */
export async function propertyAccount(control: ControlDb, propertyId: number): Promise<string | undefined> {
  const [row] = await control
    .select({ accountId: paymentAccounts.accountId })
    .from(paymentAccounts)
    .where(eq(paymentAccounts.propertyId, propertyId))
    .limit(1);
  return row?.accountId;
}

/** Files a new account under its property; answers the property's account, whichever was filed first. */
export async function fileAccount(
  control: ControlDb,
  propertyId: number,
  accountId: string,
): Promise<string> {
  await control.insert(paymentAccounts).values({ accountId, propertyId }).onConflictDoNothing();
  return (await propertyAccount(control, propertyId)) ?? accountId;
}

/** The account's state on the property's row, as Stripe last told it. */
export function setAccountState(db: Db, propertyId: number, account: PaymentAccount) {
  return db.update(properties).set({ paymentAccount: account }).where(eq(properties.id, propertyId));
}

export async function getRef(db: Db, reservationId: number): Promise<PaymentRef | undefined> {
  const [row] = await db
    .select()
    .from(reservationPayments)
    .where(eq(reservationPayments.reservationId, reservationId))
    .limit(1);
  return row;
}

/** The reservation whose payment (or no-show fee) is this intent. */
export async function refByIntent(db: Db, intent: string): Promise<PaymentRef | undefined> {
  const [row] = await db
    .select()
    .from(reservationPayments)
    .where(or(eq(reservationPayments.intent, intent), eq(reservationPayments.feeIntent, intent)))
    .limit(1);
  return row;
}

/**
 * Keeps the intent made for a reservation: the first one stays (two first visits of a pay page made
 * the same intent, through the same idempotency key, anyway). Answers the row as it is now.
 */
export async function keepIntent(
  db: Db,
  ref: Pick<PaymentRef, "reservationId" | "account" | "intent" | "customer">,
): Promise<PaymentRef> {
  const [, , [row]] = await db.batch([
    db
      .insert(reservationPayments)
      .values({ ...ref, intent: null })
      .onConflictDoNothing(),
    db
      .update(reservationPayments)
      .set({ intent: ref.intent, customer: ref.customer })
      .where(
        and(eq(reservationPayments.reservationId, ref.reservationId), isNull(reservationPayments.intent)),
      ),
    db.select().from(reservationPayments).where(eq(reservationPayments.reservationId, ref.reservationId)),
  ]);
  return row!;
}

/** The card a guarantee saved (to charge a no-show off session). */
export function savePaymentMethod(db: Db, reservationId: number, paymentMethod: string) {
  return db
    .update(reservationPayments)
    .set({ paymentMethod })
    .where(eq(reservationPayments.reservationId, reservationId));
}

/** The no-show fee's own PaymentIntent. */
export function keepFeeIntent(db: Db, reservationId: number, feeIntent: string) {
  return db
    .update(reservationPayments)
    .set({ feeIntent })
    .where(eq(reservationPayments.reservationId, reservationId));
}

/** The record of an applied event: a second one with the same id fails its batch (the replay changes nothing). */
export function recordEvent(db: Db, e: { id: string; propertyId: number; type: string }) {
  return db.insert(stripeEvents).values(e);
}

/** Whether a failed batch failed on an event recorded already. */
export function isReplay(err: unknown): boolean {
  return /UNIQUE constraint failed: stripe_events\.id/.test(String((err as Error)?.message ?? err));
}

/** Events kept past Stripe's retries are dropped (the cron). */
export async function purgeEvents(db: Db, before: string): Promise<void> {
  await db.delete(stripeEvents).where(lt(stripeEvents.at, before));
}

/** Today's count of events in the shard (tests and the bench). */
export async function countEvents(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(stripeEvents);
  return row?.n ?? 0;
}
