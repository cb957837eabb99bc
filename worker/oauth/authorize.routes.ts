/**
 * {auth_url}/api-account/oauth2/authorize (CONTRACT 11, RFC 6749 4.1 with PKCE S256): the
 * hosted sign-in, then consent, then back to the client's redirect_uri with a code (single use,
 * 60 s, bound to the client, the redirect_uri and the challenge) or `error=access_denied`.
 *   GET  /authorize           checks the request, starts the flow, shows the sign-in
 *   POST /authorize           the sign-in form (or its Cancel)
 *   GET  /authorize/consent   what the client will be able to do; Allow or Deny
 *   POST /authorize/consent   the decision: a code, or access_denied
 * A client_id or redirect_uri that cannot be trusted never redirects: an error page says so.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { config } from "../config";
import { LOCALES } from "../../shared/schemas";
import { findClient, getClient } from "../auth/clients.repo";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex } from "../lib/crypto";
import { createRouter } from "../lib/router";
import { addSeconds, nowIso } from "../lib/time";
import { checkAuthorize, pickLocale, redirectWith, untrusted } from "./authorize";
import { consentBody, errorBody, render, signInBody } from "./pages";
import { currentSession, endSession, OAUTH_PATH, postedForm, signedInEntry, signIn, startSession, propertyName } from "./signin";
import type { SessionRow } from "./sessions.repo";
import { type Locale, TEXT } from "./text";
import { insertCode } from "./tokens.repo";

/** CONTRACT 11: a code lives 60 seconds. */
export const CODE_TTL_SECONDS = 60;

/** The issuer (RFC 8414, 9207): {auth_url}, on PUBLIC_ORIGIN, never on the request's Host (issue 12, defect 9). */
export const issuerOf = (c: Context<AppEnv>) => `${config(c.env).publicOrigin}/auth/api/v2`;

const requestLocale = (c: Context<AppEnv>): Locale => pickLocale(LOCALES, [c.req.query("ui_locales"), c.req.query("locale"), c.req.header("Accept-Language")], "en");

function errorPage(c: Context<AppEnv>, locale: Locale, reason: (t: (typeof TEXT)[Locale]) => string, status: 400 | 403 = 400) {
  const t = TEXT[locale];
  return render(c, { locale, title: t.invalidTitle, body: errorBody(t, reason(t)), status });
}

/** Back to the client: 303 to its redirect_uri with the answer, the flow's state and the issuer. */
function backToClient(c: Context<AppEnv>, redirectUri: string, params: Record<string, string | undefined>, state: string | null | undefined) {
  const location = redirectWith(redirectUri, { ...params, state: state ?? undefined, iss: issuerOf(c) });
  return c.body(null, 303, { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
}

const origin = (uri: string) => new URL(uri).origin;

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
    400: { content: { "text/html": { schema: z.string() } }, description: "an error page: unknown client_id, redirect_uri not the registered one, or a parameter sent twice" },
  },
});

/** The flow a sign-in page belongs to (a session row, or the one just started). */
type Flow = Pick<SessionRow, "locale" | "clientId" | "redirectUri">;

interface SignInView {
  csrf: string;
  status?: 200 | 429;
  error?: string;
  username?: string;
  languages?: (l: Locale) => string;
}

async function signInPage(c: Context<AppEnv>, flow: Flow, v: SignInView) {
  const locale = flow.locale as Locale;
  const t = TEXT[locale];
  const name = (await getClient(c.get("control"), flow.clientId!))?.name ?? "";
  const { languages, status, ...form } = v;
  return render(c, {
    locale,
    title: t.connectTitle(name),
    status: status ?? 200,
    // Cancel goes back to the client from this form: the CSP must let the form's redirect through.
    formTargets: [origin(flow.redirectUri!)],
    ...(languages && { languages }),
    body: signInBody({ t, action: `${OAUTH_PATH}/authorize`, title: t.connectTitle(name), intro: t.connectIntro(name), cancel: true, returnHost: new URL(flow.redirectUri!).host, ...form }),
  });
}

