/**
 * {auth_url}/api-account/oauth2/*: client creation (no token), the token endpoint (RFC 6749:
 * client_credentials, and the authorization_code and refresh_token grants of worker/oauth) and
 * revocation (RFC 7009). OAuth errors use RFC 6749's shape.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError, invalidInput } from "../errors";
import { emailField, envelope, errorResponses, json, optionalString, passwordField, urlField, usernameField } from "../lib/openapi";
import { callerKey, jsonBodyOnly, rateLimit } from "../lib/middleware";
import { config } from "../config";
import { PositionSchema, PropertySchema } from "../properties/properties.routes";
import { writePlaced } from "../properties/lifecycle";
import { toPropertyDto } from "../properties/properties.repo";
import { shardCount } from "../shards/shards";
import { createClient, deleteClient, issueToken, revokeToken, usernameTaken } from "./clients.repo";
import { OAuthError, oauthResponse, readOAuthRequest, requireClient } from "./oauth";
import { exchangeCode, exchangeRefresh, revokeRefreshToken } from "../oauth/exchange";

const username = usernameField;
const password = passwordField;
const email = emailField;
const redirectUri = urlField;

const FlatClientSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    email,
    username,
    password,
    redirect_uri: redirectUri,
    website: urlField.optional(),
    phone: optionalString(40),
    description: optionalString(5000),
    position: PositionSchema.optional(),
  })
  .openapi("ClientCreateFlat", {
    example: { name: "Acme POS", email: "dev@acme.example", username: "acme", password: "correct horse battery", redirect_uri: "https://acme.example" },
  });

const NestedClientSchema = z
  .object({
    redirect_uri: redirectUri,
    sandbox_property: z.object({
      name: z.string().trim().min(1).max(200),
      email,
      username,
      password,
      description: optionalString(5000),
      website: urlField.optional(),
      phone: optionalString(40),
      position: PositionSchema.optional(),
    }),
  })
  .openapi("ClientCreateNested", {
    example: {
      redirect_uri: "https://acme.example",
      sandbox_property: { name: "Acme Test Restaurant", username: "acme", password: "correct horse battery", email: "dev@acme.example", description: "test" },
    },
  });

const ApiClientSchema = z
  .object({
    id: z.number().int(),
    client_id: z.string(),
    client_secret: z.string().openapi({ description: "shown once, here" }),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    password: z.string().openapi({ description: "echoed as sent (SPEC); stored hashed" }),
    redirect_uri: z.string(),
    production_enabled: z.boolean(),
    properties: z.array(PropertySchema),
  })
  .openapi("ApiClient");

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

const createClientRoute = createRoute({
  method: "post",
  path: "/client",
  tags,
  summary: "Create an API client and its sandbox property",
  description: "No Authorization header. Accepts the flat shape or the nested `sandbox_property` shape. The client_secret is shown only in this response.",
  request: {
    body: { content: { "application/json": { schema: z.union([FlatClientSchema, NestedClientSchema]) } }, required: true },
  },
  responses: { 200: json(envelope(ApiClientSchema), "the client, with its sandbox property"), ...errorResponses("username_taken") },
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

export const clientsRouter = createRouter();

// Per address, IPv6 per /64 (one subscriber holds a whole /64): creation, tokens and revocation share it.
clientsRouter.use("*", rateLimit({ binding: "PUBLIC_RATE_LIMITER", key: (c) => `auth:${callerKey(c)}` }));
// No Idempotency-Key store here: the response holds the client_secret, which must be shown
// once and never kept in clear. A retried creation is safe anyway: the username is unique (409).
clientsRouter.use("/client", jsonBodyOnly());
clientsRouter.onError((err, c) => {
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

clientsRouter
  .openapi(createClientRoute, async (c) => {
    const body = c.req.valid("json");
    const input =
      "sandbox_property" in body
        ? {
            name: body.sandbox_property.name,
            email: body.sandbox_property.email,
            username: body.sandbox_property.username,
            password: body.sandbox_property.password,
            redirectUri: body.redirect_uri,
            property: body.sandbox_property,
          }
        : { name: body.name, email: body.email, username: body.username, password: body.password, redirectUri: body.redirect_uri, property: body };
    const control = c.get("control");
    const taken = () => new ApiError("username_taken", `the username "${input.username}" is taken`);
    // Checked first to spare the slow password hash; the UNIQUE index below settles races.
    if (await usernameTaken(control, input.username)) throw taken();
    let created;
    try {
      created = await createClient(control, input, shardCount(c.env));
    } catch (e) {
      if (String((e as Error)?.message ?? e).includes("UNIQUE") || String((e as { cause?: unknown })?.cause ?? "").includes("UNIQUE")) throw taken();
      throw e;
    }
    const { client, clientSecret, entry } = created;
    // The sandbox property's row, in the shard the directory chose (the client goes if it cannot be written).
    const property = await writePlaced(c.env, control, entry, { ...input.property, passwordHash: client.passwordHash }, { sandbox: true, sandboxDays: config(c.env).sandboxDays }).catch(async (err) => {
      await deleteClient(control, client.id);
      throw err;
    });
    return c.json(
      {
        data: [
          {
            id: client.id,
            client_id: client.clientId,
            client_secret: clientSecret,
            name: client.name,
            email: client.email,
            username: client.username,
            password: input.password,
            redirect_uri: client.redirectUri,
            production_enabled: client.productionEnabled,
            properties: [toPropertyDto(property)],
          },
        ],
      },
      200,
      { "Cache-Control": "no-store" },
    );
  }, clientShapeHook)
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
