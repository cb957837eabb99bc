/**
 * A restaurant's staff through the API: the list, an invitation (emailed, single use, 7 days), a
 * change of role, PIN or standing, a deactivation. A deactivated member's sessions end at once and
 * their live sockets close; a changed role takes effect at their next request (their sockets close,
 * so their console reads its session again). The last owner stays (409 last_owner).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { resolveSettings } from "../../shared/schemas";
import { recordChange } from "../audit/audit";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { hashPassword } from "../lib/crypto";
import { endSessionSockets } from "../lib/restaurant-object";
import { addSeconds, nowIso } from "../lib/time";
import { INVITE_DAYS, writeInviteMessage } from "../messages/invite";
import { newLink } from "../messages/links";
import { sendNow } from "../outbox/dispatch";
import { authoriseProperty } from "../properties/authorise";
import * as repo from "./staff.repo";
import type { InviteBody, StaffChangeBody } from "./staff.schemas";
import { toStaffDto } from "./staff.schemas";

type Ctx = Context<AppEnv>;

export async function listMembers(c: Ctx, propertyId: number) {
  await authoriseProperty(c, propertyId);
  const staff = await repo.listStaff(c.get("control"), propertyId);
  return { data: staff.map(toStaffDto), next_cursor: null };
}

/** The locale invitations are written in: the restaurant's own. */
const localeOf = (settings: unknown) => {
  const locale = resolveSettings(settings ?? {}).locale;
  return (["en", "it", "fr", "de", "es"] as const).find((l) => l === locale) ?? "en";
};

export async function inviteMember(c: Ctx, propertyId: number, body: z.output<typeof InviteBody>) {
  const property = await authoriseProperty(c, propertyId);
  const secret = config(c.env).linkSecret;
  if (!secret) throw new ApiError("service_unavailable", "invitations need the LINK_SECRET secret set");
  const link = await newLink(secret, "invite");
  const expiresAt = addSeconds(nowIso(), INVITE_DAYS * 86400);
  const member = await repo.invite(c.get("control"), {
    propertyId,
    email: body.email,
    name: body.name ?? null,
    role: body.role,
    inviteHash: link.hash,
    inviteExpiresAt: expiresAt,
  });
  if (!member) throw new ApiError("staff_exists", `${body.email} is already on this restaurant's staff`);
  await writeInviteMessage(c.get("db"), {
    propertyId,
    to: body.email,
    locale: localeOf(property.settings),
    role: body.role,
    name: member.name,
    link: { nonce: link.nonce!, hash: link.hash, expiresAt },
  });
  await recordChange(c, { action: "invited", subject: "staff", subjectId: member.id, fields: ["role"] });
  c.executionCtx.waitUntil(sendNow(c.env, c.get("shard"), propertyId).catch(() => undefined));
  return { data: [{ ...toStaffDto(member), invite_expires_at: expiresAt }] };
}

/** A member's sessions end (deactivated), or their sockets close (their role changed). */
async function afterChange(c: Ctx, before: repo.StaffRow, after: repo.StaffRow) {
  const sessions = await repo.sessionsOf(c.get("control"), after.id);
  if (!after.active) await repo.endSessions(c.get("control"), sessions);
  if (!after.active || before.role !== after.role) await endSessionSockets(c.env, after.propertyId, sessions);
}

async function applyChange(
  c: Ctx,
  propertyId: number,
  staffId: number,
  set: repo.StaffChange,
  action: string,
) {
  await authoriseProperty(c, propertyId, { allowExpired: true });
  const before = await repo.getStaff(c.get("control"), propertyId, staffId);
  if (!before) throw new ApiError("staff_not_found", `no member ${staffId} on this restaurant's staff`);
  const after = Object.keys(set).length ? await repo.updateStaff(c.get("control"), staffId, set) : before;
  if (after === "last_owner")
    throw new ApiError("last_owner", "the restaurant keeps at least one active owner who can sign in");
  if (!after) throw new ApiError("staff_not_found", `no member ${staffId} on this restaurant's staff`);
  await afterChange(c, before, after);
  const fields = Object.keys(set).filter((k) => k !== "pinFailures" && k !== "pinLockedUntil");
  await recordChange(c, { action, subject: "staff", subjectId: staffId, fields: fields.map(snake) });
  return { data: [toStaffDto(after)] };
}

const snake = (k: string) => (k === "pinHash" ? "pin" : k);

export async function changeMember(
  c: Ctx,
  propertyId: number,
  staffId: number,
  body: z.output<typeof StaffChangeBody>,
) {
  const set: repo.StaffChange = {};
  if (body.role !== undefined) set.role = body.role;
  if (body.active !== undefined) set.active = body.active;
  if (body.pin !== undefined) {
    set.pinHash = body.pin === null ? null : await hashPassword(body.pin);
    set.pinFailures = 0;
    set.pinLockedUntil = null;
  }
  const action = body.active === false ? "deactivated" : "updated";
  return applyChange(c, propertyId, staffId, set, action);
}

export async function deactivateMember(c: Ctx, propertyId: number, staffId: number) {
  return applyChange(c, propertyId, staffId, { active: false }, "deactivated");
}
