/**
 * The five route contracts of a property-scoped catalog resource (list, get, create,
 * update, delete), so rooms, tables, services and closures document themselves alike.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { ErrorCode } from "../errors";
import { bearerSecurity, envelope, errorResponses, IdParam, json, listEnvelope, PROPERTY_SCOPED, propertyHeader } from "./openapi";
import { paginationQuery } from "./pagination";

export function catalogRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(o: {
  tag: string;
  singular: string;
  schema: S;
  create: C;
  update: U;
  notFound: ErrorCode;
  writeErrors?: ErrorCode[];
  deleteErrors?: ErrorCode[];
}) {
  const base = { tags: [o.tag], security: bearerSecurity };
  const scoped = [...PROPERTY_SCOPED] as ErrorCode[];
  return {
    list: createRoute({
      ...base,
      method: "get",
      path: "/",
      summary: `List the property's ${o.tag.toLowerCase()}`,
      request: { headers: propertyHeader, query: z.object(paginationQuery) },
      responses: { 200: json(listEnvelope(o.schema), `the ${o.tag.toLowerCase()}, by id`), ...errorResponses(...scoped) },
    }),
    get: createRoute({
      ...base,
      method: "get",
      path: "/{id}",
      summary: `Find a ${o.singular} by id`,
      request: { headers: propertyHeader, params: IdParam },
      responses: { 200: json(envelope(o.schema), `the ${o.singular}`), ...errorResponses(...scoped, o.notFound) },
    }),
    create: createRoute({
      ...base,
      method: "post",
      path: "/",
      summary: `Create a ${o.singular}`,
      request: { headers: propertyHeader, body: { content: { "application/json": { schema: o.create } }, required: true } },
      responses: {
        201: json(envelope(o.schema), `the created ${o.singular}`),
        ...errorResponses(...scoped, ...(o.writeErrors ?? []), "idempotency_key_in_use", "idempotency_key_reused"),
      },
    }),
    update: createRoute({
      ...base,
      method: "put",
      path: "/{id}",
      summary: `Update a ${o.singular}`,
      description: "Partial: only the fields given change.",
      request: { headers: propertyHeader, params: IdParam, body: { content: { "application/json": { schema: o.update } }, required: true } },
      responses: { 200: json(envelope(o.schema), `the updated ${o.singular}`), ...errorResponses(...scoped, o.notFound, ...(o.writeErrors ?? [])) },
    }),
    remove: createRoute({
      ...base,
      method: "delete",
      path: "/{id}",
      summary: `Delete a ${o.singular}`,
      request: { headers: propertyHeader, params: IdParam },
      responses: {
        200: json(envelope(z.number().int()), `the id of the deleted ${o.singular}`),
        ...errorResponses(...scoped, o.notFound, ...(o.deleteErrors ?? [])),
      },
    }),
  };
}

/**
 * Whether a partial update names nothing: `{}`, only unknown fields (dropped by zod, CONTRACT 2)
 * or no body at all. Such a PUT answers the record as it is, without a write.
 */
export function namesNothing(body: object): boolean {
  return Object.values(body).every((v) => v === undefined);
}
