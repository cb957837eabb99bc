/**
 * {auth_url}/api-account/oauth2/*: client creation (no token), the client_credentials token
 * endpoint (RFC 6749 4.4) and revocation (RFC 7009). OAuth errors use RFC 6749's shape.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError, invalidInput } from "../errors";
import { emailField, envelope, errorResponses, json, optionalString, passwordField, urlField } from "../lib/openapi";
import { callerKey, jsonBodyOnly, rateLimit } from "../lib/middleware";
import { intVar } from "../lib/time";
import { PositionSchema, PropertySchema } from "../properties/properties.routes";
import { writePlaced } from "../properties/lifecycle";
import { toPropertyDto } from "../properties/properties.repo";
import { shardCount } from "../shards/shards";
import { authenticateClient, createClient, deleteClient, issueToken, revokeToken, usernameTaken } from "./clients.repo";

const username = z.string().trim().min(3).max(100);
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
    grant_type: z.string().openapi({ example: "client_credentials" }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional(),
  })
  .openapi("TokenRequest");

const TokenSchema = z
  .object({ access_token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int() })
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
  summary: "Generate an access token (client_credentials)",
  description:
    "RFC 6749 section 4.4. Authenticate with HTTP Basic (client_id:client_secret) or with client_id and client_secret in the body; form-encoded or JSON.",
  request: { body: formAndJson(TokenRequestSchema) },
  responses: {
    200: json(TokenSchema, "a bearer token"),
    400: oauthError("invalid_request, unsupported_grant_type"),
    401: oauthError("invalid_client"),
    413: oauthError("invalid_request: the body is over 64 KiB"),
    429: oauthError("slow_down: too many requests (per address; IPv6 per /64); see Retry-After"),
  },
});

const revokeRoute = createRoute({
  method: "post",
  path: "/revoke",
  tags,
  summary: "Revoke an access token (RFC 7009)",
  request: { body: formAndJson(z.object({ token: z.string(), token_type_hint: z.string().optional(), client_id: z.string().optional(), client_secret: z.string().optional() })) },
  responses: {
    200: { description: "revoked, or it was not a valid token of this client" },
    400: oauthError("invalid_request"),
    401: oauthError("invalid_client"),
    413: oauthError("invalid_request: the body is over 64 KiB"),
    429: oauthError("slow_down: too many requests (per address; IPv6 per /64); see Retry-After"),
  },
});

class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: 400 | 401 | 413 | 429 = 400,
    readonly basic = false,
  ) {
    super(description);
  }
}

function oauthResponse(c: Context<AppEnv>, e: OAuthError) {
  const headers: Record<string, string> = { "Cache-Control": "no-store", Pragma: "no-cache" };
  if (e.status === 401) headers["WWW-Authenticate"] = 'Basic realm="oauth2", charset="UTF-8"';
  if (e.status === 429) headers["Retry-After"] = "60";
  return c.json({ error: e.error, error_description: e.description }, e.status, headers);
}

/** Reads an OAuth request: form or JSON body, client by Basic header or body (not both). */
async function readOAuthRequest(c: Context<AppEnv>) {
  const type = c.req.header("Content-Type") ?? "";
  // Read as bytes: workerd warns when .text() is called on a form body.
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
  let body: Record<string, unknown>;
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    body = Object.fromEntries(new URLSearchParams(text));
  } else if (/^application\/json/i.test(type)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      body = parsed as Record<string, unknown>;
    } catch {
      throw new OAuthError("invalid_request", "the body is not a JSON object");
    }
  } else {
    throw new OAuthError("invalid_request", "send the body as application/x-www-form-urlencoded or application/json");
  }
  const str = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : undefined);
  const auth = c.req.header("Authorization");
  let clientId = str("client_id");
  let clientSecret = str("client_secret");
  let basic = false;
  if (auth) {
    const m = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(auth);
    if (!m) throw new OAuthError("invalid_client", "the Authorization header must be HTTP Basic", 401, true);
    if (clientSecret !== undefined) throw new OAuthError("invalid_request", "authenticate the client one way: Basic or body, not both");
    let decoded: string;
    try {
      decoded = atob(m[1]!);
    } catch {
      throw new OAuthError("invalid_client", "the Basic credentials are not valid base64", 401, true);
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError("invalid_client", "Basic credentials must be client_id:client_secret", 401, true);
    // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        return s;
      }
    };
    clientId = decode(decoded.slice(0, colon));
    clientSecret = decode(decoded.slice(colon + 1));
    basic = true;
  }
  return { body, str, clientId, clientSecret, basic };
}

async function requireClient(c: Context<AppEnv>, req: Awaited<ReturnType<typeof readOAuthRequest>>) {
  if (!req.clientId || !req.clientSecret) {
    throw new OAuthError("invalid_client", "client authentication is required (HTTP Basic or client_id and client_secret)", 401, req.basic);
  }
  const client = await authenticateClient(c.get("control"), req.clientId, req.clientSecret);
  if (!client) throw new OAuthError("invalid_client", "unknown client or wrong secret", 401, req.basic);
  return client;
}

/** The OAuth endpoints answer in RFC 6749's shape; client creation (/client) in the problem shape. */
const isOAuthPath = (path: string) => !path.endsWith("/client");

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
    const property = await writePlaced(c.env, control, entry, { ...input.property, passwordHash: client.passwordHash }, { sandbox: true, sandboxDays: intVar(c.env.SANDBOX_DAYS, 90, 1) }).catch(async (err) => {
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
      if (grant !== "client_credentials") throw new OAuthError("unsupported_grant_type", "only client_credentials is supported");
      const client = await requireClient(c, req);
      const ttl = intVar(c.env.TOKEN_TTL_SECONDS, 3600, 1);
      const token = await issueToken(c.get("control"), client.id, ttl);
      return c.json({ access_token: token, token_type: "Bearer" as const, expires_in: ttl }, 200, { "Cache-Control": "no-store", Pragma: "no-cache" });
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
      await revokeToken(c.get("control"), client.id, token);
      return c.body(null, 200, { "Cache-Control": "no-store" });
    },
    oauthHook,
  );
