/**
 * The token endpoints of {auth_url}/api-account/oauth2: /token (RFC 6749: client_credentials, and
 * the authorization_code and refresh_token grants of a restaurant's approval) and /revoke (RFC
 * 7009). Their errors answer in RFC 6749's shape. Mounted first on the area: its per-address
 * limit covers every route of it (client creation and the hosted pages too).
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { issueToken, revokeToken } from "../auth/clients.repo";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { json } from "../lib/openapi";
import { callerKey, rateLimit } from "../lib/middleware";
import { createRouter } from "../lib/router";
import { exchangeCode, exchangeRefresh, revokeRefreshToken } from "./exchange";
import { OAuthError, oauthResponse, readOAuthRequest, requireClient } from "./request";

const TokenRequestSchema = z
  .object({
    grant_type: z.string().openapi({ description: "client_credentials, authorization_code or refresh_token", example: "client_credentials" }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional(),
    code: z.string().optional().openapi({ description: "authorization_code: the code from the redirect (single use, 60 s)" }),
    redirect_uri: z.string().optional().openapi({ description: "authorization_code: the redirect_uri of the authorization request" }),
    code_verifier: z.string().optional().openapi({ description: "authorization_code: the PKCE verifier whose S256 is the request's code_challenge" }),
    refresh_token: z.string().optional().openapi({ description: "refresh_token: the latest refresh token (each is single use)" }),
  })
  .openapi("TokenRequest");

const TokenSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    refresh_token: z.string().optional().openapi({ description: "authorization_code and refresh_token grants: the next refresh token; the one sent is spent" }),
    property_ids: z
      .array(z.number().int())
      .optional()
      .openapi({ description: "authorization_code and refresh_token grants: the restaurant that approved; the access token reaches it only" }),
  })
  .openapi("AccessToken");

const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string() }).openapi("OAuthError");
const oauthError = (description: string) => ({ content: { "application/json": { schema: OAuthErrorSchema } }, description });

const tags = ["Clients and tokens"];

const formAndJson = (schema: z.ZodType) => ({
  content: { "application/x-www-form-urlencoded": { schema }, "application/json": { schema } },
  // Not "required": each validator then runs only for its own media type.
  required: false,
});

/** Validation failures of the OAuth routes answer in RFC 6749's shape. */
const oauthHook = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): undefined => {
  if (!result.success) {
    const issue = result.error?.issues[0];
    throw new OAuthError("invalid_request", issue ? `${issue.path.map(String).join(".") || "body"}: ${issue.message}` : "invalid request");
  }
  return undefined;
};

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
  description: "A refresh token takes its whole family with it: every refresh and access token issued from the same approval.",
  request: { body: formAndJson(z.object({ token: z.string(), token_type_hint: z.string().optional(), client_id: z.string().optional(), client_secret: z.string().optional() })) },
  responses: {
    200: { description: "revoked, or it was not a valid token of this client" },
    400: oauthError("invalid_request"),
    401: oauthError("invalid_client"),
    413: oauthError("invalid_request: the body is over 64 KiB"),
    429: oauthError("slow_down: too many requests (per address; IPv6 per /64); see Retry-After"),
  },
});

const GRANTS = ["client_credentials", "authorization_code", "refresh_token"];

/**
 * The OAuth endpoints (token, revoke) answer in RFC 6749's shape; client creation (/client) and
 * the hosted pages of this area (authorize, connected apps) in the problem shape.
 */
const isOAuthPath = (path: string) => /\/(token|revoke)\/?$/.test(path);

/** A body over the limit (lib/middleware.ts limitBody, mounted in app.ts for this whole area). */
export function authBodyTooLarge(c: Context<AppEnv>, detail: string): Response {
  if (isOAuthPath(c.req.path)) return oauthResponse(c, new OAuthError("invalid_request", detail, 413));
  throw new ApiError("payload_too_large", detail);
}

export const tokenRouter = createRouter();

// Per address, IPv6 per /64 (one subscriber holds a whole /64): creation, tokens, revocation and
// the hosted pages of the area share it.
tokenRouter.use("*", rateLimit({ binding: "PUBLIC_RATE_LIMITER", key: (c) => `auth:${callerKey(c)}` }));
tokenRouter.onError((err, c) => {
  if (err instanceof OAuthError) return oauthResponse(c, err);
  const oauthPath = isOAuthPath(c.req.path);
  // An unreadable JSON body on /token or /revoke still answers in RFC 6749's shape.
  if (oauthPath && err instanceof HTTPException && err.status === 400) {
    return oauthResponse(c, new OAuthError("invalid_request", "the body is not valid JSON"));
  }
  if (oauthPath && err instanceof ApiError && err.code === "too_many_requests") {
    return oauthResponse(c, new OAuthError("slow_down", err.detail ?? "too many requests", 429));
  }
  throw err;
});

tokenRouter
.openapi(
    tokenRoute,
    async (c) => {
      const req = await readOAuthRequest(c);
      const grant = req.str("grant_type");
      if (!grant) throw new OAuthError("invalid_request", "grant_type is required");
      if (!GRANTS.includes(grant)) throw new OAuthError("unsupported_grant_type", `grant_type is one of ${GRANTS.join(", ")}`);
      const client = await requireClient(c, req);
      const ttl = config(c.env).tokenTtlSeconds;
      const control = c.get("control");
      const answer =
        grant === "authorization_code"
          ? await exchangeCode(control, client.id, req, ttl)
          : grant === "refresh_token"
            ? await exchangeRefresh(control, client.id, req, ttl)
            : { access_token: await issueToken(control, client.id, ttl), token_type: "Bearer" as const, expires_in: ttl };
      return c.json(answer, 200, { "Cache-Control": "no-store", Pragma: "no-cache" });
    },
    oauthHook,
  )
  .openapi(
    revokeRoute,
    async (c) => {
      const req = await readOAuthRequest(c);
      const client = await requireClient(c, req);
      const token = req.str("token");
      if (!token) throw new OAuthError("invalid_request", "token is required");
      // token_type_hint only orders the look-ups (RFC 7009 2.1): either kind is found.
      if (!(await revokeRefreshToken(c.get("control"), client.id, token))) await revokeToken(c.get("control"), client.id, token);
      return c.body(null, 200, { "Cache-Control": "no-store" });
    },
    oauthHook,
  );
