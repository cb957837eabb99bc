/**
 * What a member does about themselves at the console: change their password (the old one
 * required; every session their old password opened ends, this browser signed in afresh), and the
 * shared tablet's switch of who is at it, by a personal PIN (5 wrong tries lock it for 15 minutes).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { ConsolePasswordChange, ConsoleSwitch } from "../../shared/console";
import { recordChange } from "../audit/audit";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { hashPassword, verifyPassword } from "../lib/crypto";
import { endSessionSockets } from "../lib/restaurant-object";
import { addSeconds, nowIso } from "../lib/time";
import { checkCurrentPassword } from "../properties/accounts";
import { credentialChanges } from "../properties/credentials";
import { spendGuess } from "../properties/signin-limits";
import { getEntry, setCredentials } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import { PIN_LOCK_MINUTES, PIN_TRIES } from "../staff/pins";
import { staffAccountKey } from "../staff/signin";
import {
  accepted,
  countWrongPin,
  getStaff,
  listStaff,
  type StaffRow,
  updateStaff,
} from "../staff/staff.repo";
import { asLocale, endSessions, sessionDto, sessionOf, startConsoleSession } from "./session";
import { bodyOf, tooManyGuesses } from "./session.handlers";
import { accountSessions, signedSessions, switchSession } from "./sessions.repo";

type Ctx = Context<AppEnv>;

const PasswordChange = ConsolePasswordChange;
const Switch = ConsoleSwitch;

const wrongOld = () => new ApiError("invalid_credentials", "the old password is wrong", { status: 403 });

/** The member at this console, as stored now (a platform's session has none: 403). */
async function currentMember(c: Ctx): Promise<StaffRow> {
  const { who, entry } = sessionOf(c);
  const member = who.staffId === null ? undefined : await getStaff(c.get("control"), entry.id, who.staffId);
  if (!member)
    throw new ApiError("invalid_request", "a platform's session has no password of its own to change", {
      status: 403,
    });
  return member;
}

/** The account member's password is the property's (the directory's); the sessions it opened end. */
async function changeAccountPassword(c: Ctx, member: StaffRow, body: z.output<typeof PasswordChange>) {
  const session = sessionOf(c);
  const entry = await getEntry(c.get("control"), session.entry.id);
  const old = entry ? await checkCurrentPassword(c, entry, body.old_password) : "wrong";
  if (old === "limited") throw tooManyGuesses("password changes");
  if (!entry || old === "wrong") throw wrongOld();
  const changes = await credentialChanges({ password: body.new_password });
  await setCredentials(c.get("control"), entry.id, changes);
  await endSessions(c, entry.id, await accountSessions(c.get("control"), entry.id));
  await endSessionSockets(c.env, entry.id, "account");
  return { entry: { ...entry, passwordHash: changes.passwordHash! }, member };
}

/** An invited member's own password; the sessions it opened end. */
async function changeOwnPassword(c: Ctx, member: StaffRow, body: z.output<typeof PasswordChange>) {
  const { entry } = sessionOf(c);
  if (!(await spendGuess(c, staffAccountKey(member.email ?? "")))) throw tooManyGuesses("password changes");
  if (!(await verifyPassword(body.old_password.slice(0, 200), member.passwordHash))) throw wrongOld();
  const changed = await updateStaff(c.get("control"), member.id, {
    passwordHash: await hashPassword(body.new_password),
  });
  if (!changed || changed === "last_owner") throw wrongOld();
  await endSessions(c, entry.id, await signedSessions(c.get("control"), member.id));
  return { entry, member: changed };
}

/** POST /console/password {old_password, new_password}: the member's own password (403 when the old one is wrong). */
export async function changePassword(c: Ctx) {
  const session = sessionOf(c);
  const body = await bodyOf(c, PasswordChange);
  const member = await currentMember(c);
  const done = member.account
    ? await changeAccountPassword(c, member, body)
    : await changeOwnPassword(c, member, body);
  // This browser stays signed in: a fresh session under the new password.
  await startConsoleSession(c, done.entry, asLocale(session.row.locale), {
    member: done.member,
    signer: done.member,
  });
  await recordChange(c, {
    action: "password_changed",
    subject: "staff",
    subjectId: member.id,
    actor: session.who.actor,
    propertyId: session.entry.id,
    db: shardDb(openShard(c.env, session.entry.shard, { write: true })),
  });
  return c.body(null, 204);
}

/** GET /console/session/switch: who can take the tablet (active members with a PIN), by name. */
export async function switchable(c: Ctx) {
  const { entry } = sessionOf(c);
  const staff = await listStaff(c.get("control"), entry.id);
  const can = staff.filter((s) => s.active && accepted(s) && s.pinHash !== null);
  return c.json({ data: can.map((s) => ({ id: s.id, name: s.name, role: s.role })) }, 200);
}

/** Why a PIN cannot be tried now: locked, with the seconds left. */
function lockedFor(member: StaffRow | undefined, at: string): number {
  const until = member?.pinLockedUntil;
  return until && until > at ? Math.ceil((Date.parse(until) - Date.parse(at)) / 1000) : 0;
}

const pinLocked = (seconds: number) =>
  new ApiError(
    "pin_locked",
    `too many wrong PINs: this PIN is locked for ${Math.ceil(seconds / 60)} more minutes`,
    {
      headers: { "Retry-After": String(seconds) },
    },
  );

/** POST /console/session/switch {staff_id, pin}: the tablet's session goes on as that member. */
export async function switchUser(c: Ctx) {
  const session = sessionOf(c);
  const body = await bodyOf(c, Switch);
  const control = c.get("control");
  const at = nowIso();
  const found = await getStaff(control, session.entry.id, body.staff_id);
  const member = found?.active && accepted(found) ? found : undefined;
  const locked = lockedFor(member, at);
  if (locked) throw pinLocked(locked);
  // a member without a PIN costs the same hash as a wrong PIN
  if (!member || !(await verifyPassword(body.pin, member.pinHash))) {
    const counted = member?.pinHash
      ? await countWrongPin(control, member.id, addSeconds(at, PIN_LOCK_MINUTES * 60), PIN_TRIES)
      : undefined;
    const nowLocked = lockedFor(counted, at);
    if (nowLocked) throw pinLocked(nowLocked);
    throw new ApiError("invalid_credentials", "wrong PIN", { status: 403 });
  }
  if (member.pinFailures) await updateStaff(control, member.id, { pinFailures: 0 });
  await switchSession(control, session.row.id, member.id);
  session.row.staffId = member.id;
  const who = {
    role: member.role,
    staffId: member.id,
    name: member.name,
    actor: `staff:${member.id}`,
    clientId: null,
  };
  return c.json({ data: [await sessionDto(c, { ...session, who })] }, 200);
}
