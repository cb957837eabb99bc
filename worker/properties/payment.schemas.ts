/**
 * A service's payment policy as the API takes and shows it (shared/payment.ts applies it), and the
 * rule that a restaurant whose Stripe account cannot take charges cannot turn one on.
 */
import { z } from "@hono/zod-openapi";
import { PAYMENT_MODES, type PaymentPolicy } from "../../shared/payment";
import type { PropertyRow } from "../env";
import { invalidField } from "../errors";

const minor = z.number().int().min(0).max(10_000_000);

export const PaymentPolicySchema = z
  .object({
    mode: z.enum(PAYMENT_MODES),
    amount: minor.openapi({
      description: "minor units (cents): per guest or per booking; 0 for a guarantee",
    }),
    per: z.enum(["guest", "booking"]),
    currency: z.string().openapi({ description: "ISO 4217", example: "EUR" }),
    from_pax: z.number().int().openapi({ description: "only parties of this size or more are asked" }),
    refund_until: z.number().int().openapi({
      description:
        "minutes before the start: a guest's cancellation earlier is refunded in full, later the money is kept",
    }),
    no_show_fee: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "guarantee: minor units per guest charged for a no-show" }),
  })
  .openapi("PaymentPolicy", {
    example: {
      mode: "deposit",
      amount: 2000,
      per: "guest",
      currency: "EUR",
      from_pax: 6,
      refund_until: 1440,
      no_show_fee: null,
    },
  });

/** The policy a create or update body gives: defaults filled, each mode's amounts checked. */
export const paymentPolicyOf = z
  .object({
    mode: z.enum(PAYMENT_MODES),
    amount: minor.default(0),
    per: z.enum(["guest", "booking"]).default("guest"),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "expected an ISO 4217 currency code, like EUR")
      .transform((c) => c.toUpperCase()),
    from_pax: z.number().int().min(1).max(1000).default(1),
    refund_until: z.number().int().min(0).max(43_200).default(1440),
    no_show_fee: minor.min(50).nullable().default(null),
  })
  .superRefine((p, ctx) => {
    if (p.mode !== "guarantee" && p.amount < 50)
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: `a ${p.mode} takes at least 50 minor units`,
      });
    if (p.mode === "guarantee" && p.amount !== 0)
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: "a guarantee takes nothing when booking: amount 0",
      });
    if (p.mode === "guarantee" && p.no_show_fee === null)
      ctx.addIssue({
        code: "custom",
        path: ["no_show_fee"],
        message: "a guarantee needs its no-show fee per guest",
      });
  }) satisfies z.ZodType<PaymentPolicy, unknown>;

/** A paying policy needs a connected Stripe account that can take charges. */
export function checkPaymentAccount(property: PropertyRow, policy: PaymentPolicy | null | undefined) {
  if (!policy) return;
  const account = property.paymentAccount;
  if (!account)
    throw invalidField(
      "payment",
      `connect the restaurant's Stripe account first: POST /properties/${property.id}/payments/account answers the onboarding link`,
    );
  if (!account.charges_enabled)
    throw invalidField(
      "payment",
      `the restaurant's Stripe account ${account.id} cannot take charges yet: finish Stripe's onboarding (POST /properties/${property.id}/payments/account answers a new link)`,
    );
}
