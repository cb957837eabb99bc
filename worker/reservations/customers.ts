/** The customer of a booking: found by id, email or phone, planned, never written here. */
import { ApiError, invalidField } from "../errors";
import type { BookingContext } from "./context";
import * as repo from "./reservations.repo";
import type { CustomerInput } from "./reservations.repo";

/** The input rules of a customer given without an id: a name, and an email or a phone. */
export function checkCustomerInput(input: (CustomerInput & { id?: number | undefined }) | undefined) {
  if (!input || input.id !== undefined) return;
  if (!input.first_name && !input.last_name) throw invalidField("customer.first_name", "give the customer's first or last name");
  if (!input.email && !input.phone) throw invalidField("customer.email", "give the customer's email or phone");
}

/**
 * The customer of a booking: by id, else matched by email, else (only when no email is given)
 * by phone, else new. Banned: 403. Reads only: what to write joins the
 * reservation's batch, so a refused booking writes nothing.
 */
export async function resolveCustomer(ctx: BookingContext, input: (CustomerInput & { id?: number | undefined }) | undefined) {
  if (!input) return undefined;
  const { db, property } = ctx;
  let existing: repo.CustomerRow | undefined;
  if (input.id !== undefined) {
    existing = await repo.getCustomer(db, property.id, input.id);
    if (!existing) throw new ApiError("user_not_found", `customer ${input.id} does not exist in this property`);
    const owner = input.email ? await repo.findCustomer(db, property.id, { email: input.email }) : undefined;
    if (owner && owner.id !== existing.id) throw invalidField("customer.email", `this email belongs to customer ${owner.id} of the property`);
  } else {
    existing = await repo.findCustomer(db, property.id, input);
  }
  if (existing?.banned) throw new ApiError("customer_is_banned", "this customer may not book at this property");
  return repo.planCustomer(input, existing, input.id !== undefined);
}
