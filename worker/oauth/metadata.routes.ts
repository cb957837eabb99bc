/**
 * RFC 8414 authorization server metadata for the issuer {auth_url} (`<origin>/auth/api/v2`), at
 * the well-known address RFC 8414 section 3.1 derives from it, so OAuth libraries discover the
 * endpoints (oauth4webapi's discoveryRequest, for one).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { config } from "../config";
import { createRouter } from "../lib/router";
import { issuerOf } from "./authorize.routes";
import { OAUTH_PATH } from "./signin";

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
  responses: { 200: { content: { "application/json": { schema: Metadata } }, description: "the endpoints and what they support" } },
});

export const metadataRouter = createRouter().openapi(route, (c) => {
  // on PUBLIC_ORIGIN, never on the request's Host (issue 12, defect 9)
  const origin = config(c.env).publicOrigin;
  const auth = ["client_secret_basic", "client_secret_post"];
  return c.json(
    {
      issuer: issuerOf(c),
      authorization_endpoint: `${origin}${OAUTH_PATH}/authorize`,
      token_endpoint: `${origin}${OAUTH_PATH}/token`,
      revocation_endpoint: `${origin}${OAUTH_PATH}/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: auth,
      revocation_endpoint_auth_methods_supported: auth,
      authorization_response_iss_parameter_supported: true,
      ui_locales_supported: ["en", "it", "fr", "de", "es"],
    },
    200,
    { "Cache-Control": "public, max-age=3600" },
  );
});
