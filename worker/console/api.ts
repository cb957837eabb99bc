/**
 * The console's API: the integrator API again under /console/api/v2, with the console's session
 * in place of a bearer token. The session's property is the only one reached (any other: 403
 * property_forbidden), writes need X-CSRF-Token, every change names who is at the console
 * (`staff:<id>`, or `client:<id>` for a platform's session), and each route asks for its role.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { API_RULES } from "../staff/roles";
import { requireRole } from "./roles";
import { requireConsoleSession, sessionOf } from "./session";

export const CONSOLE_API = "/console/api/v2";

/** The session (and its CSRF token on writes) as the request's client: the restaurant acting on itself. */
export function consoleAuth(): MiddlewareHandler<AppEnv>[] {
  const asClient: MiddlewareHandler<AppEnv> = async function consoleClientMiddleware(c, next) {
    const { entry, who } = sessionOf(c);
    c.set("client", {
      id: entry.ownerClientId,
      clientId: "console",
      productionEnabled: false,
      propertyId: entry.id,
      actor: who.actor,
      console: true,
    });
    await next();
  };
  return [requireConsoleSession(), asClient, requireRole(API_RULES, CONSOLE_API)];
}
