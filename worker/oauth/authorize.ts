/**
 * The authorization request (RFC 6749 4.1.1 with PKCE, RFC 7636 4.3), checked in two tiers:
 * a client_id or redirect_uri we cannot trust is shown on an error page and never redirected to
 * (4.1.2.1); anything else wrong goes back to the client as `error` on its redirect_uri. (A
 * parameter sent twice, which 3.1 forbids, never gets this far: the route shows the error page.)
 * Pure: no Hono, no drizzle.
 */

/** The request's parameters (`scope` is taken and ignored: a grant reaches the whole restaurant). */
export interface AuthorizeQuery {
  response_type?: string | undefined;
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  state?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
}

export interface AuthorizeRequest {
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
}

export type Untrusted = "unknown_client" | "wrong_redirect";
export interface RedirectError {
  error: "invalid_request" | "unsupported_response_type";
  description: string;
}

/** S256 of a 32-byte digest: 43 base64url characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE = 1024;

/** Whether the client and its redirect_uri can be trusted: exactly the URI the client registered. */
export function untrusted(
  q: AuthorizeQuery,
  client: { redirectUri: string } | undefined,
): Untrusted | undefined {
  if (!client) return "unknown_client";
  if (q.redirect_uri !== client.redirectUri) return "wrong_redirect";
  return undefined;
}

/** The rest of the request, for a trusted client: the request itself, or the error to send back. */
export function checkAuthorize(v: AuthorizeQuery): { request: AuthorizeRequest } | { error: RedirectError } {
  const invalid = (description: string) => ({ error: { error: "invalid_request" as const, description } });
  if (v.response_type !== "code")
    return { error: { error: "unsupported_response_type", description: "response_type must be code" } };
  if (!v.code_challenge) return invalid("code_challenge is required (PKCE, RFC 7636)");
  if (v.code_challenge_method !== "S256") return invalid("code_challenge_method must be S256");
  if (!CHALLENGE.test(v.code_challenge))
    return invalid("code_challenge must be the base64url S256 of the code_verifier (43 characters)");
  if (v.state !== undefined && v.state.length > MAX_STATE)
    return invalid(`state is limited to ${MAX_STATE} characters`);
  return { request: { redirectUri: v.redirect_uri!, state: v.state, codeChallenge: v.code_challenge } };
}

/** The client's redirect_uri with the answer's parameters added (its own query kept, RFC 6749 3.1.2). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** The first of the locales asked for (ui_locales, then Accept-Language) that the pages speak. */
export function pickLocale<L extends string>(
  supported: readonly L[],
  asked: (string | undefined)[],
  fallback: L,
): L {
  for (const list of asked) {
    const tags = (list ?? "")
      .split(/[\s,]+/)
      .map((t) => t.split(";")[0]!.trim().toLowerCase().split("-")[0]!)
      .filter(Boolean);
    const hit = tags.find((t): t is L => (supported as readonly string[]).includes(t));
    if (hit) return hit;
  }
  return fallback;
}
