/** The rules of a customer's update and merge beyond what zod checks. */
import type { Db } from "../env";
import { ApiError, invalidField } from "../errors";
import type { CustomerFields, CustomerRow } from "./customers.repo";
import * as repo from "./customers.repo";

export async function requireCustomer(db: Db, propertyId: number, id: number): Promise<CustomerRow> {
  const found = await repo.getCustomer(db, propertyId, id);
  if (!found) throw new ApiError("user_not_found", `customer ${id} does not exist in this property`);
  return found;
}

/** Emails are unique per property: two records of one guest are merged, not given the same email. */
export function emailTaken(ownerId: number | undefined): ApiError {
  return invalidField(
    "email",
    `this email belongs to ${ownerId ? `customer ${ownerId}` : "another customer"} of the property; merge them instead`,
  );
}

export async function checkEmailFree(
  db: Db,
  propertyId: number,
  customerId: number,
  email: string | null | undefined,
) {
  const owner = email ? await repo.customerByEmail(db, propertyId, email) : undefined;
  if (owner && owner.id !== customerId) throw emailTaken(owner.id);
}

/** The customer a merge keeps: named, another one of the property, and neither of the two erased. */
export async function mergeTarget(
  db: Db,
  propertyId: number,
  source: CustomerRow,
  intoId: number | undefined,
): Promise<CustomerRow> {
  if (intoId === undefined) throw invalidField("into", "give the id of the customer that stays");
  if (intoId === source.id) throw invalidField("into", "a customer cannot be merged into itself");
  const into = await requireCustomer(db, propertyId, intoId);
  if (source.erasedAt || into.erasedAt)
    throw invalidField(source.erasedAt ? "id" : "into", "an erased customer cannot be merged");
  return into;
}

/** What a merge gives the customer that stays: what it lacks, the union of labels, both sets of words. */
export function mergedFields(source: CustomerRow, into: CustomerRow): CustomerFields {
  const both = (a: string | null, b: string | null, sep: string) =>
    a && b && a !== b ? `${a}${sep}${b}` : (a ?? b);
  return {
    firstName: into.firstName ?? source.firstName,
    lastName: into.lastName ?? source.lastName,
    email: into.email ?? source.email,
    phone: into.phone ?? source.phone,
    locale: into.locale ?? source.locale,
    tags: [...new Set([...into.tags, ...source.tags])],
    allergies: both(into.allergies, source.allergies, "; "),
    notes: both(into.notes, source.notes, "\n"),
    // consent is the person's own word: the one that stays keeps theirs
    banned: into.banned || source.banned,
  };
}
