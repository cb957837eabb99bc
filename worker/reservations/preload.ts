/**
 * POST /reservations reads the customer's lookup in the round trip of the property row
 * (properties/binding.ts Preload). The day is not read here: the restaurant's booking desk
 * (./desk.ts) reads it, the one place that decides the restaurant's bookings. The first decision
 * takes the lookup when the validated body asks the same; a retry after a refused batch reads afresh.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { Preload } from "../properties/binding";
import type { CustomerRead } from "./customers";
import { type CustomerLookup, customerLookup, customerQueries } from "./reservations.repo";
import { CustomerInput } from "./reservations.schemas";

const preloaded = new WeakMap<Context<AppEnv>, CustomerRead>();

const CREATE_PATH = /\/reservations\/?$/;

/** The reads of a POST /reservations whose body has a valid customer; anything else reads nothing extra. */
export async function bookingPreload(c: Context<AppEnv>): Promise<Preload | undefined> {
  if (c.req.method !== "POST" || !CREATE_PATH.test(c.req.path)) return undefined;
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return undefined;
  }
  // Only the customer is read ahead: the route validates the whole body (an invalid one is refused
  // there, and its lookup is never used), so parsing all of it here would be done twice.
  const customer = CustomerInput.safeParse((body as { customer?: unknown } | null)?.customer);
  if (!customer.success) return undefined;
  const lookup: CustomerLookup = customerLookup(customer.data);
  return {
    statements: (db, propertyId) => customerQueries(db, propertyId, lookup),
    keep: (results) => preloaded.set(c, { lookup, results }),
  };
}

/** What the request read ahead for its booking: the customer's lookup, if any. */
export function firstRead(c: Context<AppEnv>): { customer?: CustomerRead | undefined } {
  return { customer: preloaded.get(c) };
}
