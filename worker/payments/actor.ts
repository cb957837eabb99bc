/**
 * Who a money step is by, in the words of a reservation's history: the parties of the audit's one
 * actor model (audit/actor.ts: a member of staff at the console, an app, the guest, the system), and
 * Stripe telling us of the guest's own payment (shown as the system, named "stripe").
 */
export { GUEST, SYSTEM } from "../audit/actor";
/** The caller of an API request: the console's member of staff (`staff:<id>`) or an app (`client:<id>`). */
export { requestActor } from "../audit/audit";

export const STRIPE = "stripe";
