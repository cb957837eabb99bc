import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { timingSafeEqual } from "../lib/crypto";

/** Without the OPS_TOKEN secret the operator's door does not exist; with it, only its holder gets through. */
export function operatorOnly(): MiddlewareHandler<AppEnv> {
  return async function operatorOnlyMiddleware(c, next) {
    const token = c.env.OPS_TOKEN;
    if (!token) throw new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`);
    const given = c.req.header("Authorization")?.replace(/^Bearer\s+/i, "") ?? "";
    if (!timingSafeEqual(given, token))
      throw new ApiError("invalid_token", "the operator's token is required here");
    await next();
  };
}
