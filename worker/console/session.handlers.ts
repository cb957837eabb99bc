/**
 * The console's own routes: sign-in (a member's email, or the property's username for its first
 * owner), the session, sign-out, a platform's link, an invitation accepted (the forgotten password:
 * reset.ts; the password change, the PIN switch: member.handlers.ts; passkeys: passkeys.ts).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { ConsoleInviteAccept, ConsoleSignIn } from "../../shared/console";
import type { AppEnv } from "../env";
import { ApiError, invalidInput } from "../errors";
import { hashPassword, sha256Hex } from "../lib/crypto";
import { nowIso } from "../lib/time";
import { type AccountCheck, checkAccount } from "../properties/accounts";
import { getEntry } from "../shards/directory.repo";
import { checkStaffAccount } from "../staff/signin";
import { acceptInvite, accountMember, type StaffRow, updateStaff } from "../staff/staff.repo";
import {
  CONSOLE_PATH,
  endConsoleSession,
  propertyFacts,
  sessionDto,
  sessionOf,
  startConsoleSession,
} from "./session";
import { findClientName, spendConsoleLink } from "./sessions.repo";

type Ctx = Context<AppEnv>;

export async function bodyOf<T extends z.ZodType>(c: Ctx, schema: T): Promise<z.output<T>> {
  const raw = await c.req.json().catch(() => undefined);
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

export const tooManyGuesses = (what: string) =>
  new ApiError("too_many_requests", `too many ${what}; retry after 60 seconds`, {
    headers: { "Retry-After": "60" },
  });

/** The property's own username: its first owner, while that member is active. */
async function accountSignIn(c: Ctx, username: string, password: string) {
  const checked: AccountCheck = await checkAccount(c, username, password);
  if (!checked.ok) return checked;
  const member = await accountMember(c.get("control"), checked.entry.id);
  return member?.active
    ? { ok: true as const, member, entry: checked.entry }
    : { ok: false as const, why: "wrong" as const };
}

/** Opens a session for a member who proved who they are, and answers it. */
export async function signedIn(c: Ctx, member: StaffRow, entry: Parameters<typeof propertyFacts>[1]) {
  await updateStaff(c.get("control"), member.id, { lastSignInAt: nowIso() });
  const facts = await propertyFacts(c, entry);
  const session = await startConsoleSession(c, entry, facts.locale, { member, signer: member });
  return c.json({ data: [await sessionDto(c, session)] }, 200);
}

export async function signIn(c: Ctx) {
  const body = await bodyOf(c, ConsoleSignIn);
  const checked =
    body.email !== undefined
      ? await checkStaffAccount(c, body.email, body.password)
      : await accountSignIn(c, body.username!, body.password);
  if (!checked.ok && checked.why === "limited") throw tooManyGuesses("sign-in attempts");
  if (!checked.ok) throw new ApiError("invalid_credentials", "unknown email or username, or wrong password");
  return signedIn(c, checked.member, checked.entry);
}

export async function showSession(c: Ctx) {
  return c.json({ data: [await sessionDto(c, sessionOf(c))] }, 200);
}

export async function signOut(c: Ctx) {
  await endConsoleSession(c, sessionOf(c));
  return c.body(null, 204);
}

/** POST /console/invite/<token> {name, password}: the invitation spent (once, in 7 days), the member signed in. */
export async function acceptInvitation(c: Ctx) {
  const body = await bodyOf(c, ConsoleInviteAccept);
  const token = c.req.param("token") ?? "";
  const member =
    token.length <= 100
      ? await acceptInvite(c.get("control"), await sha256Hex(token), nowIso(), {
          name: body.name,
          passwordHash: await hashPassword(body.password),
        })
      : undefined;
  const entry = member && (await getEntry(c.get("control"), member.propertyId));
  if (!member || !entry || entry.deletedAt)
    throw new ApiError("link_expired", "this invitation has expired or was used already; ask for a new one");
  return signedIn(c, member, entry);
}

/**
 * A platform's single-use link (60 s): a fresh session for its property, as the platform with the
 * role it asked for, then the console. Only a GET spends it: a HEAD (a link checker, a chat's
 * preview) would leave the browser's GET an expired link, so it is answered without looking.
 */
export async function followLink(c: Ctx) {
  if (c.req.method === "HEAD") return c.body(null, 200, { "Cache-Control": "no-store" });
  const token = c.req.param("token") ?? "";
  const link =
    token.length <= 100
      ? await spendConsoleLink(c.get("control"), await sha256Hex(token), "sign_in", nowIso())
      : undefined;
  const entry = link && (await getEntry(c.get("control"), link.propertyId));
  const client = link?.clientId ? await findClientName(c.get("control"), link.clientId) : undefined;
  if (!link || !entry || entry.deletedAt || !client)
    return c.redirect(`${CONSOLE_PATH}/sign-in?link=expired`, 303);
  const facts = await propertyFacts(c, entry);
  await startConsoleSession(c, entry, facts.locale, {
    clientId: client.id,
    clientName: client.name,
    role: link.role ?? "manager",
  });
  return c.redirect(CONSOLE_PATH, 303);
}
