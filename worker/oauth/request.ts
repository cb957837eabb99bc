/**
 * The OAuth endpoints' common ground (RFC 6749): their error shape, reading a request (form or
 * JSON; the client by HTTP Basic or body fields) and authenticating the client.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { authenticateClient } from "../auth/clients.repo";

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: 400 | 401 | 413 | 429 = 400,
    readonly basic = false,
  ) {
    super(description);
  }
}

export function oauthResponse(c: Context<AppEnv>, e: OAuthError) {
  const headers: Record<string, string> = { "Cache-Control": "no-store", Pragma: "no-cache" };
  if (e.status === 401) headers["WWW-Authenticate"] = 'Basic realm="oauth2", charset="UTF-8"';
  if (e.status === 429) headers["Retry-After"] = "60";
  return c.json({ error: e.error, error_description: e.description }, e.status, headers);
}

/** Reads an OAuth request: form or JSON body, client by Basic header or body (not both). */
export async function readOAuthRequest(c: Context<AppEnv>) {
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

export async function requireClient(c: Context<AppEnv>, req: Awaited<ReturnType<typeof readOAuthRequest>>) {
  if (!req.clientId || !req.clientSecret) {
    throw new OAuthError("invalid_client", "client authentication is required (HTTP Basic or client_id and client_secret)", 401, req.basic);
  }
  const client = await authenticateClient(c.get("control"), req.clientId, req.clientSecret);
  if (!client) throw new OAuthError("invalid_client", "unknown client or wrong secret", 401, req.basic);
  return client;
}

export type OAuthRequest = Awaited<ReturnType<typeof readOAuthRequest>>;
