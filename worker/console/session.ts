/**
 * The console's session: a random token in an HttpOnly, SameSite=Strict cookie scoped to
 * /console, kept hashed in the control database. It slides: each request moves its end to 12
 * hours on, never past 7 days after sign-in. Its CSRF token is derived from the token under
 * another label, so a page of another site can neither read nor compute it; every write carries
 * it in X-CSRF-Token. A session names who is at the console: a member of staff (the one who signed
 * in, or another whose PIN switched to them), read with the session on every request, so a member
 * deactivated or given another role is so at their next request; or the platform whose sign-in link
 * opened it, with the role it asked for. A session also ends when the password of the member who
 * signed in changes (its stamp).
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
import type { Role } from "../staff/roles";
import * as repo from "./sessions.repo";
import { endSessionRows } from "./sessions.repo";

export const CONSOLE_PATH = "/console";
const COOKIE = "console_session";
const SLIDE_SECONDS = 12 * 3600;
const MAX_SECONDS = 7 * 86400;
/** A session is moved on at most once a minute: reads do not each cost a write. */
const SLIDE_STEP_MS = 60_000;

/** Who is at a console: their role, the member (null for a platform's session) and how their changes are recorded. */
export interface Who {
  role: Role;
  staffId: number | null;
  name: string | null;
  /** the key their changes record (audit/actor.ts): staff:<id>, or client:<id> for a platform */
  actor: string;
  /** the platform's API client (null for a member) */
  clientId: number | null;
}

export interface ConsoleSession {
  row: repo.ConsoleSessionRow;
  entry: DirectoryRow;
  csrf: string;
  who: Who;
  /** opened by the property's own username and password: its password's change ends it */
  byAccount: boolean;
}

type Member = NonNullable<repo.FoundSession["member"]>;

/** Who opens a session: a member (and the one whose credentials opened it), or a platform with a role. */
export type Opener =
  | { member: Member; signer: Member }
  | { clientId: number; clientName: string; role: "manager" | "host" };

/** The stamp of the credentials a member signs in with: the directory's password for the account member, else their own. */
export const stampOf = (signer: Member, entry: DirectoryRow) =>
  (signer.account ? passwordStamp(entry.passwordHash) : passwordStamp(signer.passwordHash)) ?? "";

const memberWho = (m: Member): Who => ({
  role: m.role,
  staffId: m.id,
  name: m.name,
  actor: `staff:${m.id}`,
  clientId: null,
});
const platformWho = (clientId: number, name: string, role: Role): Who => ({
  role,
  staffId: null,
  name,
  actor: `client:${clientId}`,
  clientId,
});

const csrfOf = (token: string) => sha256Hex(`console-csrf:${token}`);
const secure = (c: Context<AppEnv>) => new URL(c.req.url).protocol === "https:";

/** The end of a session used now: 12 hours on, never past 7 days after it began. */
function slidEnd(createdAt: string): string {
  const cap = addSeconds(createdAt, MAX_SECONDS);
  const next = addSeconds(nowIso(), SLIDE_SECONDS);
  // ISO instants of one format compare as text
  return [next, cap].sort()[0]!;
}

/** Signs the browser in: a new session for who opens it, its cookie; answers it. */
export async function startConsoleSession(
  c: Context<AppEnv>,
  entry: DirectoryRow,
  locale: Locale,
  opener: Opener,
): Promise<ConsoleSession> {
  const token = randomToken("con_", 32);
  const at = nowIso();
  const row = await repo.insertConsoleSession(c.get("control"), {
    tokenHash: await sha256Hex(token),
    propertyId: entry.id,
    locale,
    ...("member" in opener
      ? {
          staffId: opener.member.id,
          signerId: opener.signer.id,
          passwordStamp: stampOf(opener.signer, entry),
        }
      : { clientId: opener.clientId, role: opener.role, passwordStamp: "" }),
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
  const who =
    "member" in opener
      ? memberWho(opener.member)
      : platformWho(opener.clientId, opener.clientName, opener.role);
  const byAccount = "member" in opener && opener.signer.account;
  return { row, entry, csrf: await csrfOf(token), who, byAccount };
}

/** Who a found session is for, or undefined when it no longer holds (a member gone, a password changed). */
function whoOf(found: repo.FoundSession): Who | undefined {
  const { session, entry, member, signer, client } = found;
  if (entry.deletedAt) return undefined;
  if (session.clientId !== null)
    return client && session.role ? platformWho(client.id, client.name, session.role) : undefined;
  const live = (m: Member | null): m is Member => !!m && m.active && m.propertyId === entry.id;
  if (!live(member) || !live(signer) || stampOf(signer, entry) !== session.passwordStamp) return undefined;
  return memberWho(member);
}

/** The browser's live session, moved on by this request; undefined when there is none. */
export async function currentConsoleSession(c: Context<AppEnv>): Promise<ConsoleSession | undefined> {
  const token = getCookie(c, COOKIE);
  if (!token || token.length > 100) return undefined;
  const found = await repo.findConsoleSession(c.get("control"), await sha256Hex(token), nowIso());
  const who = found && whoOf(found);
  if (!found || !who) return undefined;
  const byAccount = found.signer?.account ?? false;
  const row = found.session;
  const end = slidEnd(row.createdAt);
  if (Date.parse(end) - Date.parse(row.expiresAt) >= SLIDE_STEP_MS) {
    await repo.slideConsoleSession(c.get("control"), row.id, end);
    row.expiresAt = end;
  }
  return { row, entry: found.entry, csrf: await csrfOf(token), who, byAccount };
}

/** Signs the browser out: its cookie, its row, its live sockets. */
export async function endConsoleSession(c: Context<AppEnv>, session: ConsoleSession): Promise<void> {
  deleteCookie(c, COOKIE, { path: CONSOLE_PATH, secure: secure(c) });
  await repo.deleteConsoleSession(c.get("control"), session.row.id);
  await endSessionSockets(c.env, session.entry.id, [session.row.id]);
}

/** These sessions of a property end: their rows, and their live sockets. */
export async function endSessions(c: Context<AppEnv>, propertyId: number, ids: number[]): Promise<void> {
  await endSessionRows(c.get("control"), ids);
  await endSessionSockets(c.env, propertyId, ids);
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

/** The session as the console's page reads it: the restaurant, who is at the console and their role. */
export async function sessionDto(c: Context<AppEnv>, session: ConsoleSession): Promise<ConsoleSessionDto> {
  const { who } = session;
  return {
    property: await propertyFacts(c, session.entry),
    csrf_token: session.csrf,
    locale: session.row.locale,
    expires_at: session.row.expiresAt,
    staff: who.staffId === null ? null : { id: who.staffId, name: who.name, role: who.role },
    role: who.role,
    actor:
      who.clientId === null
        ? { kind: "staff", id: who.staffId, name: who.name }
        : { kind: "app", id: who.clientId, name: who.name },
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
