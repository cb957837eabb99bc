/**
 * {auth_url}/api-account/oauth2/client: an API client and its sandbox property, created with no
 * token. The token endpoints of the same area live in worker/oauth/token.routes.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { invalidInput } from "../errors";
import { jsonBodyOnly } from "../lib/middleware";
import { envelope, errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { createApiClient } from "./clients.handlers";
import { ApiClientSchema, FlatClientSchema, NestedClientSchema } from "./clients.schemas";

const tags = ["Clients and tokens"];

const createClientRoute = createRoute({
  method: "post",
  path: "/client",
  tags,
  summary: "Create an API client and its sandbox property",
  description:
    "No Authorization header. Accepts the flat shape or the nested `sandbox_property` shape. The client_secret is shown only in this response.",
  request: {
    body: {
      content: { "application/json": { schema: z.union([FlatClientSchema, NestedClientSchema]) } },
      required: true,
    },
  },
  responses: {
    200: json(envelope(ApiClientSchema), "the client, with its sandbox property"),
    ...errorResponses("username_taken"),
  },
});

/**
 * The body is one shape or the other, so report the errors of the shape the caller meant
 * (sandbox_property present or not): the union's own "closest branch" would name
 * sandbox_property when a flat body misses two fields.
 */
const clientShapeHook = (result: { success: boolean; target: string; error?: unknown }): undefined => {
  if (result.success) return undefined;
  const raw = (result as { data?: unknown }).data;
  const nested = typeof raw === "object" && raw !== null && "sandbox_property" in raw;
  const parsed = (nested ? NestedClientSchema : FlatClientSchema).safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, result.target);
  throw invalidInput(result.error as Parameters<typeof invalidInput>[0], result.target);
};

export const clientsRouter = createRouter();

// No Idempotency-Key store here: the response holds the client_secret, which must be shown
// once and never kept in clear. A retried creation is safe anyway: the username is unique (409).
clientsRouter.use("/client", jsonBodyOnly());

clientsRouter.openapi(
  createClientRoute,
  async (c) =>
    c.json({ data: [await createApiClient(c, c.req.valid("json"))] }, 200, { "Cache-Control": "no-store" }),
  clientShapeHook,
);
