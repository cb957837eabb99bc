/**
 * A booking's customer: how the typed details match a known customer, and what
 * the write gives the record and the reservation. reservations.repo.ts writes the plan.
 */
import { and, asc, eq } from "drizzle-orm";
import { customers, type Guest } from "../db/shard.schema";
import type { Db } from "../env";

export type CustomerRow = typeof customers.$inferSelect;

export interface CustomerInput {
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  /** the guest's language, from an online booking */
  locale?: string | undefined;
}

const byId = (db: Db, propertyId: number, id: number) =>
  db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), eq(customers.propertyId, propertyId)))
    .limit(1);

const byField = (
  db: Db,
  propertyId: number,
  field: typeof customers.email | typeof customers.phone,
  value: string,
) =>
  db
    .select()
    .from(customers)
    .where(and(eq(customers.propertyId, propertyId), eq(field, value)))
    .orderBy(asc(customers.id))
    .limit(1);

/** What a booking's customer input is looked up by: an id, and an email (whose owner must be that id); else an email, else a phone. */
export type CustomerLookup =
  | { id: number; email?: string | undefined }
  | { id?: undefined; email?: string | undefined; phone?: string | undefined };

/** The keys of `input` a lookup reads by, lower-cased as stored: two inputs with the same lookup read the same rows. */
export function customerLookup(input: CustomerInput & { id?: number | undefined }): CustomerLookup {
  const email = input.email?.toLowerCase();
  if (input.id !== undefined) return { id: input.id, email };
  return email ? { email } : { phone: input.phone };
}

/**
 * The statements of a lookup, independent of each other (one round trip): the customer by id and
 * the owner of the email given with it; else the property's customer with this email; with this
 * phone only when no email is given (people share phones, so an email that matches no one is a
 * new person, whatever the phone).
 */
export function customerQueries(db: Db, propertyId: number, l: CustomerLookup) {
  if (l.id !== undefined)
    return [
      byId(db, propertyId, l.id),
      ...(l.email ? [byField(db, propertyId, customers.email, l.email)] : []),
    ];
  if (l.email) return [byField(db, propertyId, customers.email, l.email)];
  return "phone" in l && l.phone ? [byField(db, propertyId, customers.phone, l.phone)] : [];
}

/** What the statements of a lookup found: the customer, and for a lookup by id the owner of the email given with it. */
export function customerFound(
  l: CustomerLookup,
  results: readonly unknown[],
): { existing: CustomerRow | undefined; emailOwner: CustomerRow | undefined } {
  const [first, second] = results as CustomerRow[][];
  return { existing: first?.[0], emailOwner: l.id !== undefined ? second?.[0] : undefined };
}

/** The customer a write names: an existing row (with the details it gets), or a new one, and the guest as the reservation shows them. */
export interface CustomerPlan {
  existing?: CustomerRow | undefined;
  fields: { firstName: string | null; lastName: string | null; email: string | null; phone: string | null };
  locale: string | null;
  guest: Guest;
}

const normalName = (v: string | null | undefined) => v?.normalize("NFKC").trim().toLowerCase() || null;

/** A typed name that disagrees with the stored one (a name missing on either side agrees). */
export function namesDiffer(
  input: CustomerInput,
  existing: Pick<CustomerRow, "firstName" | "lastName">,
): boolean {
  const differs = (typed: string | undefined, stored: string | null) => {
    const [a, b] = [normalName(typed), normalName(stored)];
    return a !== null && b !== null && a !== b;
  };
  return differs(input.first_name, existing.firstName) || differs(input.last_name, existing.lastName);
}

const asGuest = (f: CustomerPlan["fields"]): Guest => ({
  first_name: f.firstName,
  last_name: f.lastName,
  email: f.email,
  phone: f.phone,
});

/**
 * What to write for a booking's customer. Named by id (`explicit`, staff only):
 * that person, whose details given replace their own. Matched by email or phone: the details it
 * lacks are filled, never replaced, and a match whose typed name differs is another person
 * sharing an email or a phone: the stored customer stays as it is and the reservation keeps the
 * guest as typed. Unknown: a new customer.
 */
export function planCustomer(
  input: CustomerInput,
  existing: CustomerRow | undefined,
  explicit: boolean,
): CustomerPlan {
  const typed = {
    firstName: input.first_name ?? null,
    lastName: input.last_name ?? null,
    email: input.email?.toLowerCase() ?? null,
    phone: input.phone ?? null,
  };
  if (!existing) return { existing, fields: typed, locale: input.locale ?? null, guest: asGuest(typed) };
  const known = {
    firstName: existing.firstName,
    lastName: existing.lastName,
    email: existing.email,
    phone: existing.phone,
  };
  if (!explicit && namesDiffer(input, existing))
    return { existing, fields: known, locale: existing.locale, guest: asGuest(typed) };
  const pick = <T>(given: T | null, stored: T | null) => (explicit ? (given ?? stored) : (stored ?? given));
  const fields = {
    firstName: pick(typed.firstName, known.firstName),
    lastName: pick(typed.lastName, known.lastName),
    email: pick(typed.email, known.email),
    phone: pick(typed.phone, known.phone),
  };
  // The same person: what they gave this time, and what the restaurant knows for the rest.
  const given = {
    firstName: typed.firstName ?? known.firstName,
    lastName: typed.lastName ?? known.lastName,
    email: typed.email ?? known.email,
    phone: typed.phone ?? known.phone,
  };
  return { existing, fields, locale: existing.locale ?? input.locale ?? null, guest: asGuest(given) };
}

/** Whether writing the plan changes a known customer's details. */
export function customerDetailsChange(plan: CustomerPlan): boolean {
  const { existing, fields } = plan;
  return (
    !existing ||
    fields.firstName !== existing.firstName ||
    fields.lastName !== existing.lastName ||
    fields.email !== existing.email ||
    fields.phone !== existing.phone ||
    plan.locale !== existing.locale
  );
}

/**
 * The customer's details as the reservation shows them, kept on the row: a change of them is a
 * change of the reservation (its webhook event carries them, as they were at the time). Null when
 * they are the guest as typed (the usual case: about 120 bytes a reservation); readers take the
 * guest then (facts.ts guestOf, the outbox triggers' coalesce), itself put back from the customer
 * record where the row leans on it (guest.repo.ts).
 */
export function customerSnapshot(plan: CustomerPlan): string | null {
  const snapshot = JSON.stringify(asGuest(plan.fields));
  return snapshot === JSON.stringify(plan.guest) ? null : snapshot;
}
