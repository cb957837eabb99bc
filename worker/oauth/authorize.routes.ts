/**
 * {auth_url}/api-account/oauth2/authorize (RFC 6749 4.1 with PKCE S256): the hosted sign-in,
 * then consent, then back to the client's redirect_uri with a code (single use, 60 s, bound to
 * the client, the redirect_uri and the challenge) or `error=access_denied`.
 *   GET  /authorize           checks the request, starts the flow, shows the sign-in
 *   POST /authorize           the sign-in form (or its Cancel)
 *   GET  /authorize/consent   what the client will be able to do; Allow or Deny
 *   POST /authorize/consent   the decision: a code, or access_denied
 * A client_id or redirect_uri that cannot be trusted never redirects: an error page says so.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import {
  decideConsent,
  showConsent,
  signInToAuthorize,
  startAuthorization,
  untrustedRequest,
} from "./authorize.handlers";

const one = (description: string) => z.string().optional().openapi({ description });
const AuthorizeQuery = z.object({
  response_type: one("code"),
  client_id: one("the client's client_id"),
  redirect_uri: one("exactly the redirect_uri the client registered"),
  state: one("opaque; returned as given"),
  code_challenge: one("BASE64URL(SHA-256(code_verifier)): PKCE, required"),
  code_challenge_method: one("S256 (required; plain is refused)"),
  scope: one("accepted and ignored: a grant reaches the whole restaurant"),
  ui_locales: one("en, it, fr, de or es (else Accept-Language)"),
});

const authorizeRoute = createRoute({
  method: "get",
  path: "/authorize",
  tags: ["Clients and tokens"],
  summary: "Ask a restaurant to connect (authorization code with PKCE)",
  description:
    "RFC 6749 4.1 with PKCE S256 (RFC 7636). Send the restaurant's browser here: it signs in with its property's username and password and allows or denies. Allowed: `303` to `redirect_uri?code=...&state=...&iss=...` (the code is single use and lives 60 s); denied: `redirect_uri?error=access_denied&state=...`; other request errors also go back as `error`. An unknown `client_id` or a `redirect_uri` other than the registered one never redirects: it answers an error page. Exchange the code at `/token` with `grant_type=authorization_code`.",
  request: { query: AuthorizeQuery },
  responses: {
    200: { content: { "text/html": { schema: z.string() } }, description: "the sign-in page" },
    303: { description: "back to the client's redirect_uri with `error` (a request the client got wrong)" },
    400: {
      content: { "text/html": { schema: z.string() } },
      description:
        "an error page: unknown client_id, redirect_uri not the registered one, or a parameter sent twice",
    },
  },
});

export const authorizeRouter = createRouter()
  .openapi(authorizeRoute, (c) => startAuthorization(c, c.req.valid("query")), untrustedRequest)
  .post("/authorize", signInToAuthorize)
  .get("/authorize/consent", showConsent)
  .post("/authorize/consent", decideConsent);
