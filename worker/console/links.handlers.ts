/** A platform opens the console for one of its restaurants: a single-use sign-in link, valid 60 seconds. */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { randomToken, sha256Hex } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";
import { CONSOLE_PATH } from "./session";
import { insertConsoleLink } from "./sessions.repo";

/** How long a sign-in link may wait to be followed. */
export const SIGN_IN_LINK_SECONDS = 60;

/**
 * POST /console/links (Property header, already authorised): a link whose first visit signs the
 * browser in to the console as that restaurant. Only the token's hash is kept.
 */
export async function createSignInLink(c: Context<AppEnv>, role: "manager" | "host" = "manager") {
  const client = c.get("client");
  // Mounted for the integrator API only; a console session already is the restaurant.
  if (client.console)
    throw new ApiError("property_forbidden", "the console cannot make sign-in links for itself");
  const token = randomToken("csl_", 32);
  const at = nowIso();
  const expiresAt = addSeconds(at, SIGN_IN_LINK_SECONDS);
  await insertConsoleLink(c.get("control"), {
    tokenHash: await sha256Hex(token),
    kind: "sign_in",
    propertyId: c.get("property").id,
    clientId: client.id,
    role,
    expiresAt,
    createdAt: at,
  });
  const url = new URL(`${CONSOLE_PATH}/link/${token}`, config(c.env).publicOrigin).toString();
  return { data: [{ url, expires_at: expiresAt }] };
}
