/**
 * RFC 8414 authorization server metadata for the issuer {auth_url} (`<origin>/auth/api/v2`), at
 * the well-known address RFC 8414 section 3.1 derives from it, so OAuth libraries discover the
 * endpoints (oauth4webapi's discoveryRequest, for one).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import { serverMetadata } from "./metadata.handlers";

export const METADATA_PATH = "/.well-known/oauth-authorization-server/auth/api/v2";

const Metadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
    ui_locales_supported: z.array(z.string()),
  })
  .openapi("AuthorizationServerMetadata");

const route = createRoute({
  method: "get",
  path: METADATA_PATH,
  tags: ["Clients and tokens"],
  summary: "OAuth authorization server metadata (RFC 8414)",
  responses: {
    200: {
      content: { "application/json": { schema: Metadata } },
      description: "the endpoints and what they support",
    },
  },
});

export const metadataRouter = createRouter().openapi(route, (c) =>
  c.json(serverMetadata(c), 200, { "Cache-Control": "public, max-age=3600" }),
);
