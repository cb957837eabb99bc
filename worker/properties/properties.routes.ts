/** /properties: the restaurants a client acts on. */
import { createRoute, z } from "@hono/zod-openapi";
import {
  AUTHED,
  bearerSecurity,
  envelope,
  errorResponses,
  IdParam,
  json,
  listEnvelope,
} from "../lib/openapi";
import { paginationQuery } from "../lib/pagination";
import { createRouter } from "../lib/router";
import {
  changeProperty,
  getProperty,
  listProperties,
  newProperty,
  removeProperty,
} from "./properties.handlers";
import { PropertyCreateSchema, PropertySchema, PropertyUpdateSchema } from "./properties.schemas";

const tags = ["Properties"];
const security = bearerSecurity;

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  security,
  summary: "List the properties this client may act on",
  request: { query: z.object(paginationQuery) },
  responses: {
    200: json(listEnvelope(PropertySchema), "the client's properties, by id"),
    ...errorResponses(...AUTHED),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags,
  security,
  summary: "Find a property by id",
  request: { params: IdParam },
  responses: {
    200: json(envelope(PropertySchema), "the property"),
    ...errorResponses(...AUTHED, "property_not_found", "property_forbidden", "sandbox_expired"),
  },
});

const createPropertyRoute = createRoute({
  method: "post",
  path: "/",
  tags,
  security,
  summary: "Create a property",
  description:
    "A client that is not enabled for production creates sandbox properties. `username` and `password` are the restaurant's sign-in on the hosted pages (connecting other apps): the username is unique across all properties and clients, compared case-insensitively after NFKC normalisation; the password is stored hashed and never returned.",
  request: { body: { content: { "application/json": { schema: PropertyCreateSchema } }, required: true } },
  responses: {
    201: json(envelope(PropertySchema), "the created property"),
    ...errorResponses(
      ...AUTHED,
      "insufficient_scope",
      "username_taken",
      "idempotency_key_in_use",
      "idempotency_key_reused",
    ),
  },
});

const updateRoute = createRoute({
  method: "put",
  path: "/{id}",
  tags,
  security,
  summary: "Update a property",
  description:
    "Partial: only the fields given change; `settings` are merged. `username` and `password` (the restaurant's sign-in) change only for the client that created the property (403 for others); a new password ends the restaurant's open sign-in sessions.",
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: PropertyUpdateSchema } }, required: true },
  },
  responses: {
    200: json(envelope(PropertySchema), "the updated property"),
    ...errorResponses(
      ...AUTHED,
      "property_not_found",
      "property_forbidden",
      "sandbox_expired",
      "username_taken",
    ),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  security,
  summary: "Delete a property",
  description:
    "Marks the property deleted; its reservations are kept. Only the client that created the property deletes it: the other apps it granted (a connected app, a granted client) get 403.",
  request: { params: IdParam },
  responses: {
    200: json(envelope(z.number().int()), "the id of the deleted property"),
    ...errorResponses(...AUTHED, "property_not_found", "property_forbidden"),
  },
});

export const propertiesRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(await listProperties(c, c.req.valid("query")), 200))
  .openapi(getRoute, async (c) => c.json(await getProperty(c, c.req.valid("param").id), 200))
  .openapi(createPropertyRoute, async (c) => c.json(await newProperty(c, c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) =>
    c.json(await changeProperty(c, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteRoute, async (c) => c.json(await removeProperty(c, c.req.valid("param").id), 200));
