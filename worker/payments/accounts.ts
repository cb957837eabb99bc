/**
 * A restaurant's Stripe account (Stripe Connect): made once on the first request, then a fresh
 * onboarding link each time; its state (can it take charges?) is what Stripe's account.updated
 * events last said, kept on the property's row, so a service's paying policy is checked without a
 * call to Stripe.
 */
import type Stripe from "stripe";
import type { PaymentAccount } from "../../shared/payment";
import type { ControlDb, Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import * as repo from "./payments.repo";
import { atStripe, type StripeConfig, stripeClient } from "./stripe";

export function accountState(a: Stripe.Account): PaymentAccount {
  return {
    id: a.id,
    charges_enabled: !!a.charges_enabled,
    details_submitted: !!a.details_submitted,
    default_currency: a.default_currency?.toUpperCase() ?? null,
  };
}

/** The property's account (made now when it has none) and Stripe's onboarding link for it. */
export async function connect(
  o: { control: ControlDb; db: Db; stripe: StripeConfig; property: PropertyRow },
  urls: { return_url: string; refresh_url: string },
): Promise<{ url: string; expires_at: string }> {
  const client = stripeClient(o.stripe);
  let account = await repo.propertyAccount(o.control, o.property.id);
  if (!account) {
    const made = await atStripe(() =>
      client.accounts.create(
        {
          type: "standard",
          ...(o.property.email && { email: o.property.email }),
          metadata: { property_id: String(o.property.id) },
        },
        // the public key too: property ids are reused by a fresh local database, Stripe's keys live 24 h
        { idempotencyKey: `property-${o.property.id}-${o.property.publicKey}-account` },
      ),
    );
    account = await repo.fileAccount(o.control, o.property.id, made.id);
    if (account === made.id) await repo.setAccountState(o.db, o.property.id, accountState(made));
  }
  const link = await atStripe(() =>
    client.accountLinks.create({ account: account!, type: "account_onboarding", ...urls }),
  );
  return { url: link.url, expires_at: new Date(link.expires_at * 1000).toISOString() };
}

/** The account as the API shows it; 404 while none is connected. */
export function accountDto(property: PropertyRow) {
  const a = property.paymentAccount;
  if (!a)
    throw new ApiError(
      "not_found",
      `property ${property.id} has no Stripe account: POST /properties/${property.id}/payments/account connects one`,
    );
  return {
    account_id: a.id,
    charges_enabled: a.charges_enabled,
    details_submitted: a.details_submitted,
    default_currency: a.default_currency,
  };
}
