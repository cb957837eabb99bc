/**
 * The token endpoints of {auth_url}/api-account/oauth2: /token (RFC 6749: client_credentials, and
 * the authorization_code and refresh_token grants of a restaurant's approval) and /revoke (RFC
 * 7009). Their errors answer in RFC 6749's shape (errors.ts). Mounted first on the area: its
 * per-address limit covers every route of it (client creation and the hosted pages too).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { callerKey, rateLimit } from "../lib/middleware";
import { json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { answerOAuthErrors, oauthValidationHook } from "./errors";
import { revoke, token } from "./token.handlers";

const TokenRequestSchema = z
  .object({
    grant_type: z.string().openapi({
      description: "client_credentials, authorization_code or refresh_token",
      example: "client_credentials",
    }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional(),
    code: z
      .string()
      .optional()
      .openapi({ description: "authorization_code: the code from the redirect (single use, 60 s)" }),
    redirect_uri: z
      .string()
      .optional()
      .openapi({ description: "authorization_code: the redirect_uri of the authorization request" }),
    code_verifier: z.string().optional().openapi({
      description: "authorization_code: the PKCE verifier whose S256 is the request's code_challenge",
    }),
    refresh_token: z
      .string()
      .optional()
      .openapi({ description: "refresh_token: the latest refresh token (each is single use)" }),
  })
  .openapi("TokenRequest");

const TokenSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    refresh_token: z.string().optional().openapi({
      description:
        "authorization_code and refresh_token grants: the next refresh token; the one sent is spent",
    }),
    property_ids: z.array(z.number().int()).optional().openapi({
      description:
        "authorization_code and refresh_token grants: the restaurant that approved; the access token reaches it only",
    }),
  })
  .openapi("AccessToken");

const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string() }).openapi("OAuthError");
const oauthError = (description: string) => ({
  content: { "application/json": { schema: OAuthErrorSchema } },
  description,
});

const tags = ["Clients and tokens"];

const formAndJson = (schema: z.ZodType) => ({
  content: { "application/x-www-form-urlencoded": { schema }, "application/json": { schema } },
  // Not "required": each validator then runs only for its own media type.
  required: false,
});

const tokenRoute = createRoute({
  method: "post",
  path: "/token",
  tags,
  summary: "Generate an access token (client_credentials, authorization_code, refresh_token)",
  description:
    "RFC 6749: `client_credentials` (4.4) answers a token for every property of the client; `authorization_code` (4.1.3, with the PKCE `code_verifier`, RFC 7636) and `refresh_token` (6) answer a token for the restaurant that approved the client, with `refresh_token` (rotated on every use; a spent one sent again revokes its whole family) and `property_ids`. The client authenticates with HTTP Basic (client_id:client_secret) or with client_id and client_secret in the body; form-encoded or JSON.",
  request: { body: formAndJson(TokenRequestSchema) },
  responses: {
    200: json(TokenSchema, "a bearer token"),
    400: oauthError("invalid_request, invalid_grant, unsupported_grant_type"),
    401: oauthError("invalid_client"),
    413: oauthError("invalid_request: the body is over 64 KiB"),
    429: oauthError("slow_down: too many requests (per address; IPv6 per /64); see Retry-After"),
  },
});

const revokeRoute = createRoute({
  method: "post",
  path: "/revoke",
  tags,
  summary: "Revoke an access or refresh token (RFC 7009)",
  description:
    "A refresh token takes its whole family with it: every refresh and access token issued from the same approval.",
  request: {
    body: formAndJson(
      z.object({
        token: z.string(),
        token_type_hint: z.string().optional(),
        client_id: z.string().optional(),
        client_secret: z.string().optional(),
      }),
    ),
  },
  responses: {
    200: { description: "revoked, or it was not a valid token of this client" },
    400: oauthError("invalid_request"),
    401: oauthError("invalid_client"),
    413: oauthError("invalid_request: the body is over 64 KiB"),
    429: oauthError("slow_down: too many requests (per address; IPv6 per /64); see Retry-After"),
  },
});

const NOT_STORED = { "Cache-Control": "no-store", Pragma: "no-cache" };

export const tokenRouter = createRouter();

// Per address, IPv6 per /64 (one subscriber holds a whole /64): creation, tokens, revocation and
// the hosted pages of the area share it.
tokenRouter.use("*", rateLimit({ binding: "PUBLIC_RATE_LIMITER", key: (c) => `auth:${callerKey(c)}` }));
tokenRouter.onError(answerOAuthErrors);

tokenRouter
  .openapi(tokenRoute, async (c) => c.json(await token(c), 200, NOT_STORED), oauthValidationHook)
  .openapi(
    revokeRoute,
    async (c) => {
      await revoke(c);
      return c.body(null, 200, { "Cache-Control": "no-store" });
    },
    oauthValidationHook,
  );
