/**
 * The intent a guest pays (or saves a card) through: made on the connected account the first time
 * the pay step asks for it (so a booking's own answer waits for no Stripe call), then read back.
 * deposit and prepay make a PaymentIntent of the amount the policy gave the booking (never an amount
 * from the browser), with the platform's fee; guarantee makes a customer and a SetupIntent for later
 * use off session. Each is made under an idempotency key of the reservation and the step.
 */
import type Stripe from "stripe";
import { platformFee } from "../../shared/payment";
import type { Db } from "../env";
import type { ReservationRow } from "../reservations/reservations.repo";
import type { PaymentRef } from "./payments.repo";
import { getRef, keepIntent } from "./payments.repo";
import { atStripe, type StripeConfig, stepKey, stripeClient } from "./stripe";

export type Intent =
  | { kind: "payment"; intent: Stripe.PaymentIntent }
  | { kind: "setup"; intent: Stripe.SetupIntent };

export interface IntentFor {
  db: Db;
  stripe: StripeConfig;
  /** the restaurant's connected account */
  account: string;
  row: ReservationRow;
  guest: { email: string | null; name: string | null };
  restaurant: string;
}

/** The reservation's intent as Stripe has it now, made first when it has none. */
export async function currentIntent(o: IntentFor): Promise<{ ref: PaymentRef; intent: Intent }> {
  const known = await getRef(o.db, o.row.id);
  if (known?.intent) return { ref: known, intent: await readIntent(o.stripe, known) };
  const made = await makeIntent(o);
  const ref = await keepIntent(o.db, {
    reservationId: o.row.id,
    account: o.account,
    intent: made.intent.id,
    customer: made.customer ?? null,
  });
  return { ref, intent: ref.intent === made.intent.id ? made : await readIntent(o.stripe, ref) };
}

/** An intent read from Stripe, with what applying it needs (the charge's card, the saved card). */
export async function readIntent(
  stripe: StripeConfig,
  ref: Pick<PaymentRef, "intent" | "account">,
): Promise<Intent> {
  const client = stripeClient(stripe);
  const on = { stripeAccount: ref.account };
  if (ref.intent!.startsWith("seti_"))
    return {
      kind: "setup",
      intent: await atStripe(() =>
        client.setupIntents.retrieve(ref.intent!, { expand: ["payment_method"] }, on),
      ),
    };
  return {
    kind: "payment",
    intent: await atStripe(() =>
      client.paymentIntents.retrieve(ref.intent!, { expand: ["latest_charge"] }, on),
    ),
  };
}

async function makeIntent(o: IntentFor): Promise<Intent & { customer?: string }> {
  const client = stripeClient(o.stripe);
  const p = o.row.payment!;
  const metadata = { reservation_id: String(o.row.id), property_id: String(o.row.propertyId) };
  const description = `${o.restaurant}: reservation ${o.row.id}, ${o.row.startDate} ${o.row.startHour.slice(0, 5)}`;
  if (p.mode === "guarantee") {
    const customer = await atStripe(() =>
      client.customers.create(
        { email: o.guest.email ?? undefined, name: o.guest.name ?? undefined, metadata },
        { stripeAccount: o.account, idempotencyKey: stepKey(o.row.id, "customer") },
      ),
    );
    const intent = await atStripe(() =>
      client.setupIntents.create(
        {
          customer: customer.id,
          usage: "off_session",
          automatic_payment_methods: { enabled: true },
          description,
          metadata,
        },
        { stripeAccount: o.account, idempotencyKey: stepKey(o.row.id, "setup-intent") },
      ),
    );
    return { kind: "setup", intent, customer: customer.id };
  }
  const fee = platformFee(p.amount, o.stripe.platformFeeBps);
  const intent = await atStripe(() =>
    client.paymentIntents.create(
      {
        amount: p.amount,
        currency: p.currency.toLowerCase(),
        automatic_payment_methods: { enabled: true },
        description,
        metadata,
        ...(fee > 0 && { application_fee_amount: fee }),
        ...(o.guest.email && { receipt_email: o.guest.email }),
      },
      { stripeAccount: o.account, idempotencyKey: stepKey(o.row.id, "payment-intent") },
    ),
  );
  return { kind: "payment", intent };
}
