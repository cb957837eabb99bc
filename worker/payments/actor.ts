/**
 * Who a money step is by, in the words of a reservation's history ("client:<id>",
 * "console:<property_id>", "guest", "system"...): kept here, in one place, so a richer actor (a named
 * member of staff) plugs in without touching the steps.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";

/** Stripe telling us of the guest's own payment, or the cron. */
export const STRIPE = "stripe";
export const SYSTEM = "system";
export const GUEST = "guest";

/** The caller of an API request (an integrator's client, or the restaurant's console). */
export function requestActor(c: Context<AppEnv>): string {
  return c.get("client").actor;
}
