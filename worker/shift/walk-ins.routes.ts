/**
 * /properties/{property_id}/walk-ins: the walk-in waiting list of the restaurant's door. A host's
 * work: every route here is a host's (the day's floor), by path.
 */
import { createRoute } from "@hono/zod-openapi";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  listEnvelope,
  PROPERTY_SCOPED,
  PropertyIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { addWalkIn, closeWalkIn, listWalkIns, tellReady } from "./walk-ins.handlers";
import { ReadySchema, WalkInClose, WalkInCreate, WalkInIdParam, WalkInSchema } from "./walk-ins.schemas";

const tags = ["Walk-ins"];
const security = bearerSecurity;
const scoped = [...PROPERTY_SCOPED.filter((c) => c !== "property_header_required")] as const;
const body = <T extends Parameters<typeof json>[0]>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

const listRoute = createRoute({
  method: "get",
  path: "/{property_id}/walk-ins",
  tags,
  security,
  summary: "The walk-in waiting list",
  description:
    "The parties waiting for a table (and those told their table is ready), first come first, each with its `position` and " +
    "the wait estimated now (`wait_minutes`): each party in turn takes the earliest time a table that seats it is free for its " +
    "stay (the turn times), after the tables seated and booked today and the parties ahead. One page: `next_cursor` is null.",
  request: { params: PropertyIdParam },
  responses: {
    200: json(listEnvelope(WalkInSchema), "the parties waiting"),
    ...errorResponses(...scoped),
  },
});

const addRoute = createRoute({
  method: "post",
  path: "/{property_id}/walk-ins",
  tags,
  security,
  summary: "Add a party to the walk-in waiting list",
  description:
    "The party joins at the end of the list and is quoted a wait (`quoted_minutes`, kept) estimated as the list's. " +
    "An email (and, where an SMS provider is set, a phone) lets the host tell the party its table is ready.",
  request: { params: PropertyIdParam, ...body(WalkInCreate) },
  responses: {
    201: json(envelope(WalkInSchema), "the party, with its place and quoted wait"),
    ...errorResponses(...scoped),
  },
});

const readyRoute = createRoute({
  method: "post",
  path: "/{property_id}/walk-ins/{walk_in_id}/ready",
  tags,
  security,
  summary: "Tell a waiting party its table is ready",
  description:
    'Sends "your table is ready" at once in the restaurant\'s language, by email when the party gave one and by text ' +
    "message when it gave a phone and an SMS provider is set, and marks the party `notified`. `sent` and `failed` name the " +
    "channels: with neither, the host tells the party in person. A seated or gone party is 409.",
  request: { params: PropertyIdParam.merge(WalkInIdParam) },
  responses: {
    200: json(envelope(ReadySchema), "the party, and how it was told"),
    ...errorResponses(...scoped, "walk_in_not_found", "walk_in_closed"),
  },
});

const closeRoute = createRoute({
  method: "patch",
  path: "/{property_id}/walk-ins/{walk_in_id}",
  tags,
  security,
  summary: "Seat a waiting party, or mark it gone",
  description:
    "`seated` (with the walk-in reservation that seated the party: the console books it with `POST /reservations` and " +
    "checks it in, then closes the entry) or `left`. The party leaves the list; a closed one is 409.",
  request: { params: PropertyIdParam.merge(WalkInIdParam), ...body(WalkInClose) },
  responses: {
    200: json(envelope(WalkInSchema), "the closed party"),
    ...errorResponses(...scoped, "walk_in_not_found", "walk_in_closed", "reservation_not_found"),
  },
});

export const walkInsRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(await listWalkIns(c, c.req.valid("param").property_id), 200))
  .openapi(addRoute, async (c) =>
    c.json(await addWalkIn(c, c.req.valid("param").property_id, c.req.valid("json")), 201),
  )
  .openapi(readyRoute, async (c) => {
    const { property_id, walk_in_id } = c.req.valid("param");
    return c.json(await tellReady(c, property_id, walk_in_id), 200);
  })
  .openapi(closeRoute, async (c) => {
    const { property_id, walk_in_id } = c.req.valid("param");
    return c.json(await closeWalkIn(c, property_id, walk_in_id, c.req.valid("json")), 200);
  });
