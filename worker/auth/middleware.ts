import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../lib/crypto";
import { callerKey } from "../lib/middleware";
import { nowIso } from "../lib/time";
import { authoriseProperty, authorisePropertyLater } from "../properties/authorise";
import type { Preload } from "../properties/binding";
import { foundEntry } from "../shards/directory.repo";
import { findTokenClient } from "./clients.repo";

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const PROPERTY_ID = /^\s*[1-9]\d{0,15}\s*$/;

/** The property id a Property header names, if it is one. */
export const propertyHeaderId = (raw: string | undefined) =>
  raw !== undefined && PROPERTY_ID.test(raw) ? Number(raw) : undefined;

function challenge(error?: string, description?: string): Record<string, string> {
  const parts = ['Bearer realm="api"'];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description}"`);
  return { "WWW-Authenticate": parts.join(", ") };
}

/** RFC 6750 bearer authentication with opaque tokens stored as SHA-256. */
export function bearerAuth(): MiddlewareHandler<AppEnv> {
  return async function bearerAuthMiddleware(c, next) {
    const header = c.req.header("Authorization");
    // No credentials, or another scheme (RFC 6750 3.1): a bare challenge, no error code.
    if (!header || !/^Bearer(\s|$)/i.test(header)) {
      throw new ApiError("authentication_required", "send Authorization: Bearer <access_token>", {
        headers: challenge(),
      });
    }
    const match = BEARER.exec(header);
    if (!match) {
      throw new ApiError("invalid_request", "the Authorization header must be 'Bearer <access_token>'", {
        headers: challenge("invalid_request", "malformed Authorization header"),
      });
    }
    // A property-scoped request's directory entry comes in the token's round trip.
    const ahead = propertyHeaderId(c.req.header("Property")) ?? 0;
    const row = await findTokenClient(c.get("control"), await sha256Hex(match[1]!), ahead);
    if (!row || row.revokedAt || row.expiresAt <= nowIso()) {
      // Guessing tokens costs a D1 read each: failed attempts are limited per address (IPv6 per /64).
      const { success } = await c.env.PUBLIC_RATE_LIMITER.limit({ key: `bad-token:${callerKey(c)}` });
      if (!success)
        throw new ApiError("too_many_requests", "too many failed authentications; retry after 60 seconds", {
          headers: { "Retry-After": "60" },
        });
      const why = !row
        ? "unknown access token"
        : row.revokedAt
          ? "the access token was revoked"
          : "the access token expired";
      throw new ApiError("invalid_token", why, { headers: challenge("invalid_token", why) });
    }
    c.set("client", {
      id: row.id,
      clientId: row.clientId,
      productionEnabled: row.productionEnabled,
      propertyId: row.propertyId,
      actor: `client:${row.id}`,
      console: false,
    });
    if (ahead)
      c.set("entryAhead", {
        id: ahead,
        found: foundEntry(row.entry, row.granted !== null, ahead, row.propertyId),
      });
    await next();
  };
}

/**
 * The `Property: <id>` header of property-scoped calls. `preload`: what the
 * request's route reads in the round trip of the property row, if anything (binding.ts).
 * `later`: the requests whose property row is read, and checked, by what they call next (a
 * booking: the restaurant's desk), so that they do not read it here too.
 */
export function requireProperty(
  options: {
    preload?: (c: Context<AppEnv>) => Preload | undefined | Promise<Preload | undefined>;
    later?: (c: Context<AppEnv>) => boolean;
  } = {},
): MiddlewareHandler<AppEnv> {
  return async function requirePropertyMiddleware(c, next) {
    const client = c.get("client");
    // The console acts on its own property: the header may be left out.
    const raw = c.req.header("Property") ?? (client.console ? String(client.propertyId) : undefined);
    if (raw === undefined || raw.trim() === "") {
      throw new ApiError("property_header_required", "send the header Property: <property_id>");
    }
    const id = propertyHeaderId(raw);
    if (id === undefined) {
      throw new ApiError(
        "invalid_input_data",
        "the Property header must be a property id (a positive integer)",
        {
          errors: [{ path: "Property", message: "expected a positive integer" }],
        },
      );
    }
    if (options.later?.(c)) await authorisePropertyLater(c, id);
    else await authoriseProperty(c, id, { preload: await options.preload?.(c) });
    await next();
  };
}
