import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";

/**
 * The issuer (RFC 8414, 9207): {auth_url} on PUBLIC_ORIGIN, never on the request's Host, which a
 * caller could forge to make the metadata and the redirects name another issuer.
 */
export const issuerOf = (c: Context<AppEnv>) => `${config(c.env).publicOrigin}/auth/api/v2`;
