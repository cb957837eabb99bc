/** A restaurant's staff in the control database (db/control.schema.ts staffMembers): their rows, invitations, PINs. */
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { consoleSessions, propertyDirectory, staffMembers } from "../db/control.schema";
import type { ControlDb } from "../env";
import { abortReason } from "../errors";

export type StaffRow = typeof staffMembers.$inferSelect;
type DirectoryRow = typeof propertyDirectory.$inferSelect;

/** An email's comparison form: NFKC, trimmed, lower case. */
export const emailKey = (email: string) => email.normalize("NFKC").trim().toLowerCase().normalize("NFKC");

/** Whether a member can sign in: the account member, or an invitee who accepted. */
export const accepted = (s: Pick<StaffRow, "account" | "passwordHash">) =>
  s.account || s.passwordHash !== null;

export async function listStaff(control: ControlDb, propertyId: number): Promise<StaffRow[]> {
  return control
    .select()
    .from(staffMembers)
    .where(eq(staffMembers.propertyId, propertyId))
    .orderBy(desc(staffMembers.account), asc(staffMembers.id));
}

export async function getStaff(control: ControlDb, propertyId: number, id: number) {
  const rows = await control
    .select()
    .from(staffMembers)
    .where(and(eq(staffMembers.propertyId, propertyId), eq(staffMembers.id, id)))
    .limit(1);
  return rows[0];
}

/** The account member of a property (its username's), if it has one. */
export async function accountMember(control: ControlDb, propertyId: number) {
  const rows = await control
    .select()
    .from(staffMembers)
    .where(and(eq(staffMembers.propertyId, propertyId), eq(staffMembers.account, true)))
    .limit(1);
  return rows[0];
}

/** The active members who accepted an invitation under this email, at any live restaurant, the last signed in first. */
export async function membersByEmail(
  control: ControlDb,
  key: string,
): Promise<{ member: StaffRow; entry: DirectoryRow }[]> {
  return control
    .select({ member: staffMembers, entry: propertyDirectory })
    .from(staffMembers)
    .innerJoin(propertyDirectory, eq(propertyDirectory.id, staffMembers.propertyId))
    .where(
      and(
        eq(staffMembers.emailKey, key),
        eq(staffMembers.active, true),
        isNotNull(staffMembers.passwordHash),
        isNull(propertyDirectory.deletedAt),
      ),
    )
    .orderBy(sql`${staffMembers.lastSignInAt} DESC NULLS LAST`, asc(staffMembers.id))
    .limit(5);
}

export interface NewInvite {
  propertyId: number;
  email: string;
  name: string | null;
  role: StaffRow["role"];
  inviteHash: string;
  inviteExpiresAt: string;
}

/**
 * Invites a person: a new member, or a fresh invitation for one who has not accepted yet (their
 * old link stops working). Undefined when the email is already a member's who accepted.
 */
export async function invite(control: ControlDb, i: NewInvite): Promise<StaffRow | undefined> {
  const key = emailKey(i.email);
  const rows = await control
    .insert(staffMembers)
    .values({ ...i, emailKey: key })
    .onConflictDoUpdate({
      target: [staffMembers.propertyId, staffMembers.emailKey],
      set: {
        email: i.email,
        name: sql`coalesce(${i.name}, ${staffMembers.name})`,
        role: i.role,
        active: true,
        inviteHash: i.inviteHash,
        inviteExpiresAt: i.inviteExpiresAt,
      },
      setWhere: isNull(staffMembers.passwordHash),
    })
    .returning();
  return rows[0];
}

/** Spends an invitation in one statement (two racing uses cannot both have it): the member, named and with a password. */
export async function acceptInvite(
  control: ControlDb,
  inviteHash: string,
  at: string,
  set: { name: string; passwordHash: string },
): Promise<StaffRow | undefined> {
  const rows = await control
    .update(staffMembers)
    .set({ ...set, inviteHash: null, inviteExpiresAt: null, lastSignInAt: at })
    .where(
      and(
        eq(staffMembers.inviteHash, inviteHash),
        gt(staffMembers.inviteExpiresAt, at),
        eq(staffMembers.active, true),
      ),
    )
    .returning();
  return rows[0];
}

export type StaffChange = Partial<
  Pick<
    StaffRow,
    "role" | "active" | "pinHash" | "pinFailures" | "pinLockedUntil" | "passwordHash" | "lastSignInAt"
  >
>;

/** Changes a member; "last_owner" when it would leave the restaurant without an owner who can sign in (a trigger). */
export async function updateStaff(
  control: ControlDb,
  id: number,
  set: StaffChange,
): Promise<StaffRow | "last_owner" | undefined> {
  try {
    return (await control.update(staffMembers).set(set).where(eq(staffMembers.id, id)).returning())[0];
  } catch (err) {
    if (abortReason(err, ["last_owner"])) return "last_owner";
    throw err;
  }
}

/**
 * A wrong PIN, counted in one statement: the fifth in a row locks the PIN until `lockUntil` and
 * starts the count again. Answers the member as it now is.
 */
export async function countWrongPin(control: ControlDb, id: number, lockUntil: string, tries: number) {
  const locking = sql`${staffMembers.pinFailures} + 1 >= ${tries}`;
  const rows = await control
    .update(staffMembers)
    .set({
      pinFailures: sql`CASE WHEN ${locking} THEN 0 ELSE ${staffMembers.pinFailures} + 1 END`,
      pinLockedUntil: sql`CASE WHEN ${locking} THEN ${lockUntil} ELSE ${staffMembers.pinLockedUntil} END`,
    })
    .where(eq(staffMembers.id, id))
    .returning();
  return rows[0];
}

/** The console sessions a member is in: at the console now, or whose sign-in opened them. */
export async function sessionsOf(control: ControlDb, staffId: number): Promise<number[]> {
  const rows = await control
    .select({ id: consoleSessions.id })
    .from(consoleSessions)
    .where(or(eq(consoleSessions.staffId, staffId), eq(consoleSessions.signerId, staffId)));
  return rows.map((r) => r.id);
}

/** Ends these console sessions (their rows): a member deactivated. */
export async function endSessions(control: ControlDb, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 90)
    await control.delete(consoleSessions).where(inArray(consoleSessions.id, ids.slice(i, i + 90)));
}
