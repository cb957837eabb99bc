/**
 * The forgotten password: an emailed single-use link (30 minutes) to choose a new one.
 *   POST /console/password/forgot {username}: the same 202 whoever asks (no account is told from
 *     another); the name is a property's username (its link to the property's email) or a member's
 *     email (a link to it for each restaurant they are staff of), through the messages outbox, in
 *     the restaurant's language. Limited like the sign-in, per name and per address.
 *   POST /console/password/reset {token, password}: the link works once and only in time (410
 *     link_expired otherwise); the password is set as the change sets it, every session it opened
 *     ends, and nobody is signed in: the owner (or the member) signs in with the new password.
 * The token is kept hashed (console_links, kind reset); the outbox keeps its nonce, from which the
 * LINK_SECRET makes it again when the message is written out (messages/reset.ts).
 */
import type { Context } from "hono";
import { ConsolePasswordForgot, ConsolePasswordReset } from "../../shared/console";
import { resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { AppEnv, Bindings, ControlDb } from "../env";
import { ApiError } from "../errors";
import { hashPassword, sha256Hex } from "../lib/crypto";
import { callerKey } from "../lib/middleware";
import { endSessionSockets } from "../lib/restaurant-object";
import { addSeconds, nowIso } from "../lib/time";
import { normaliseUsername, usernameKey } from "../lib/username";
import { newLink } from "../messages/links";
import { RESET_MINUTES, writeResetMessage } from "../messages/reset";
import { sendNow } from "../outbox/dispatch";
import { credentialChanges } from "../properties/credentials";
import { getPropertyRow } from "../properties/properties.repo";
import { findByUsername, getEntry, setCredentials } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import { emailKey, getStaff, membersByEmail, updateStaff } from "../staff/staff.repo";
import { asLocale, endSessions } from "./session";
import { bodyOf } from "./session.handlers";
import { accountSessions, insertConsoleLink, signedSessions, spendConsoleLink } from "./sessions.repo";

type Ctx = Context<AppEnv>;

const logged = (err: unknown) =>
  console.error(
    JSON.stringify({
      level: "error",
      where: "console password reset",
      message: String((err as Error)?.stack ?? err),
    }),
  );

/** Whether this username or this address asked too often (the sign-in's limiter, buckets of their own). */
async function limited(c: Ctx, username: string): Promise<boolean> {
  const key = usernameKey(normaliseUsername(username)) ?? "";
  for (const bucket of [`reset-user:${key}`, `reset-ip:${callerKey(c)}`]) {
    if (!(await c.env.SIGNIN_RATE_LIMITER.limit({ key: bucket })).success) return true;
  }
  return false;
}

export async function forgotPassword(c: Ctx) {
  const body = await bodyOf(c, ConsolePasswordForgot);
  if (await limited(c, body.username))
    throw new ApiError("too_many_requests", "too many requests for a reset link; retry after 60 seconds", {
      headers: { "Retry-After": "60" },
    });
  // Whether the username is known is settled after the answer: it takes as long either way.
  c.executionCtx.waitUntil(sendResetLink(c.env, c.get("control"), body.username).catch(logged));
  return c.body(null, 202);
}

/**
 * The reset links a name asks for: a username is the property's own account (its link to the
 * property's email); an email is each restaurant's member who signed up with it (theirs to it).
 */
export async function sendResetLink(env: Bindings, control: ControlDb, name: string): Promise<void> {
  const secret = config(env).linkSecret;
  if (!secret) throw new Error("LINK_SECRET is not set: no reset link can be emailed");
  const key = usernameKey(normaliseUsername(name));
  const entry = key ? await findByUsername(control, key) : undefined;
  if (entry) await mailResetLink(env, control, secret, { entry, staffId: null, to: null });
  if (!name.includes("@")) return;
  for (const { member, entry: at } of await membersByEmail(control, emailKey(name.slice(0, 254))))
    await mailResetLink(env, control, secret, { entry: at, staffId: member.id, to: member.email });
}

interface ResetTarget {
  entry: { id: number; shard: number };
  /** the member whose password it sets; null: the property's own */
  staffId: number | null;
  /** the member's email; null: the property's */
  to: string | null;
}

/** A live property: a fresh link kept hashed, and its message in the outbox, sent now. */
async function mailResetLink(env: Bindings, control: ControlDb, secret: string, target: ResetTarget) {
  const { entry } = target;
  const db = shardDb(openShard(env, entry.shard, { write: true }));
  const property = await getPropertyRow(db, entry.id);
  const to = target.to ?? property?.email;
  if (!property || !to || property.shardState !== "live") return;
  const link = await newLink(secret, "reset");
  const at = nowIso();
  const expiresAt = addSeconds(at, RESET_MINUTES * 60);
  await insertConsoleLink(control, {
    tokenHash: link.hash,
    kind: "reset",
    propertyId: entry.id,
    staffId: target.staffId,
    expiresAt,
    createdAt: at,
  });
  const locale = asLocale(resolveSettings(property.settings ?? {}).locale);
  await writeResetMessage(db, {
    propertyId: entry.id,
    to,
    locale,
    link: { nonce: link.nonce!, hash: link.hash, expiresAt },
  });
  await sendNow(env, entry.shard, entry.id);
}

export async function resetPassword(c: Ctx) {
  const body = await bodyOf(c, ConsolePasswordReset);
  const control = c.get("control");
  const link = await spendConsoleLink(control, await sha256Hex(body.token), "reset", nowIso());
  const entry = link && (await getEntry(control, link.propertyId));
  const expired = () =>
    new ApiError("link_expired", "this reset link has expired or was used already; ask for a new one");
  if (!link || !entry || entry.deletedAt) throw expired();
  if (link.staffId !== null) {
    const member = await getStaff(control, entry.id, link.staffId);
    // a member deactivated since the link was sent has no password to set
    if (!member?.active || member.account) throw expired();
    await updateStaff(control, member.id, { passwordHash: await hashPassword(body.password) });
    await endSessions(c, entry.id, await signedSessions(control, member.id));
    return c.json({ data: [{ username: member.email }] }, 200);
  }
  await setCredentials(control, entry.id, await credentialChanges({ password: body.password }));
  // the new password ends the property's other reset links (a trigger of the directory), and the
  // sessions the old one opened
  await endSessions(c, entry.id, await accountSessions(control, entry.id));
  await endSessionSockets(c.env, entry.id, "account");
  return c.json({ data: [{ username: entry.username }] }, 200);
}
