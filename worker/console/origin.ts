/**
 * The console acts only for its own pages. A browser says where a request comes from (Origin, and
 * Sec-Fetch-Site: whether the page is of this site): a write that another site's form, script or
 * link sends is refused whatever cookie it carries, a sign-in included (a browser signed in to the
 * attacker's restaurant would take phone bookings into it). A request with neither header is no
 * browser's, so no other site's doing. hono/csrf checks only the form content types, which the
 * console refuses anyway (415): this checks every write.
 */
import type { Context, MiddlewareHandler } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { isWrite } from "./session";

/** The console's own origins: the one the request reached, and the public one links name. */
export function isOwnOrigin(c: Context<AppEnv>, origin: string | undefined): boolean {
  return origin !== undefined && [new URL(c.req.url).origin, config(c.env).publicOrigin].includes(origin);
}

/** Sec-Fetch-Site of a page of this origin, or of the browser itself (an address typed, a bookmark). */
const OWN_SITES = new Set(["same-origin", "none"]);

/** 403 csrf_token_invalid for a console write another site sent. */
export function sameOriginWrites(): MiddlewareHandler<AppEnv> {
  return async function sameOriginWritesMiddleware(c, next) {
    if (isWrite(c.req.method)) {
      const site = c.req.header("Sec-Fetch-Site");
      const origin = c.req.header("Origin");
      if ((site !== undefined && !OWN_SITES.has(site)) || (origin !== undefined && !isOwnOrigin(c, origin)))
        throw new ApiError("csrf_token_invalid", "the console takes writes from its own pages only");
    }
    await next();
  };
}
