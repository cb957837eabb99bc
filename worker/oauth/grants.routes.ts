/**
 * /properties/{property_id}/apps: the apps (API clients) a restaurant connected. The restaurant
 * lists and disconnects them from its console; an integrator sees and disconnects only itself.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  AUTHED,
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  listEnvelope,
  PropertyIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { disconnectApp, listConnectedApps } from "./grants.handlers";
import { ClientIdParam, ConnectedAppSchema } from "./grants.schemas";

const tags = ["Properties"];
const security = bearerSecurity;

const listRoute = createRoute({
  method: "get",
  path: "/{property_id}/apps",
  tags,
  security,
  summary: "List the apps connected to a property",
  description:
    "The apps the restaurant connected (it approved their access), oldest first; the client that created the property is not among them. " +
    "The restaurant's console sees every one; an integrator sees only itself, when the restaurant connected it. One page: `next_cursor` is null.",
  request: { params: PropertyIdParam },
  responses: {
    200: json(listEnvelope(ConnectedAppSchema), "the connected apps"),
    ...errorResponses(...AUTHED, "property_not_found", "property_forbidden", "sandbox_expired"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{property_id}/apps/{client_id}",
  tags,
  security,
  summary: "Disconnect an app from a property",
  description:
    "Ends the app's access to the restaurant: its access and refresh tokens for it stop working and its webhook subscriptions there are deleted. " +
    "The restaurant's console disconnects any connected app; an integrator only itself (403 for another `client_id`). " +
    "The client that created the property cannot be disconnected (403).",
  request: { params: PropertyIdParam.merge(ClientIdParam) },
  responses: {
    200: json(envelope(z.string()), "the client_id of the disconnected app"),
    ...errorResponses(
      ...AUTHED,
      "property_not_found",
      "property_forbidden",
      "app_not_disconnectable",
      "app_not_found",
      "service_unavailable",
    ),
  },
});

export const grantsRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(await listConnectedApps(c, c.req.valid("param").property_id), 200))
  .openapi(deleteRoute, async (c) => {
    const { property_id, client_id } = c.req.valid("param");
    return c.json(await disconnectApp(c, property_id, client_id), 200);
  });
