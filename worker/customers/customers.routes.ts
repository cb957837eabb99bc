/**
 * /customers of the property named by the Property header: a restaurant's guests with their
 * visits, no-shows, cancellations, covers and last visit; search, update, merge and erasure.
 * Customers are made by bookings (reservations/customers.ts), never here.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { ErrorCode } from "../errors";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  IdParam,
  json,
  listEnvelope,
  PROPERTY_SCOPED,
  propertyHeader,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import {
  eraseCustomerOf,
  getCustomer,
  listCustomers,
  mergeCustomer,
  updateCustomer,
} from "./customers.handlers";
import { CustomerSchema, CustomerUpdate, ListQuery, MergeBody } from "./customers.schemas";

const base = { tags: ["Customers"], security: bearerSecurity };
const scoped = [...PROPERTY_SCOPED] as ErrorCode[];
const one = (description: string) => json(envelope(CustomerSchema), description);

const listRoute = createRoute({
  ...base,
  method: "get",
  path: "/",
  summary: "List and search the property's customers",
  description:
    "By id; `search` matches part of a first or last name, the full name either way round, an email or a phone.",
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
  request: {
    headers: propertyHeader,
    params: IdParam,
    body: { content: { "application/json": { schema: CustomerUpdate } }, required: true },
  },
  responses: {
    200: one("the updated customer"),
    ...errorResponses(...scoped, "user_not_found", "idempotency_key_in_use", "idempotency_key_reused"),
  },
});

const mergeRoute = createRoute({
  ...base,
  method: "post",
  path: "/{id}/merge",
  summary: "Merge a customer into another",
  description:
    "Every reservation of customer {id} moves to `into` (each with a history entry and a RESERVATION_UPDATED event), {id} is removed, " +
    "and `into` gains the details it lacks, both customers' tags, allergies and notes. One atomic batch.",
  request: {
    headers: propertyHeader,
    params: IdParam,
    body: { content: { "application/json": { schema: MergeBody } }, required: true },
  },
  responses: {
    200: one("the customer that stays"),
    ...errorResponses(...scoped, "user_not_found", "idempotency_key_in_use", "idempotency_key_reused"),
  },
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
  responses: {
    200: json(envelope(z.number().int()), "the id of the erased customer"),
    ...errorResponses(...scoped, "user_not_found"),
  },
});

export const customersRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(await listCustomers(c, c.req.valid("query")), 200))
  .openapi(getRoute, async (c) => c.json(await getCustomer(c, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    c.json(await updateCustomer(c, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(mergeRoute, async (c) =>
    c.json(await mergeCustomer(c, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(eraseRoute, async (c) => c.json(await eraseCustomerOf(c, c.req.valid("param").id), 200));
