/**
 * Reading an OAuth request (RFC 6749): its body, form or JSON, and the client's credentials, by
 * HTTP Basic or body fields (not both); then authenticating the client.
 */
import type { Context } from "hono";
import { auth as basicCredentials } from "hono/utils/basic-auth";
import { authenticateClient } from "../auth/clients.repo";
import type { AppEnv } from "../env";
import { OAuthError } from "./errors";

/** Reads an OAuth request: form or JSON body, client by Basic header or body (not both). */
export async function readOAuthRequest(c: Context<AppEnv>) {
  const body = await readBody(c);
  const str = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : undefined);
  const basic = c.req.header("Authorization") !== undefined;
  const client = basic
    ? basicClient(c, str("client_secret"))
    : { clientId: str("client_id"), clientSecret: str("client_secret") };
  return { body, str, ...client, basic };
}

export type OAuthRequest = Awaited<ReturnType<typeof readOAuthRequest>>;

async function readBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = c.req.header("Content-Type") ?? "";
  // Read as bytes: workerd warns when .text() is called on a form body.
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
  if (/^application\/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(text));
  if (/^application\/json/i.test(type)) return jsonObject(text);
  throw new OAuthError(
    "invalid_request",
    "send the body as application/x-www-form-urlencoded or application/json",
  );
}

function jsonObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new OAuthError("invalid_request", "the body is not a JSON object");
  return parsed as Record<string, unknown>;
}

/**
 * The client's credentials from the Authorization header, parsed as hono's basic-auth middleware
 * parses it; the middleware itself would answer its own 401, where RFC 6749 wants its error shape
 * and lets the client authenticate in the body instead.
 */
function basicClient(c: Context<AppEnv>, bodySecret: string | undefined) {
  const credentials = basicCredentials(c.req.raw);
  if (!credentials)
    throw new OAuthError(
      "invalid_client",
      "the Authorization header must be HTTP Basic client_id:client_secret",
      401,
      true,
    );
  if (bodySecret !== undefined)
    throw new OAuthError("invalid_request", "authenticate the client one way: Basic or body, not both");
  return { clientId: formDecode(credentials.username), clientSecret: formDecode(credentials.password) };
}

/** RFC 6749 2.3.1: both parts are form-urlencoded before base64. */
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

export async function requireClient(c: Context<AppEnv>, req: OAuthRequest) {
  if (!req.clientId || !req.clientSecret) {
    throw new OAuthError(
      "invalid_client",
      "client authentication is required (HTTP Basic or client_id and client_secret)",
      401,
      req.basic,
    );
  }
  const client = await authenticateClient(c.get("control"), req.clientId, req.clientSecret);
  if (!client) throw new OAuthError("invalid_client", "unknown client or wrong secret", 401, req.basic);
  return client;
}
