/** The shapes of the payments API: a restaurant's Stripe account, its onboarding link, a refund. */
import { z } from "@hono/zod-openapi";

export const PaymentAccountSchema = z
  .object({
    account_id: z.string().openapi({ example: "acct_1Q2w3E4r5T6y7U8i" }),
    charges_enabled: z
      .boolean()
      .openapi({ description: "the account can take payments: services may ask for them" }),
    details_submitted: z.boolean().openapi({ description: "the restaurant finished Stripe's onboarding" }),
    default_currency: z.string().nullable().openapi({ example: "EUR" }),
  })
  .openapi("PaymentAccount");

export const OnboardingLinkSchema = z
  .object({
    url: z
      .string()
      .openapi({ description: "Stripe's onboarding for the restaurant: single use, short-lived" }),
    expires_at: z.string().openapi({ description: "UTC instant", example: "2026-12-01T18:05:00.000Z" }),
  })
  .openapi("PaymentOnboardingLink");

export const ConnectBody = z
  .object({
    return_url: z.string().url().optional().openapi({
      description: "where Stripe sends the restaurant back (default: the console's restaurant page)",
    }),
    refresh_url: z
      .string()
      .url()
      .optional()
      .openapi({ description: "where Stripe sends a restaurant whose link expired (default: return_url)" }),
  })
  .openapi("PaymentConnect");

export const RefundBody = z
  .object({
    amount: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: "minor units; default: all that is left of what was paid" }),
  })
  .openapi("PaymentRefund");
