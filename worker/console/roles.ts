/**
 * The console's roles, enforced: each request's method and path against the table of
 * worker/staff/roles.ts, before its handler runs. A role short of the route's answers 403
 * role_required naming the role it needs; the narrower rights (a host writing a guest's notes, a
 * member their own PIN) are read from the JSON body's fields.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { missingRole, type Rule } from "../staff/roles";
import { isWrite, sessionOf } from "./session";

/** The staff id a staff route names (/properties/{id}/staff/{staff_id}), for a member's rights on themselves. */
const targetOf = (path: string) => {
  const m = /\/staff\/(\d{1,15})$/.exec(path);
  return m ? Number(m[1]) : undefined;
};

/** The field names of a write's JSON body (undefined when it is none): the narrower rights read them. */
async function bodyFields(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<string[] | undefined> {
  if (!isWrite(c.req.method)) return undefined;
  const body = await c.req.json().catch(() => undefined);
  return body && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : undefined;
}

/** 403 role_required when who is at the console may not call this route; `base`: the mount's prefix. */
export function requireRole(rules: readonly Rule[], base: string): MiddlewareHandler<AppEnv> {
  return async function requireRoleMiddleware(c, next) {
    const { who } = sessionOf(c);
    const path = c.req.path.slice(base.length) || "/";
    const asker = { role: who.role, staffId: who.staffId };
    let missing = missingRole(rules, asker, { method: c.req.method, path });
    // only a write the role falls short of reads its body for a narrower right
    if (missing) {
      const body = await bodyFields(c);
      missing = missingRole(rules, asker, { method: c.req.method, path, body, target: targetOf(path) });
    }
    if (missing)
      throw new ApiError(
        "role_required",
        `this needs the ${missing} role; you are signed in as ${who.role}`,
        {
          extensions: { role: missing },
        },
      );
    await next();
  };
}
