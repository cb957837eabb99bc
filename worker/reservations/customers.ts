/** The customer of a booking: found by id, email or phone, planned, never written here. */
import type { Db } from "../env";
import { ApiError, invalidField } from "../errors";
import { batch, type Statement } from "../lib/d1";
import type { BookingContext } from "./context";
import type { CustomerInput } from "./reservations.repo";
import * as repo from "./reservations.repo";

/** A booking's customer as the request gives it: by id (staff), or the details typed. */
export type CustomerGiven = CustomerInput & { id?: number | undefined };

/** What a lookup found, read ahead with the property row (the lookup says which input it answers). */
export interface CustomerRead {
  lookup: repo.CustomerLookup;
  results: readonly unknown[];
}

/** The input rules of a customer given without an id: a name, and an email or a phone. */
export function checkCustomerInput(input: CustomerGiven | undefined) {
  if (!input || input.id !== undefined) return;
  if (!input.first_name && !input.last_name)
    throw invalidField("customer.first_name", "give the customer's first or last name");
  if (!input.email && !input.phone)
    throw invalidField("customer.email", "give the customer's email or phone");
}

/** Independent reads in one round trip (none, one, or a batch). */
export function readAll(db: Db, statements: Statement[]): Promise<readonly unknown[]> {
  return batch(db, statements);
}

/**
 * The customer of a booking: by id, else matched by email, else (only when no email is given)
 * by phone, else new. Banned: 403. Reads only (one round trip, none when `read` answers the same
 * lookup): what to write joins the reservation's batch, so a refused booking writes nothing.
 */
export async function resolveCustomer(
  ctx: BookingContext,
  input: CustomerGiven | undefined,
  read?: CustomerRead,
) {
  if (!input) return undefined;
  const lookup = repo.customerLookup(input);
  const results =
    read && sameLookup(read.lookup, lookup)
      ? read.results
      : await readAll(ctx.db, repo.customerQueries(ctx.db, ctx.property.id, lookup));
  const { existing, emailOwner } = repo.customerFound(lookup, results);
  if (input.id !== undefined) {
    if (!existing)
      throw new ApiError("user_not_found", `customer ${input.id} does not exist in this property`);
    if (emailOwner && emailOwner.id !== existing.id)
      throw invalidField("customer.email", `this email belongs to customer ${emailOwner.id} of the property`);
  }
  if (existing?.banned)
    throw new ApiError("customer_is_banned", "this customer may not book at this property");
  return repo.planCustomer(input, existing, input.id !== undefined);
}

const sameLookup = (a: repo.CustomerLookup, b: repo.CustomerLookup) =>
  JSON.stringify(a) === JSON.stringify(b);
