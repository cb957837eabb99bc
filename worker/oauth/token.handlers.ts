/** The token endpoints' work: issue a token for a grant, revoke a token (RFC 6749, RFC 7009). */
import type { Context } from "hono";
import { issueToken, revokeToken } from "../auth/clients.repo";
import { config } from "../config";
import type { AppEnv } from "../env";
import { OAuthError } from "./errors";
import { exchangeCode, exchangeRefresh, revokeRefreshToken } from "./exchange";
import { readOAuthRequest, requireClient } from "./request";

const GRANTS = ["client_credentials", "authorization_code", "refresh_token"];

/** POST /token: the client authenticated, the grant exchanged for a bearer token. */
export async function token(c: Context<AppEnv>) {
  const req = await readOAuthRequest(c);
  const grant = req.str("grant_type");
  if (!grant) throw new OAuthError("invalid_request", "grant_type is required");
  if (!GRANTS.includes(grant))
    throw new OAuthError("unsupported_grant_type", `grant_type is one of ${GRANTS.join(", ")}`);
  const client = await requireClient(c, req);
  const ttl = config(c.env).tokenTtlSeconds;
  const control = c.get("control");
  if (grant === "authorization_code") return exchangeCode(control, client.id, req, ttl);
  if (grant === "refresh_token") return exchangeRefresh(control, client.id, req, ttl);
  return {
    access_token: await issueToken(control, client.id, ttl),
    token_type: "Bearer" as const,
    expires_in: ttl,
  };
}

/** POST /revoke: the client's token, whichever kind it is, revoked; an unknown one is no error. */
export async function revoke(c: Context<AppEnv>): Promise<void> {
  const req = await readOAuthRequest(c);
  const client = await requireClient(c, req);
  const presented = req.str("token");
  if (!presented) throw new OAuthError("invalid_request", "token is required");
  // token_type_hint only orders the look-ups (RFC 7009 2.1): either kind is found.
  if (!(await revokeRefreshToken(c.get("control"), client.id, presented)))
    await revokeToken(c.get("control"), client.id, presented);
}