export const authorizeRouter = createRouter()
  .openapi(
    authorizeRoute,
    async (c) => {
      const q = c.req.valid("query");
      const locale = requestLocale(c);
      const client = q.client_id ? await findClient(c.get("control"), q.client_id) : undefined;
      const distrust = untrusted(q, client);
      if (distrust || !client) return errorPage(c, locale, (t) => (distrust === "wrong_redirect" ? t.wrongRedirect : t.unknownClient));
      const checked = checkAuthorize(q);
      if ("error" in checked) return backToClient(c, client.redirectUri, { error: checked.error.error, error_description: checked.error.description }, q.state);
      const { redirectUri, state, codeChallenge } = checked.request;
      const csrf = await startSession(c, { kind: "authorize", locale, clientId: client.id, redirectUri, state: state ?? null, codeChallenge });
      const self = new URL(c.req.url);
      const languages = (l: Locale) => (self.searchParams.set("ui_locales", l), `${self.pathname}${self.search}`);
      return signInPage(c, { locale, clientId: client.id, redirectUri }, { csrf, languages });
    },
    // A parameter sent twice (or not a string) is no request we can trust to redirect.
    (result, c) => (result.success ? undefined : errorPage(c, requestLocale(c), (t) => t.badRequest)),
  )
  .post("/authorize", async (c) => {
    const posted = await postedForm(c, "authorize");
    if (!posted) return errorPage(c, requestLocale(c), (t) => t.expired, 403);
    const { session, form } = posted;
    const s = session.row;
    if (form.action === "cancel") {
      await endSession(c, s);
      return backToClient(c, s.redirectUri!, { error: "access_denied", error_description: "the restaurant cancelled" }, s.state);
    }
    const result = await signIn(c, s, form.username ?? "", form.password ?? "");
    if (result.ok) return c.redirect(`${OAUTH_PATH}/authorize/consent`, 303);
    const t = TEXT[s.locale as Locale];
    const limited = result.why === "limited";
    return signInPage(c, s, { csrf: session.csrf, error: limited ? t.tooManyAttempts : t.wrongCredentials, username: form.username ?? "", status: limited ? 429 : 200 });
  })
  .get("/authorize/consent", async (c) => {
    const session = await currentSession(c, "authorize");
    if (!session) return errorPage(c, requestLocale(c), (t) => t.expired);
    const entry = await signedInEntry(c, session.row);
    if (!entry) return signInPage(c, session.row, { csrf: session.csrf });
    const s = session.row;
    const locale = s.locale as Locale;
    const t = TEXT[locale];
    const client = (await getClient(c.get("control"), s.clientId!))!;
    const restaurant = await propertyName(c, entry);
    const body = consentBody({
      t,
      action: `${OAUTH_PATH}/authorize/consent`,
      csrf: session.csrf,
      client: client.name,
      restaurant,
      username: entry.username ?? "",
      appsHref: `${OAUTH_PATH}/connected-apps?locale=${locale}`,
      returnHost: new URL(s.redirectUri!).host,
    });
    return render(c, { locale, title: t.consentTitle(client.name, restaurant), body, formTargets: [origin(s.redirectUri!)] });
  })
  .post("/authorize/consent", async (c) => {
    const posted = await postedForm(c, "authorize");
    const entry = posted && (await signedInEntry(c, posted.session.row));
    if (!posted || !entry) return errorPage(c, requestLocale(c), (t) => t.expired, 403);
    const s = posted.session.row;
    await endSession(c, s);
    if (posted.form.decision !== "approve") return backToClient(c, s.redirectUri!, { error: "access_denied", error_description: "the restaurant denied the request" }, s.state);
    const code = randomToken("ac_", 32);
    const at = nowIso();
    await insertCode(c.get("control"), {
      codeHash: await sha256Hex(code),
      clientId: s.clientId!,
      propertyId: entry.id,
      redirectUri: s.redirectUri!,
      codeChallenge: s.codeChallenge!,
      expiresAt: addSeconds(at, CODE_TTL_SECONDS),
      createdAt: at,
    });
    return backToClient(c, s.redirectUri!, { code }, s.state);
  });
