/** The console's own routes: sign-in, the session, sign-out, the password change, a platform's link (the forgotten password: reset.ts). */
import type { Context } from "hono";
import type { z } from "zod";
import { ConsolePasswordChange, ConsoleSignIn } from "../../shared/console";
import type { AppEnv } from "../env";
import { ApiError, invalidInput } from "../errors";
import { sha256Hex } from "../lib/crypto";
import { nowIso } from "../lib/time";
import { checkAccount, checkCurrentPassword } from "../properties/accounts";
import { credentialChanges } from "../properties/credentials";
import { getEntry, setCredentials } from "../shards/directory.repo";
import {
  asLocale,
  CONSOLE_PATH,
  endConsoleSession,
  endEverySession,
  propertyFacts,
  sessionDto,
  sessionOf,
  startConsoleSession,
} from "./session";
import { spendConsoleLink } from "./sessions.repo";

type Ctx = Context<AppEnv>;

export async function bodyOf<T extends z.ZodType>(c: Ctx, schema: T): Promise<z.output<T>> {
  const raw = await c.req.json().catch(() => undefined);
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

const tooManyGuesses = (what: string) =>
  new ApiError("too_many_requests", `too many ${what}; retry after 60 seconds`, {
    headers: { "Retry-After": "60" },
  });

export async function signIn(c: Ctx) {
  const body = await bodyOf(c, ConsoleSignIn);
  const checked = await checkAccount(c, body.username, body.password);
  if (!checked.ok && checked.why === "limited") throw tooManyGuesses("sign-in attempts");
  if (!checked.ok) throw new ApiError("invalid_credentials", "unknown username or wrong password");
  const facts = await propertyFacts(c, checked.entry);
  const session = await startConsoleSession(c, checked.entry, facts.locale);
  return c.json({ data: [await sessionDto(c, session)] }, 200);
}

export async function showSession(c: Ctx) {
  return c.json({ data: [await sessionDto(c, sessionOf(c))] }, 200);
}

export async function signOut(c: Ctx) {
  await endConsoleSession(c, sessionOf(c));
  return c.body(null, 204);
}

/** A new password, the old one required; every other session of the property ends (OAuth sign-ins end by their stamp). */
export async function changePassword(c: Ctx) {
  const session = sessionOf(c);
  const body = await bodyOf(c, ConsolePasswordChange);
  const entry = await getEntry(c.get("control"), session.entry.id);
  const old = entry ? await checkCurrentPassword(c, entry, body.old_password) : "wrong";
  if (old === "limited") throw tooManyGuesses("password changes");
  // 403, not 401: the session is good, the proof it offered is not
  if (!entry || old === "wrong")
    throw new ApiError("invalid_credentials", "the old password is wrong", { status: 403 });
  const changes = await credentialChanges({ password: body.new_password });
  await setCredentials(c.get("control"), entry.id, changes);
  await endEverySession(c, entry.id);
  // This browser stays signed in: a fresh session under the new password.
  await startConsoleSession(
    c,
    { ...entry, passwordHash: changes.passwordHash! },
    asLocale(session.row.locale),
  );
  return c.body(null, 204);
}

/**
 * A platform's single-use link (60 s): a fresh session for its property, then the console. Only a
 * GET spends it: a HEAD (a link checker, a chat's preview) would leave the browser's GET an
 * expired link, so it is answered without looking.
 */
export async function followLink(c: Ctx) {
  if (c.req.method === "HEAD") return c.body(null, 200, { "Cache-Control": "no-store" });
  const token = c.req.param("token") ?? "";
  const link =
    token.length <= 100
      ? await spendConsoleLink(c.get("control"), await sha256Hex(token), "sign_in", nowIso())
      : undefined;
  const entry = link && (await getEntry(c.get("control"), link.propertyId));
  if (!entry || entry.deletedAt) return c.redirect(`${CONSOLE_PATH}/sign-in?link=expired`, 303);
  const facts = await propertyFacts(c, entry);
  await startConsoleSession(c, entry, facts.locale);
  return c.redirect(CONSOLE_PATH, 303);
}
