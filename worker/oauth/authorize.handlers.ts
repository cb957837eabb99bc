/**
 * The authorization flow's steps: check the request and show the sign-in, sign in, show the
 * consent, and send the restaurant's decision back to the client.
 */
import type { Context } from "hono";
import { LOCALES } from "../../shared/schemas";
import { findClient, getClient } from "../auth/clients.repo";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";
import { type AuthorizeQuery, checkAuthorize, pickLocale, redirectWith, untrusted } from "./authorize";
import { issuerOf } from "./issuer";
import { consentBody, errorBody, render, signInBody } from "./pages";
import type { SessionRow } from "./sessions.repo";
import {
  currentSession,
  endSession,
  OAUTH_PATH,
  postedForm,
  propertyName,
  signedInEntry,
  signIn,
  startSession,
} from "./signin";
import { type Locale, TEXT } from "./text";
import { insertCode } from "./tokens.repo";

/** An authorization code lives 60 seconds. */
const CODE_TTL_SECONDS = 60;

const requestLocale = (c: Context<AppEnv>): Locale =>
  pickLocale(
    LOCALES,
    [c.req.query("ui_locales"), c.req.query("locale"), c.req.header("Accept-Language")],
    "en",
  );

function errorPage(
  c: Context<AppEnv>,
  locale: Locale,
  reason: (t: (typeof TEXT)[Locale]) => string,
  status: 400 | 403 = 400,
) {
  const t = TEXT[locale];
  return render(c, { locale, title: t.invalidTitle, body: errorBody(t, reason(t)), status });
}

/** Back to the client: 303 to its redirect_uri with the answer, the flow's state and the issuer. */
function backToClient(
  c: Context<AppEnv>,
  redirectUri: string,
  params: Record<string, string | undefined>,
  state: string | null | undefined,
) {
  const location = redirectWith(redirectUri, { ...params, state: state ?? undefined, iss: issuerOf(c) });
  return c.body(null, 303, {
    Location: location,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
  });
}

const origin = (uri: string) => new URL(uri).origin;

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
    body: signInBody({
      t,
      action: `${OAUTH_PATH}/authorize`,
      title: t.connectTitle(name),
      intro: t.connectIntro(name),
      cancel: true,
      returnHost: new URL(flow.redirectUri!).host,
      ...form,
    }),
  });
}

/** GET /authorize: a request from a trusted client starts the flow on the sign-in page. */
export async function startAuthorization(c: Context<AppEnv>, q: AuthorizeQuery) {
  const locale = requestLocale(c);
  const client = q.client_id ? await findClient(c.get("control"), q.client_id) : undefined;
  const distrust = untrusted(q, client);
  if (distrust || !client)
    return errorPage(c, locale, (t) => (distrust === "wrong_redirect" ? t.wrongRedirect : t.unknownClient));
  const checked = checkAuthorize(q);
  if ("error" in checked)
    return backToClient(
      c,
      client.redirectUri,
      { error: checked.error.error, error_description: checked.error.description },
      q.state,
    );
  const { redirectUri, state, codeChallenge } = checked.request;
  const csrf = await startSession(c, {
    kind: "authorize",
    locale,
    clientId: client.id,
    redirectUri,
    state: state ?? null,
    codeChallenge,
  });
  const self = new URL(c.req.url);
  const languages = (l: Locale) => {
    self.searchParams.set("ui_locales", l);
    return `${self.pathname}${self.search}`;
  };
  return signInPage(c, { locale, clientId: client.id, redirectUri }, { csrf, languages });
}

/** A parameter sent twice (or not a string) is no request we can trust to redirect. */
export function untrustedRequest(result: { success: boolean }, c: Context<AppEnv>) {
  return result.success ? undefined : errorPage(c, requestLocale(c), (t) => t.badRequest);
}

/** POST /authorize: the sign-in form, or its Cancel. */
export async function signInToAuthorize(c: Context<AppEnv>) {
  const posted = await postedForm(c, "authorize");
  if (!posted) return errorPage(c, requestLocale(c), (t) => t.expired, 403);
  const { session, form } = posted;
  const s = session.row;
  if (form.action === "cancel") {
    if (!(await endSession(c, s))) return errorPage(c, s.locale as Locale, (t) => t.expired, 403);
    return backToClient(
      c,
      s.redirectUri!,
      { error: "access_denied", error_description: "the restaurant cancelled" },
      s.state,
    );
  }
  const result = await signIn(c, s, form.username ?? "", form.password ?? "");
  if (result.ok) return c.redirect(`${OAUTH_PATH}/authorize/consent`, 303);
  const t = TEXT[s.locale as Locale];
  const limited = result.why === "limited";
  return signInPage(c, s, {
    csrf: session.csrf,
    error: limited ? t.tooManyAttempts : t.wrongCredentials,
    username: form.username ?? "",
    status: limited ? 429 : 200,
  });
}

/** GET /authorize/consent: what the client will be able to do; Allow or Deny. */
export async function showConsent(c: Context<AppEnv>) {
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
  return render(c, {
    locale,
    title: t.consentTitle(client.name, restaurant),
    body,
    formTargets: [origin(s.redirectUri!)],
  });
}

/** POST /authorize/consent: the decision, a code (single use, bound to the client, redirect_uri and challenge) or access_denied. */
export async function decideConsent(c: Context<AppEnv>) {
  const posted = await postedForm(c, "authorize");
  const entry = posted && (await signedInEntry(c, posted.session.row));
  if (!posted || !entry) return errorPage(c, requestLocale(c), (t) => t.expired, 403);
  const s = posted.session.row;
  // One consent, one answer: a second post of the form (a double click, a retried request) finds
  // the flow already ended and gets no second code.
  if (!(await endSession(c, s))) return errorPage(c, s.locale as Locale, (t) => t.expired, 403);
  if (posted.form.decision !== "approve")
    return backToClient(
      c,
      s.redirectUri!,
      { error: "access_denied", error_description: "the restaurant denied the request" },
      s.state,
    );
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
}
