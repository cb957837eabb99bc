/**
 * The restaurant's sign-in on the hosted pages, shared by the authorisation flow
 * and the connected-apps page. A session is a control-database row; the browser holds its token
 * in a short HttpOnly, SameSite=Lax cookie (Secure on https) scoped to the OAuth path; each form
 * carries a CSRF token derived from that token, which a page of another site can neither read
 * nor compute. Signing in replaces the token, and with it the CSRF token. The account check and
 * its limits are the restaurant's one sign-in (worker/properties/accounts.ts).
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env";
import { randomToken, sha256Hex, timingSafeEqual } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";
import { type AccountCheck, checkAccount, passwordStamp, signedInProperty } from "../properties/accounts";
import { getPropertyRow } from "../properties/properties.repo";
import type { DirectoryRow } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import {
  deleteSession,
  findSession,
  insertSession,
  type NewSession,
  type SessionRow,
  signInSession,
} from "./sessions.repo";

export const OAUTH_PATH = "/auth/api/v2/api-account/oauth2";
type Kind = SessionRow["kind"];
const COOKIE: Record<Kind, string> = { authorize: "oauth_flow", apps: "oauth_apps" };
/** An authorisation flow must reach consent in 10 minutes; a connected-apps session lasts 15. */
const TTL: Record<Kind, number> = { authorize: 600, apps: 900 };

function setSessionCookie(c: Context<AppEnv>, kind: Kind, token: string) {
  setCookie(c, COOKIE[kind], token, {
    httpOnly: true,
    secure: new URL(c.req.url).protocol === "https:",
    sameSite: "Lax",
    path: OAUTH_PATH,
    maxAge: TTL[kind],
  });
}

/** The forms' CSRF token of a session token (a hash under another label than the stored one). */
const csrfOf = (token: string) => sha256Hex(`csrf:${token}`);

export interface Session {
  row: SessionRow;
  /** for the page's forms */
  csrf: string;
}

/** A new session and its cookie; answers the CSRF token for the page's forms. */
export async function startSession(
  c: Context<AppEnv>,
  row: Omit<NewSession, "tokenHash" | "expiresAt">,
): Promise<string> {
  const token = randomToken("ses_", 32);
  const at = nowIso();
  await insertSession(c.get("control"), {
    ...row,
    tokenHash: await sha256Hex(token),
    expiresAt: addSeconds(at, TTL[row.kind]),
    createdAt: at,
  });
  setSessionCookie(c, row.kind, token);
  return csrfOf(token);
}

/** The browser's unexpired session of this kind, if its cookie names one. */
export async function currentSession(c: Context<AppEnv>, kind: Kind): Promise<Session | undefined> {
  const token = getCookie(c, COOKIE[kind]);
  if (!token || token.length > 100) return undefined;
  const row = await findSession(c.get("control"), await sha256Hex(token), kind, nowIso());
  return row && { row, csrf: await csrfOf(token) };
}

/**
 * Whether the browser says the form comes from another site. Our pages are no-referrer, so their
 * own posts carry "Origin: null"; Sec-Fetch-Site tells same-origin from cross-site regardless.
 */
function crossSite(c: Context<AppEnv>): boolean {
  const site = c.req.header("Sec-Fetch-Site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = c.req.header("Origin");
  return !!origin && origin !== "null" && origin !== new URL(c.req.url).origin;
}

/**
 * A form posted by one of our pages in this browser: the session of its cookie, whose CSRF
 * token the form carries, not from another site (when the browser says). Undefined otherwise.
 */
export async function postedForm(
  c: Context<AppEnv>,
  kind: Kind,
): Promise<{ session: Session; form: Record<string, string> } | undefined> {
  if (crossSite(c)) return undefined;
  if (!/^application\/x-www-form-urlencoded/i.test(c.req.header("Content-Type") ?? "")) return undefined;
  const form = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer())));
  const session = await currentSession(c, kind);
  if (!session || typeof form.csrf !== "string" || !timingSafeEqual(form.csrf, session.csrf))
    return undefined;
  return { session, form };
}

/** Ends the flow; true only for the request that ended it (a form posted twice ends it once). */
export function endSession(c: Context<AppEnv>, session: SessionRow): Promise<boolean> {
  deleteCookie(c, COOKIE[session.kind], {
    path: OAUTH_PATH,
    secure: new URL(c.req.url).protocol === "https:",
  });
  return deleteSession(c.get("control"), session.id);
}

export type SignInResult = AccountCheck;

/** Checks a username and password (worker/properties/accounts.ts) and, when right, signs the session in. */
export async function signIn(
  c: Context<AppEnv>,
  session: SessionRow,
  rawUsername: string,
  password: string,
): Promise<SignInResult> {
  const checked = await checkAccount(c, rawUsername, password);
  if (!checked.ok) return checked;
  const { entry } = checked;
  // A new token on sign-in: a token planted or seen before it is worth nothing after.
  const token = randomToken("ses_", 32);
  const set = {
    tokenHash: await sha256Hex(token),
    propertyId: entry.id,
    passwordStamp: passwordStamp(entry.passwordHash)!,
  };
  await signInSession(c.get("control"), session.id, {
    ...set,
    expiresAt: addSeconds(nowIso(), TTL[session.kind]),
  });
  setSessionCookie(c, session.kind, token);
  return { ok: true, entry };
}

/** The property a session is signed in to, while it exists and its password is the one signed in with. */
export async function signedInEntry(
  c: Context<AppEnv>,
  session: SessionRow,
): Promise<DirectoryRow | undefined> {
  if (session.propertyId === null || session.passwordStamp === null) return undefined;
  return signedInProperty(c.get("control"), session.propertyId, session.passwordStamp);
}

/** The restaurant's name, from its shard (the directory does not keep it). */
export async function propertyName(c: Context<AppEnv>, entry: DirectoryRow): Promise<string> {
  const row = await getPropertyRow(shardDb(openShard(c.env, entry.shard, { write: false })), entry.id);
  return row?.name ?? entry.username ?? "";
}
