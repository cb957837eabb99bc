/**
 * Stripe's events (POST /payments/stripe/events): verified with the SDK against the webhook secret,
 * routed by the connected account they name (the control database's directory finds its property,
 * hence its shard), and applied to the reservation whose intent they are about. Each event id is
 * recorded in the same batch as what it changes, so a replay changes nothing; events apply in any
 * order because the reservation's state decides; types we do not use are answered 200 and left.
 */
import type Stripe from "stripe";
import type { PaymentAccount } from "../../shared/payment";
import { controlDb } from "../db/handles";
import type { Bindings, Db, PropertyRow } from "../env";
import { getPropertyRows } from "../properties/properties.repo";
import type { BookingContext } from "../reservations/context";
import { getEntry } from "../shards/directory.repo";
import { shardD1, shardDb } from "../shards/shards";
import { STRIPE } from "./actor";
import { applyPaymentIntent, applyRefunded, applySetupIntent } from "./apply";
import { readIntent } from "./intents";
import * as repo from "./payments.repo";
import type { StripeConfig } from "./stripe";

export type EventAnswer = { received: true; applied: boolean; note?: string };

const USED = new Set([
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
  "setup_intent.succeeded",
  "setup_intent.setup_failed",
  "charge.refunded",
  "account.updated",
]);

interface Target {
  db: Db;
  property: PropertyRow;
  shard: number;
}

/**
 * Applies a verified event; answers what happened (always a 200 for Stripe) and the property it
 * touched (its shard's outbox is then sent at once).
 */
export async function applyEvent(
  env: Bindings,
  stripe: StripeConfig,
  event: Stripe.Event,
  linkSecret: string | undefined,
): Promise<{ answer: EventAnswer; target?: Target }> {
  if (!USED.has(event.type))
    return { answer: { received: true, applied: false, note: "not an event we use" } };
  const target = event.account ? await locate(env, event.account) : undefined;
  if (!target) return { answer: { received: true, applied: false, note: "no property has this account" } };
  return { answer: await applyTo(target, stripe, event, linkSecret), target };
}

async function applyTo(
  target: Target,
  stripe: StripeConfig,
  event: Stripe.Event,
  linkSecret: string | undefined,
): Promise<EventAnswer> {
  const record = [
    repo.recordEvent(target.db, { id: event.id, propertyId: target.property.id, type: event.type }),
  ];
  try {
    if (event.type === "account.updated")
      return await accountUpdated(target, event.data.object as Stripe.Account, record);
    const ctx: BookingContext = { db: target.db, property: target.property, actor: STRIPE, linkSecret };
    return await intentEvent(ctx, stripe, event, record);
  } catch (err) {
    if (repo.isReplay(err)) return { received: true, applied: false, note: "applied already" };
    throw err;
  }
}

/** The property of a connected account, read on its shard. */
async function locate(env: Bindings, account: string): Promise<Target | undefined> {
  const control = controlDb(env.DB);
  const propertyId = await repo.accountProperty(control, account);
  const entry = propertyId === undefined ? undefined : await getEntry(control, propertyId);
  if (!entry) return undefined;
  const db = shardDb(shardD1(env, entry.shard).withSession("first-primary"));
  const [property] = await getPropertyRows(db, [entry.id]);
  return property ? { db, property, shard: entry.shard } : undefined;
}

async function accountUpdated(
  target: Target,
  a: Stripe.Account,
  record: ReturnType<typeof repo.recordEvent>[],
) {
  const state: PaymentAccount = {
    id: a.id,
    charges_enabled: !!a.charges_enabled,
    details_submitted: !!a.details_submitted,
    default_currency: a.default_currency?.toUpperCase() ?? null,
  };
  await target.db.batch([repo.setAccountState(target.db, target.property.id, state), ...record]);
  return { received: true as const, applied: true };
}

/**
 * An intent's or a charge's event: the reservation is found by the intent; the intent is read from
 * Stripe again, so what applies is Stripe's state now, whatever order the events came in.
 */
async function intentEvent(
  ctx: BookingContext,
  stripe: StripeConfig,
  event: Stripe.Event,
  record: ReturnType<typeof repo.recordEvent>[],
): Promise<EventAnswer> {
  const object = event.data.object as { object: string; id: string; payment_intent?: string | null };
  const intentId = object.object === "charge" ? object.payment_intent : object.id;
  const ref = intentId ? await repo.refByIntent(ctx.db, intentId) : undefined;
  if (!ref) {
    await ctx.db.batch([record[0]!]);
    return { received: true, applied: false, note: "no reservation has this intent" };
  }
  if (object.object === "charge")
    return answer(await applyRefunded(ctx, ref, event.data.object as Stripe.Charge, record));
  const now = await readIntent(stripe, { account: ref.account, intent: intentId! });
  const applied =
    now.kind === "payment"
      ? await applyPaymentIntent(ctx, stripe, ref, now.intent, record)
      : await applySetupIntent(ctx, ref, now.intent, record);
  return answer(applied);
}

async function answer(applied: { changed: boolean }): Promise<EventAnswer> {
  return { received: true, applied: applied.changed };
}
