/** The connected-apps page: sign-in, the list of connected apps, disconnecting one, signing out. */
import type { Context } from "hono";
import { LOCALES, resolveSettings } from "../../shared/schemas";
import { findClient } from "../auth/clients.repo";
import type { AppEnv } from "../env";
import { ApiError, abortReason } from "../errors";
import { getPropertyRow } from "../properties/properties.repo";
import { type DirectoryRow, grantsOf } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import { pickLocale } from "./authorize";
import { revokeGrant } from "./grants";
import { appsBody, type ConnectedApp, render, signInBody } from "./pages";
import {
  currentSession,
  endSession,
  OAUTH_PATH,
  postedForm,
  type Session,
  signedInEntry,
  signIn,
  startSession,
} from "./signin";
import { type Locale, TEXT } from "./text";

const PAGE = `${OAUTH_PATH}/connected-apps`;

const requestLocale = (c: Context<AppEnv>): Locale =>
  pickLocale(
    LOCALES,
    [c.req.query("locale"), c.req.query("ui_locales"), c.req.header("Accept-Language")],
    "en",
  );
const back = (c: Context<AppEnv>, query = "") => c.redirect(`${PAGE}${query}`, 303);

interface SignInView {
  status?: 200 | 429;
  error?: string;
  username?: string;
  /** links to the page in other languages (a GET) */
  languages?: boolean;
}

function signInPage(c: Context<AppEnv>, locale: Locale, csrf: string, v: SignInView = {}) {
  const t = TEXT[locale];
  const { languages, status, ...form } = v;
  return render(c, {
    locale,
    title: t.appsTitle,
    status: status ?? 200,
    ...(languages && { languages: (l: Locale) => `${PAGE}?locale=${l}` }),
    body: signInBody({ t, action: PAGE, csrf, title: t.appsTitle, intro: t.appsIntro, ...form }),
  });
}

/** The list, for a signed-in session: every granted client, the owner marked. */
async function appsPage(
  c: Context<AppEnv>,
  session: Session,
  entry: DirectoryRow,
  o: { disconnected?: string; error?: string } = {},
) {
  const locale = (c.req.query("locale") ? requestLocale(c) : session.row.locale) as Locale;
  const t = TEXT[locale];
  const property = await getPropertyRow(shardDb(openShard(c.env, entry.shard, { write: false })), entry.id);
  const date = new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    timeZone: resolveSettings(property?.settings).timezone,
  });
  const apps: ConnectedApp[] = (await grantsOf(c.get("control"), entry.id)).map((g) => ({
    clientId: g.clientId,
    name: g.name,
    host: new URL(g.redirectUri).host,
    connectedOn: date.format(new Date(g.grantedAt)),
    owner: g.id === entry.ownerClientId,
  }));
  const body = appsBody({
    t,
    csrf: session.csrf,
    base: PAGE,
    username: entry.username ?? "",
    restaurant: property?.name ?? "",
    apps,
    ...o,
  });
  return render(c, { locale, title: t.appsTitle, body, languages: (l) => `${PAGE}?locale=${l}` });
}

/** A move between shards refuses the shard's write for a while: nothing changed, and the page says so. */
const movingNow = (err: unknown) =>
  (err instanceof ApiError && err.code === "service_unavailable") || !!abortReason(err, ["property_moving"]);

/** GET /connected-apps: the sign-in, or the list once signed in. */
export async function showConnectedApps(c: Context<AppEnv>) {
  const session = await currentSession(c, "apps");
  const entry = session && (await signedInEntry(c, session.row));
  if (!session || !entry) {
    const locale = requestLocale(c);
    return signInPage(c, locale, await startSession(c, { kind: "apps", locale }), { languages: true });
  }
  // The name of the app just disconnected, while it is indeed no longer connected.
  const gone = c.req.query("disconnected");
  const client = gone ? await findClient(c.get("control"), gone) : undefined;
  const stillThere = client && (await grantsOf(c.get("control"), entry.id)).some((g) => g.id === client.id);
  return appsPage(c, session, entry, client && !stillThere ? { disconnected: client.name } : {});
}

/** POST /connected-apps: the sign-in form. */
export async function signInToApps(c: Context<AppEnv>) {
  const posted = await postedForm(c, "apps");
  if (!posted) return back(c);
  const result = await signIn(c, posted.session.row, posted.form.username ?? "", posted.form.password ?? "");
  if (result.ok) return back(c);
  const locale = posted.session.row.locale as Locale;
  const limited = result.why === "limited";
  const t = TEXT[locale];
  return signInPage(c, locale, posted.session.csrf, {
    error: limited ? t.tooManyAttempts : t.wrongCredentials,
    username: posted.form.username ?? "",
    status: limited ? 429 : 200,
  });
}

/** POST /connected-apps/disconnect: one app, never the one that created the restaurant. */
export async function disconnectApp(c: Context<AppEnv>) {
  const posted = await postedForm(c, "apps");
  const entry = posted && (await signedInEntry(c, posted.session.row));
  if (!posted || !entry) return back(c);
  const client = await findClient(c.get("control"), posted.form.client_id ?? "");
  if (!client || client.id === entry.ownerClientId) return back(c);
  try {
    await revokeGrant(c.env, c.get("control"), client.id, entry.id);
  } catch (err) {
    if (movingNow(err))
      return appsPage(c, posted.session, entry, { error: TEXT[posted.session.row.locale as Locale].busy });
    throw err;
  }
  return back(c, `?disconnected=${encodeURIComponent(client.clientId)}`);
}

/** POST /connected-apps/sign-out */
export async function signOutOfApps(c: Context<AppEnv>) {
  const posted = await postedForm(c, "apps");
  if (posted) await endSession(c, posted.session.row);
  return back(c);
}
