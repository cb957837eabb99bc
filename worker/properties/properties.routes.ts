import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import { namesNothing } from "../lib/crud";
import { settingsPatchSchema, settingsSchema } from "../../shared/schemas";
import { authoriseProperty } from "./authorise";
import { decodeCursor, encodeCursor, idCursor, paginationQuery } from "../lib/pagination";
import { AUTHED, bearerSecurity, emailField, envelope, errorResponses, IdParam, json, listEnvelope, optionalString, passwordField, urlField, usernameField } from "../lib/openapi";
import { config } from "../config";
import { ApiError } from "../errors";
import { changeCredentials, createProperty, deleteProperty, propertiesPage } from "./lifecycle";
import { toPropertyDto, updateProperty } from "./properties.repo";

export const PositionSchema = z
  .object({
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    country: optionalString(100),
    address: optionalString(300),
    city: optionalString(100),
    zip: optionalString(20),
  })
  .openapi("Position", { example: { latitude: 45.4642, longitude: 9.19, country: "IT", address: "Via Roma 1", city: "Milano", zip: "20121" } });

// A fresh object: shared/ schemas are plain zod, made before the OpenAPI extension.
export const SettingsSchema = z.object(settingsSchema.shape).openapi("PropertySettings");

export const PropertySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    enabled: z.boolean(),
    sandbox: z.boolean(),
    position: z.record(z.string(), z.unknown()).openapi({ description: "may be empty" }),
    email: z.string().nullable(),
    username: z.string().nullable(),
    website: z.string().nullable(),
    phone: z.string().nullable(),
    description: z.string().nullable(),
    public_key: z.string().openapi({ description: "the key of the public widget API and the hosted pages" }),
    sandbox_expires_at: z.string().nullable(),
    searchengine_enabled: z.boolean(),
    settings: SettingsSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Property");

const propertyFields = {
  // null clears a field, so a property read with GET can be sent back with PUT as it is.
  email: emailField.nullable().optional(),
  username: usernameField.nullable().optional(),
  password: passwordField.optional().openapi({ description: "stored hashed, never returned" }),
  website: urlField.nullable().optional(),
  phone: optionalString(40).nullable(),
  description: optionalString(5000).nullable(),
  position: PositionSchema.optional(),
  settings: z.object(settingsPatchSchema.shape).optional().openapi({ description: "only the settings given change; see PropertySettings for defaults" }),
};

const PropertyCreateSchema = z
  .object({ name: z.string().trim().min(1).max(200), ...propertyFields })
  .openapi("PropertyCreate", { example: { name: "Trattoria Roma", email: "info@trattoria.example", phone: "+39 02 1234567", settings: { timezone: "Europe/Rome", locale: "it" } } });

const PropertyUpdateSchema = z
  .object({ name: z.string().trim().min(1).max(200).optional(), enabled: z.boolean().optional(), ...propertyFields })
  .openapi("PropertyUpdate", { example: { name: "Trattoria Roma", settings: { average_stay: 90 } } });

const tags = ["Properties"];
const security = bearerSecurity;

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  security,
  summary: "List the properties this client may act on",
  request: { query: z.object(paginationQuery) },
  responses: { 200: json(listEnvelope(PropertySchema), "the client's properties, by id"), ...errorResponses(...AUTHED) },
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
    "A client that is not enabled for production creates sandbox properties. `username` and `password` are the restaurant's sign-in on the hosted pages (connecting other apps, CONTRACT 11): the username is unique across all properties and clients, compared case-insensitively after NFKC normalisation; the password is stored hashed and never returned.",
  request: { body: { content: { "application/json": { schema: PropertyCreateSchema } }, required: true } },
  responses: {
    201: json(envelope(PropertySchema), "the created property"),
    ...errorResponses(...AUTHED, "insufficient_scope", "username_taken", "idempotency_key_in_use", "idempotency_key_reused"),
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
  request: { params: IdParam, body: { content: { "application/json": { schema: PropertyUpdateSchema } }, required: true } },
  responses: {
    200: json(envelope(PropertySchema), "the updated property"),
    ...errorResponses(...AUTHED, "property_not_found", "property_forbidden", "sandbox_expired", "username_taken"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  security,
  summary: "Delete a property",
  description: "Marks the property deleted; its reservations are kept.",
  request: { params: IdParam },
  responses: {
    200: json(envelope(z.number().int()), "the id of the deleted property"),
    ...errorResponses(...AUTHED, "property_not_found", "property_forbidden"),
  },
});

export const propertiesRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const { limit, next_cursor } = c.req.valid("query");
    const after = decodeCursor(next_cursor, idCursor);
    const client = c.get("client");
    const found = await propertiesPage(c.env, c.get("control"), client.id, limit, after?.id, client.propertyId);
    const next = found.more && found.lastId !== undefined ? encodeCursor({ id: found.lastId }) : null;
    return c.json({ data: found.rows.map(toPropertyDto), next_cursor: next }, 200);
  })
  .openapi(getRoute, async (c) => {
    const property = await authoriseProperty(c, c.req.valid("param").id);
    return c.json({ data: [toPropertyDto(property)] }, 200);
  })
  .openapi(createPropertyRoute, async (c) => {
    const client = c.get("client");
    // A token from a restaurant's approval acts for that restaurant only, never for the client itself.
    if (client.propertyId !== null) throw new ApiError("insufficient_scope", "this token reaches one restaurant; create properties with a client_credentials token", {
        headers: { "WWW-Authenticate": 'Bearer realm="api", error="insufficient_scope"' },
      });
    const placement = { sandbox: !client.productionEnabled, sandboxDays: config(c.env).sandboxDays };
    const property = await createProperty(c.env, c.get("control"), client.id, c.req.valid("json"), placement);
    return c.json({ data: [toPropertyDto(property)] }, 201);
  })
  .openapi(updateRoute, async (c) => {
    const current = await authoriseProperty(c, c.req.valid("param").id);
    const { password, ...body } = c.req.valid("json");
    // A PUT naming nothing ({}, unknown fields only, no body) answers the property as it is and writes nothing.
    if (password === undefined && namesNothing(body)) return c.json({ data: [toPropertyDto(current)] }, 200);
    const changed = await changeCredentials(c.get("control"), c.get("client").id, current, { username: body.username, password });
    const updated = await updateProperty(c.get("db"), current, { ...body, ...(changed.passwordHash && { passwordHash: changed.passwordHash }) });
    return c.json({ data: [toPropertyDto(updated)] }, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const property = await authoriseProperty(c, c.req.valid("param").id, { allowExpired: true });
    await deleteProperty(c.get("db"), c.get("control"), property.id);
    return c.json({ data: [property.id] }, 200);
  });
