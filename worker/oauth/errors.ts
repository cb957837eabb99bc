/**
 * The OAuth endpoints' error shape (RFC 6749 5.2): `{error, error_description}`, never cached,
 * with a Basic challenge on 401. Only /token and /revoke answer in it; client creation and the
 * hosted pages of the same area answer in the one problem shape.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";

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

const isOAuthPath = (path: string) => /\/(token|revoke)\/?$/.test(path);

/** A body over the limit (lib/middleware.ts limitBody, mounted in app.ts for the whole auth area). */
export function authBodyTooLarge(c: Context<AppEnv>, detail: string): Response {
  if (isOAuthPath(c.req.path)) return oauthResponse(c, new OAuthError("invalid_request", detail, 413));
  throw new ApiError("payload_too_large", detail);
}

/** Validation failures of the OAuth routes answer in RFC 6749's shape. */
export const oauthValidationHook = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}): undefined => {
  if (!result.success) {
    const issue = result.error?.issues[0];
    throw new OAuthError(
      "invalid_request",
      issue ? `${issue.path.map(String).join(".") || "body"}: ${issue.message}` : "invalid request",
    );
  }
  return undefined;
};

/**
 * The area's error handler: OAuth errors in their shape, and on /token and /revoke an unreadable
 * JSON body and a spent rate limit too; anything else goes on to the one problem shape.
 */
export function answerOAuthErrors(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof OAuthError) return oauthResponse(c, err);
  const oauthPath = isOAuthPath(c.req.path);
  if (oauthPath && err instanceof HTTPException && err.status === 400) {
    return oauthResponse(c, new OAuthError("invalid_request", "the body is not valid JSON"));
  }
  if (oauthPath && err instanceof ApiError && err.code === "too_many_requests") {
    return oauthResponse(c, new OAuthError("slow_down", err.detail ?? "too many requests", 429));
  }
  throw err;
}
