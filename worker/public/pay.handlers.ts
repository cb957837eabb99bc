/**
 * The guest's payment step (the widget's, and the hosted pay page's): the intent to confirm with
 * Stripe.js, made on the first visit. Nothing owed (paid, saved, expired, cancelled) is a 404. An
 * intent Stripe already has as paid, whose event has not come yet, is applied here at once.
 */
import type { Context } from "hono";
import { refundDeadline, settled } from "../../shared/payment";
import type { PublicPay } from "../../shared/public";
import { resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { localToUtc } from "../lib/zone";
import { GUEST } from "../payments/actor";
import { applyPaymentIntent, applySetupIntent } from "../payments/apply";
import { currentIntent } from "../payments/intents";
import { guestProperty, PRIVATE } from "./access";
import { findManaged } from "./guest";

const nothingOwed = () =>
  new ApiError(
    "reservation_not_found",
    "this booking owes nothing now: it is paid, or no longer waits for a payment",
  );

export async function pay(c: Context<AppEnv>, { public_key, token }: { public_key: string; token: string }) {
  const property = await guestProperty(c, public_key);
  const db = c.get("db");
  const found = await findManaged(db, property, token);
  const row = found.row;
  const p = row.payment;
  const account = property.paymentAccount?.id;
  if (!p || settled(p) || row.status !== "PREPAY" || !account) throw nothingOwed();
  const cfg = config(c.env);
  const guest = found.guest;
  const { ref, intent } = await currentIntent({
    db,
    stripe: cfg.stripe,
    account,
    row,
    guest: {
      email: guest?.email ?? null,
      name: [guest?.first_name, guest?.last_name].filter(Boolean).join(" ") || null,
    },
    restaurant: property.name,
  });
  if (intent.intent.status === "succeeded") {
    // Paid, and its event not here yet: applied now, so the page says so.
    const ctx = { db, property, actor: GUEST, linkSecret: cfg.linkSecret };
    if (intent.kind === "payment") await applyPaymentIntent(ctx, cfg.stripe, ref, intent.intent);
    else await applySetupIntent(ctx, ref, intent.intent);
    throw nothingOwed();
  }
  const tz = resolveSettings(property.settings).timezone;
  const answer: PublicPay = {
    reservation_id: row.id,
    mode: p.mode,
    amount: p.amount,
    currency: p.currency,
    refund_until: new Date(refundDeadline(localToUtc(tz, row.startMin), p.refund_until)).toISOString(),
    no_show_fee: p.no_show_fee,
    intent: intent.kind,
    client_secret: intent.intent.client_secret!,
    publishable_key: cfg.stripe.publishableKey ?? "",
    stripe_account: account,
    stripe_js_url: cfg.stripe.jsUrl,
    status: p.status,
    failure: p.failure,
    due_at: row.paymentDueAt,
  };
  return c.json({ data: [answer] }, 200, PRIVATE);
}
