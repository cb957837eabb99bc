/**
 * A property-scoped catalog resource (rooms, tables, services, closures): its five route
 * contracts (list, get, create, update, delete), so they document themselves alike, and the one
 * router that binds them, so they answer alike. A resource gives only what differs: its
 * schemas, its reads and writes with their checks, and its API shape.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv, Db, PropertyRow } from "../env";
import { ApiError, type ErrorCode } from "../errors";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  IdParam,
  json,
  listEnvelope,
  PROPERTY_SCOPED,
  propertyHeader,
} from "./openapi";
import { decodeCursor, idCursor, page, paginationQuery } from "./pagination";
import { createRouter } from "./router";

export interface CatalogContract<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType> {
  tag: string;
  singular: string;
  schema: S;
  create: C;
  update: U;
  notFound: ErrorCode;
  writeErrors?: ErrorCode[];
  deleteErrors?: ErrorCode[];
}

type AnyContract = CatalogContract<z.ZodType, z.ZodType, z.ZodType>;

const common = (o: AnyContract) => ({ tags: [o.tag], security: bearerSecurity });
const scoped = (...more: ErrorCode[]) => errorResponses(...PROPERTY_SCOPED, ...more);
const body = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
  required: true,
});

function listRoute<S extends z.ZodType>(o: AnyContract & { schema: S }) {
  const plural = o.tag.toLowerCase();
  return createRoute({
    ...common(o),
    method: "get",
    path: "/",
    summary: `List the property's ${plural}`,
    request: { headers: propertyHeader, query: z.object(paginationQuery) },
    responses: { 200: json(listEnvelope(o.schema), `the ${plural}, by id`), ...scoped() },
  });
}

function getRoute<S extends z.ZodType>(o: AnyContract & { schema: S }) {
  return createRoute({
    ...common(o),
    method: "get",
    path: "/{id}",
    summary: `Find a ${o.singular} by id`,
    request: { headers: propertyHeader, params: IdParam },
    responses: { 200: json(envelope(o.schema), `the ${o.singular}`), ...scoped(o.notFound) },
  });
}

function createOneRoute<S extends z.ZodType, C extends z.ZodType>(o: AnyContract & { schema: S; create: C }) {
  return createRoute({
    ...common(o),
    method: "post",
    path: "/",
    summary: `Create a ${o.singular}`,
    request: { headers: propertyHeader, body: body(o.create) },
    responses: {
      201: json(envelope(o.schema), `the created ${o.singular}`),
      ...scoped(...(o.writeErrors ?? []), "idempotency_key_in_use", "idempotency_key_reused"),
    },
  });
}

function updateRoute<S extends z.ZodType, U extends z.ZodType>(o: AnyContract & { schema: S; update: U }) {
  return createRoute({
    ...common(o),
    method: "put",
    path: "/{id}",
    summary: `Update a ${o.singular}`,
    description: "Partial: only the fields given change.",
    request: { headers: propertyHeader, params: IdParam, body: body(o.update) },
    responses: {
      200: json(envelope(o.schema), `the updated ${o.singular}`),
      ...scoped(o.notFound, ...(o.writeErrors ?? [])),
    },
  });
}

function removeRoute(o: AnyContract) {
  return createRoute({
    ...common(o),
    method: "delete",
    path: "/{id}",
    summary: `Delete a ${o.singular}`,
    request: { headers: propertyHeader, params: IdParam },
    responses: {
      200: json(envelope(z.number().int()), `the id of the deleted ${o.singular}`),
      ...scoped(o.notFound, ...(o.deleteErrors ?? [])),
    },
  });
}

export function catalogRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  o: CatalogContract<S, C, U>,
) {
  return {
    singular: o.singular,
    notFound: o.notFound,
    list: listRoute(o),
    get: getRoute(o),
    create: createOneRoute(o),
    update: updateRoute(o),
    remove: removeRoute(o),
  };
}

/**
 * Whether a partial update names nothing: `{}`, only unknown fields (zod drops them) or no
 * body at all. Such a PUT answers the record as it is, without a write.
 */
export function namesNothing(body: object): boolean {
  return Object.values(body).every((v) => v === undefined);
}

