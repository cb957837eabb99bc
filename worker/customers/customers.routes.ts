/**
 * /customers of the property named by the Property header (CONTRACT 14): a restaurant's guests
 * with their visits, no-shows, cancellations, covers and last visit; search, update, merge and
 * erasure. Customers are made by bookings (reservations/customers.ts), never here.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { LOCALES, resolveSettings } from "../../shared/schemas";
import type { AppEnv, Db } from "../env";
import { ApiError, type ErrorCode, invalidField } from "../errors";
import { abortReason } from "../lib/d1";
import { toLocalDateTime } from "../lib/localtime";
import { bearerSecurity, emailField, envelope, errorResponses, IdParam, json, listEnvelope, PROPERTY_SCOPED, propertyHeader } from "../lib/openapi";
import { decodeCursor, idCursor, page, paginationQuery } from "../lib/pagination";
import { createRouter } from "../lib/router";
import { phoneField } from "../reservations/reservations.schemas";
import * as repo from "./customers.repo";
import type { CustomerFields, CustomerRow } from "./customers.repo";

const base = { tags: ["Customers"], security: bearerSecurity };
const scoped = [...PROPERTY_SCOPED] as ErrorCode[];
const name = z.string().trim().min(1).max(100);
const tags = z
  .array(z.string().trim().min(1).max(50))
  .max(30)
  .openapi({ description: "the restaurant's labels", example: ["vip", "regular"] });

export const CustomerSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    locale: z.enum(LOCALES).nullable(),
    tags: z.array(z.string()),
    allergies: z.string().nullable(),
    notes: z.string().nullable().openapi({ description: "staff only" }),
    banned: z.boolean(),
    marketing_consent: z.boolean(),
    erased: z.boolean().openapi({ description: "the personal data was erased (DELETE); the reservations stay, anonymised" }),
    created_at: z.string().openapi({ description: "local wall clock", example: "2026-11-22T10:15:00" }),
    visits: z.number().int().openapi({ description: "reservations checked in (not cancelled or refused after)" }),
    no_shows: z.number().int().openapi({ description: "reservations EXPIRED as no-shows" }),
    cancellations: z.number().int(),
    covers: z.number().int().openapi({ description: "guests over all visits" }),
    last_visit: z.string().nullable().openapi({ description: "the date of the latest visit", example: "2026-11-20" }),
  })
  .openapi("Customer");

const CustomerUpdate = z
  .object({
    first_name: name.nullable().optional(),
    last_name: name.nullable().optional(),
    email: emailField.nullable().optional(),
    phone: phoneField.nullable().optional(),
    locale: z.enum(LOCALES).nullable().optional(),
    tags: tags.optional(),
    allergies: z.string().trim().max(1000).nullable().optional(),
    notes: z.string().trim().max(5000).nullable().optional(),
    banned: z.boolean().optional(),
    marketing_consent: z.boolean().optional(),
  })
  .openapi("CustomerUpdate", { description: "Partial: only the fields given change.", example: { phone: "+39 055 654321", tags: ["vip"], allergies: "shellfish" } });

// `into` is checked by the handler, after the customer of the path: a stranger's id answers 404 first.
const MergeBody = z
  .object({ into: z.number().int().positive().optional().openapi({ description: "the customer that stays (required)" }) })
  .openapi("CustomerMerge", { example: { into: 42 } });

const ListQuery = z.object({
  ...paginationQuery,
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: "search", in: "query" }, description: "part of a name, an email or a phone (case-insensitive)", example: "lovelace" }),
});

function toCustomerDto(c: CustomerRow, counts: repo.CustomerCounts, timeZone: string) {
  return {
    id: c.id,
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    phone: c.phone,
    locale: (LOCALES as readonly string[]).includes(c.locale ?? "") ? (c.locale as (typeof LOCALES)[number]) : null,
    tags: c.tags,
    allergies: c.allergies,
    notes: c.notes,
    banned: c.banned,
    marketing_consent: c.marketingConsent,
    erased: c.erasedAt !== null,
    created_at: toLocalDateTime(timeZone, c.createdAt),
    ...counts,
  };
}

async function present(c: Context<AppEnv>, rows: CustomerRow[]) {
  const counts = await repo.customerCounts(c.get("db"), rows.map((r) => r.id));
  const tz = resolveSettings(c.get("property").settings).timezone;
  return rows.map((r) => toCustomerDto(r, counts.get(r.id) ?? repo.NO_COUNTS, tz));
}

async function requireCustomer(db: Db, propertyId: number, id: number): Promise<CustomerRow> {
  const found = await repo.getCustomer(db, propertyId, id);
  if (!found) throw new ApiError("user_not_found", `customer ${id} does not exist in this property`);
  return found;
}

type Update = z.infer<typeof CustomerUpdate>;
function fieldsOf(b: Update): CustomerFields {
  const out: CustomerFields = {};
  if (b.first_name !== undefined) out.firstName = b.first_name;
  if (b.last_name !== undefined) out.lastName = b.last_name;
  if (b.email !== undefined) out.email = b.email?.toLowerCase() ?? null;
  if (b.phone !== undefined) out.phone = b.phone;
  if (b.locale !== undefined) out.locale = b.locale;
  if (b.tags !== undefined) out.tags = [...new Set(b.tags)];
  if (b.allergies !== undefined) out.allergies = b.allergies;
  if (b.notes !== undefined) out.notes = b.notes;
  if (b.banned !== undefined) out.banned = b.banned;
  if (b.marketing_consent !== undefined) out.marketingConsent = b.marketing_consent;
  return out;
}

/** What a merge gives the customer that stays: what it lacks, the union of labels, both sets of words. */
function mergedFields(source: CustomerRow, into: CustomerRow): CustomerFields {
  const both = (a: string | null, b: string | null, sep: string) => (a && b && a !== b ? `${a}${sep}${b}` : (a ?? b));
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

const one = (description: string) => json(envelope(CustomerSchema), description);

const listRoute = createRoute({
  ...base,
  method: "get",
  path: "/",
  summary: "List and search the property's customers",
  description: "By id; `search` matches part of a first or last name, the full name either way round, an email or a phone.",
  request: { headers: propertyHeader, query: ListQuery },
  responses: { 200: json(listEnvelope(CustomerSchema), "a page of customers"), ...errorResponses(...scoped) },
});

const getRoute = createRoute({
  ...base,
  method: "get",
  path: "/{id}",
  summary: "Find a customer by id, with visits, no-shows, cancellations, covers and last visit",
  request: { headers: propertyHeader, params: IdParam },
  responses: { 200: one("the customer"), ...errorResponses(...scoped, "user_not_found") },
});

const updateRoute = createRoute({
  ...base,
  method: "put",
  path: "/{id}",
  summary: "Update a customer",
  description: "Partial. An email another customer of the property has is refused (merge them instead).",
  request: { headers: propertyHeader, params: IdParam, body: { content: { "application/json": { schema: CustomerUpdate } }, required: true } },
  responses: { 200: one("the updated customer"), ...errorResponses(...scoped, "user_not_found", "idempotency_key_in_use", "idempotency_key_reused") },
});

const mergeRoute = createRoute({
  ...base,
  method: "post",
  path: "/{id}/merge",
  summary: "Merge a customer into another",
  description:
    "Every reservation of customer {id} moves to `into` (each with a history entry and a RESERVATION_UPDATED event), {id} is removed, " +
    "and `into` gains the details it lacks, both customers' tags, allergies and notes. One atomic batch.",
  request: { headers: propertyHeader, params: IdParam, body: { content: { "application/json": { schema: MergeBody } }, required: true } },
  responses: { 200: one("the customer that stays"), ...errorResponses(...scoped, "user_not_found", "idempotency_key_in_use", "idempotency_key_reused") },
});

const eraseRoute = createRoute({
  ...base,
  method: "delete",
  path: "/{id}",
  summary: "Erase a customer's personal data",
  description:
    "Names, contacts, locale, tags, allergies, notes and consent go; the customer keeps its id and counts. Its reservations stay, " +
    "anonymised: their guest, notes, special request and allergies go too, from their history and undelivered webhook events as well.",
  request: { headers: propertyHeader, params: IdParam },
  responses: { 200: json(envelope(z.number().int()), "the id of the erased customer"), ...errorResponses(...scoped, "user_not_found") },
});

const actor = (c: Context<AppEnv>) => `client:${c.get("client").id}`;

export const customersRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const rows = await repo.listCustomers(c.get("db"), c.get("property").id, q.limit, decodeCursor(q.next_cursor, idCursor)?.id, q.search);
    const result = page(rows, q.limit, (r) => ({ id: r.id }));
    return c.json({ data: await present(c, result.data), next_cursor: result.next_cursor }, 200);
  })
  .openapi(getRoute, async (c) => {
    const customer = await requireCustomer(c.get("db"), c.get("property").id, c.req.valid("param").id);
    return c.json({ data: await present(c, [customer]) }, 200);
  })
  .openapi(updateRoute, async (c) => {
    const db = c.get("db");
    const propertyId = c.get("property").id;
    const current = await requireCustomer(db, propertyId, c.req.valid("param").id);
    const fields = fieldsOf(c.req.valid("json"));
    const owner = fields.email ? await repo.customerByEmail(db, propertyId, fields.email) : undefined;
    if (owner && owner.id !== current.id) throw emailTaken(owner.id);
    let updated: CustomerRow | undefined;
    try {
      updated = await repo.updateCustomer(db, current.id, fields);
    } catch (err) {
      // another customer took the email between the check and the write
      if (abortReason(err, ["customers.property_id, customers.email"] as const)) throw emailTaken(undefined);
      throw err;
    }
    if (!updated) throw new ApiError("user_not_found", `customer ${current.id} was merged away a moment ago`);
    return c.json({ data: await present(c, [updated]) }, 200);
  })
  .openapi(mergeRoute, async (c) => {
    const db = c.get("db");
    const propertyId = c.get("property").id;
    const source = await requireCustomer(db, propertyId, c.req.valid("param").id);
    const { into: intoId } = c.req.valid("json");
    if (intoId === undefined) throw invalidField("into", "give the id of the customer that stays");
    if (intoId === source.id) throw invalidField("into", "a customer cannot be merged into itself");
    const into = await requireCustomer(db, propertyId, intoId);
    if (source.erasedAt || into.erasedAt) throw invalidField(source.erasedAt ? "id" : "into", "an erased customer cannot be merged");
    const merged = await repo.mergeCustomers(db, source, into, mergedFields(source, into), actor(c));
    if (!merged) throw new ApiError("user_not_found", `customer ${source.id} or ${into.id} was erased or merged away a moment ago`);
    return c.json({ data: await present(c, [merged]) }, 200);
  })
  .openapi(eraseRoute, async (c) => {
    const db = c.get("db");
    const customer = await requireCustomer(db, c.get("property").id, c.req.valid("param").id);
    await repo.eraseCustomer(db, customer.id, actor(c));
    return c.json({ data: [customer.id] }, 200);
  });

function emailTaken(ownerId: number | undefined): ApiError {
  return invalidField("email", `this email belongs to ${ownerId ? `customer ${ownerId}` : "another customer"} of the property; merge them instead`);
}
