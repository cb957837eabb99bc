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
import { ReservationCreate } from "./reservations.schemas";

const preloaded = new WeakMap<Context<AppEnv>, CustomerRead>();

const CREATE_PATH = /\/reservations\/?$/;

/** The reads of a POST /reservations whose body is a valid booking with a customer; anything else reads nothing extra. */
export async function bookingPreload(c: Context<AppEnv>): Promise<Preload | undefined> {
  if (c.req.method !== "POST" || !CREATE_PATH.test(c.req.path)) return undefined;
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return undefined;
  }
  const parsed = ReservationCreate.safeParse(body);
  if (!parsed.success || !parsed.data.customer) return undefined;
  const lookup: CustomerLookup = customerLookup(parsed.data.customer);
  return {
    statements: (db, propertyId) => customerQueries(db, propertyId, lookup),
    keep: (results) => preloaded.set(c, { lookup, results }),
  };
}

/** What the request read ahead for its booking: the customer's lookup, if any. */
export function firstRead(c: Context<AppEnv>): { customer?: CustomerRead | undefined } {
  return { customer: preloaded.get(c) };
}