/** The 404 of a catalog record that is not (or no longer) in the property. */
export function notFound(code: ErrorCode, singular: string, id: number): ApiError {
  return new ApiError(code, `${singular} ${id} does not exist in this property`);
}

/** What a catalog request acts on: the property named by the Property header, in its shard. */
export interface CatalogScope {
  db: Db;
  property: PropertyRow;
}

/** What differs between catalog resources; the router does the rest. */
export interface CatalogResource<Row extends { id: number }, Create, Update, Dto> {
  /** up to limit + 1 rows by id, after `afterId`: the router pages them */
  list(scope: CatalogScope, limit: number, afterId: number | undefined): Promise<Row[]>;
  get(scope: CatalogScope, id: number): Promise<Row | undefined>;
  /** checks and writes; throws to refuse */
  create(scope: CatalogScope, body: Create): Promise<Row>;
  /** checks and writes a body that names something; undefined when the row went meanwhile */
  update(scope: CatalogScope, current: Row, body: Update): Promise<Row | undefined>;
  /** throws to refuse (a record still in use) */
  remove(scope: CatalogScope, current: Row): Promise<void>;
  toDto(row: Row): Dto;
}

type CatalogRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType> = ReturnType<
  typeof catalogRoutes<S, C, U>
>;

const scopeOf = (c: Context<AppEnv>): CatalogScope => ({ db: c.get("db"), property: c.get("property") });

/** What a catalog write tells once done (the audit log): created, updated or deleted, the row's id, the fields given. */
export type CatalogWritten = (
  c: Context<AppEnv>,
  action: "created" | "updated" | "deleted",
  id: number,
  body: object,
) => Promise<void>;

/**
 * The router of a catalog resource: list pages by id with an opaque cursor, get answers the
 * record or 404, create answers 201, an update naming nothing answers the record as it is,
 * and delete answers the deleted id. `written` hears of every write once it is done.
 */
export function catalogRouter<
  S extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
  Row extends { id: number },
>(
  routes: CatalogRoutes<S, C, U>,
  resource: CatalogResource<Row, z.output<C>, z.output<U>, z.output<S>>,
  written: CatalogWritten = async () => {},
) {
  const gone = (id: number) => notFound(routes.notFound, routes.singular, id);
  const find = async (c: Context<AppEnv>, id: number) => {
    const row = await resource.get(scopeOf(c), id);
    if (!row) throw gone(id);
    return row;
  };
  // typed as the routes' own response schemas, so each answer is checked against its contract
  const one = (row: Row): z.output<ReturnType<typeof envelope<S>>> => ({ data: [resource.toDto(row)] });
  const list = (rows: Row[], next_cursor: string | null): z.output<ReturnType<typeof listEnvelope<S>>> => ({
    data: rows.map((r) => resource.toDto(r)),
    next_cursor,
  });
  return createRouter()
    .openapi(routes.list, async (c) => {
      const { limit, next_cursor } = c.req.valid("query");
      const rows = await resource.list(scopeOf(c), limit, decodeCursor(next_cursor, idCursor)?.id);
      const result = page(rows, limit, (r) => ({ id: r.id }));
      return c.json(list(result.data, result.next_cursor), 200);
    })
    .openapi(routes.get, async (c) => c.json(one(await find(c, c.req.valid("param").id)), 200))
    .openapi(routes.create, async (c) => {
      const row = await resource.create(scopeOf(c), c.req.valid("json"));
      await written(c, "created", row.id, c.req.valid("json") as object);
      return c.json(one(row), 201);
    })
    .openapi(routes.update, async (c) => {
      const current = await find(c, c.req.valid("param").id);
      const body = c.req.valid("json");
      if (namesNothing(body as object)) return c.json(one(current), 200);
      const updated = await resource.update(scopeOf(c), current, body);
      if (!updated) throw gone(current.id);
      await written(c, "updated", current.id, body as object);
      return c.json(one(updated), 200);
    })
    .openapi(routes.remove, async (c) => {
      const current = await find(c, c.req.valid("param").id);
      await resource.remove(scopeOf(c), current);
      await written(c, "deleted", current.id, {});
      return c.json({ data: [current.id] }, 200);
    });
}
