/**
 * The console's session: a random token in an HttpOnly, SameSite=Strict cookie scoped to
 * /console, kept hashed in the control database. It slides: each request moves its end to 12
 * hours on, never past 7 days after sign-in. Its CSRF token is derived from the token under
 * another label, so a page of another site can neither read nor compute it; every write carries
 * it in X-CSRF-Token. A session also ends when the property's password changes (its stamp).
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ConsoleSession as ConsoleSessionDto } from "../../shared/console";
import { LOCALES, type Locale, resolveSettings } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { randomToken, sha256Hex, timingSafeEqual } from "../lib/crypto";
import { endSessionSockets } from "../lib/restaurant-object";
import { addSeconds, nowIso } from "../lib/time";
import { passwordStamp } from "../properties/accounts";
import { getPropertyRow } from "../properties/properties.repo";
import type { DirectoryRow } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import * as repo from "./sessions.repo";

export const CONSOLE_PATH = "/console";
const COOKIE = "console_session";
const SLIDE_SECONDS = 12 * 3600;
const MAX_SECONDS = 7 * 86400;
/** A session is moved on at most once a minute: reads do not each cost a write. */
const SLIDE_STEP_MS = 60_000;

export interface ConsoleSession {
  row: repo.ConsoleSessionRow;
  entry: DirectoryRow;
  csrf: string;
}

const csrfOf = (token: string) => sha256Hex(`console-csrf:${token}`);
const secure = (c: Context<AppEnv>) => new URL(c.req.url).protocol === "https:";

/** The end of a session used now: 12 hours on, never past 7 days after it began. */
function slidEnd(createdAt: string): string {
  const cap = addSeconds(createdAt, MAX_SECONDS);
  const next = addSeconds(nowIso(), SLIDE_SECONDS);
  // ISO instants of one format compare as text
  return [next, cap].sort()[0]!;
}

/** Signs the browser in as the property: a new session, its cookie; answers it. */
export async function startConsoleSession(
  c: Context<AppEnv>,
  entry: DirectoryRow,
  locale: Locale,
): Promise<ConsoleSession> {
  const token = randomToken("con_", 32);
  const at = nowIso();
  const row = await repo.insertConsoleSession(c.get("control"), {
    tokenHash: await sha256Hex(token),
    propertyId: entry.id,
    locale,
    passwordStamp: passwordStamp(entry.passwordHash) ?? "",
    expiresAt: addSeconds(at, SLIDE_SECONDS),
    createdAt: at,
  });
  setCookie(c, COOKIE, token, {
    httpOnly: true,
    secure: secure(c),
    sameSite: "Strict",
    path: CONSOLE_PATH,
    maxAge: MAX_SECONDS,
  });
  return { row, entry, csrf: await csrfOf(token) };
}

/** The browser's live session, moved on by this request; undefined when there is none. */
export async function currentConsoleSession(c: Context<AppEnv>): Promise<ConsoleSession | undefined> {
  const token = getCookie(c, COOKIE);
  if (!token || token.length > 100) return undefined;
  const found = await repo.findConsoleSession(c.get("control"), await sha256Hex(token), nowIso());
  if (
    !found ||
    found.entry.deletedAt ||
    passwordStamp(found.entry.passwordHash) !== found.session.passwordStamp
  )
    return undefined;
  const row = found.session;
  const end = slidEnd(row.createdAt);
  if (Date.parse(end) - Date.parse(row.expiresAt) >= SLIDE_STEP_MS) {
    await repo.slideConsoleSession(c.get("control"), row.id, end);
    row.expiresAt = end;
  }
  return { row, entry: found.entry, csrf: await csrfOf(token) };
}

/** Signs the browser out: its cookie, its row, its live sockets. */
export async function endConsoleSession(c: Context<AppEnv>, session: ConsoleSession): Promise<void> {
  deleteCookie(c, COOKIE, { path: CONSOLE_PATH, secure: secure(c) });
  await repo.deleteConsoleSession(c.get("control"), session.row.id);
  await endSessionSockets(c.env, session.entry.id, [session.row.id]);
}

/** Every session of a property ends (its password changed): their rows, and every live socket of its consoles. */
export async function endEverySession(c: Context<AppEnv>, propertyId: number): Promise<void> {
  await repo.endPropertySessions(c.get("control"), propertyId);
  await endSessionSockets(c.env, propertyId, "all");
}

/** The write's X-CSRF-Token is the session's (403 csrf_token_invalid otherwise). */
export function checkCsrf(c: Context<AppEnv>, session: ConsoleSession): void {
  const sent = c.req.header("X-CSRF-Token") ?? "";
  if (!timingSafeEqual(sent, session.csrf))
    throw new ApiError("csrf_token_invalid", "send the session's csrf_token in the X-CSRF-Token header");
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
export const isWrite = (method: string) => WRITES.has(method.toUpperCase());

const held = new WeakMap<Request, ConsoleSession>();

/** Every console request that needs a session: 401 without one, 403 for a write without its CSRF token. */
export function requireConsoleSession(): MiddlewareHandler<AppEnv> {
  return async function requireConsoleSessionMiddleware(c, next) {
    const session = await currentConsoleSession(c);
    if (!session) throw new ApiError("authentication_required", "sign in to the console first");
    if (isWrite(c.req.method)) checkCsrf(c, session);
    held.set(c.req.raw, session);
    await next();
  };
}

/** The session requireConsoleSession found for this request. */
export function sessionOf(c: Context<AppEnv>): ConsoleSession {
  const session = held.get(c.req.raw);
  if (!session) throw new ApiError("authentication_required", "sign in to the console first");
  return session;
}

/** The restaurant as the console names it: its name, time zone and language, from its shard. */
export async function propertyFacts(c: Context<AppEnv>, entry: DirectoryRow) {
  const p = await getPropertyRow(shardDb(openShard(c.env, entry.shard, { write: false })), entry.id);
  const settings = resolveSettings(p?.settings ?? {});
  return {
    id: entry.id,
    name: p?.name ?? entry.username ?? "",
    timezone: settings.timezone,
    locale: asLocale(settings.locale),
  };
}

/** The session as the console's page reads it. */
export async function sessionDto(c: Context<AppEnv>, session: ConsoleSession): Promise<ConsoleSessionDto> {
  return {
    property: await propertyFacts(c, session.entry),
    csrf_token: session.csrf,
    locale: session.row.locale,
    expires_at: session.row.expiresAt,
  };
}

/** The console's language: the first of Accept-Language it speaks, else English. */
export function acceptedLocale(header: string | undefined): Locale {
  for (const part of (header ?? "").split(",")) {
    const tag = part.split(";")[0]!.trim().slice(0, 2).toLowerCase();
    if ((LOCALES as readonly string[]).includes(tag)) return tag as Locale;
  }
  return "en";
}

export const asLocale = (value: string | null | undefined): Locale =>
  (LOCALES as readonly string[]).includes(value ?? "") ? (value as Locale) : "en";
