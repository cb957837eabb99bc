/** Members' passkeys and the WebAuthn challenges in flight (control database). */
import { and, eq, gt } from "drizzle-orm";
import { passkeyChallenges, staffMembers, staffPasskeys } from "../db/control.schema";
import type { ControlDb } from "../env";

export type PasskeyRow = typeof staffPasskeys.$inferSelect;

export async function passkeysOf(control: ControlDb, staffId: number): Promise<PasskeyRow[]> {
  return control.select().from(staffPasskeys).where(eq(staffPasskeys.staffId, staffId));
}

/** A passkey by its credential id, with its member. */
export async function findPasskey(control: ControlDb, credentialId: string) {
  const rows = await control
    .select({ passkey: staffPasskeys, member: staffMembers })
    .from(staffPasskeys)
    .innerJoin(staffMembers, eq(staffMembers.id, staffPasskeys.staffId))
    .where(eq(staffPasskeys.credentialId, credentialId))
    .limit(1);
  return rows[0];
}

export async function addPasskey(control: ControlDb, row: Omit<typeof staffPasskeys.$inferInsert, "id">) {
  return (await control.insert(staffPasskeys).values(row).returning())[0]!;
}

export async function usePasskey(control: ControlDb, id: number, counter: number, at: string): Promise<void> {
  await control.update(staffPasskeys).set({ counter, lastUsedAt: at }).where(eq(staffPasskeys.id, id));
}

/** Removes one of a member's passkeys; whether it was theirs. */
export async function removePasskey(control: ControlDb, staffId: number, id: number): Promise<boolean> {
  const rows = await control
    .delete(staffPasskeys)
    .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.staffId, staffId)))
    .returning({ id: staffPasskeys.id });
  return rows.length > 0;
}

/** Keeps a challenge under a token's hash (a new one for the same token replaces it). */
export async function keepChallenge(
  control: ControlDb,
  row: { tokenHash: string; challenge: string; staffId: number | null; expiresAt: string },
): Promise<void> {
  await control
    .insert(passkeyChallenges)
    .values(row)
    .onConflictDoUpdate({
      target: passkeyChallenges.tokenHash,
      set: { challenge: row.challenge, staffId: row.staffId, expiresAt: row.expiresAt },
    });
}

/** Spends an unexpired challenge in one statement: an answer is checked against it once. */
export async function spendChallenge(control: ControlDb, tokenHash: string, at: string) {
  const rows = await control
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.tokenHash, tokenHash), gt(passkeyChallenges.expiresAt, at)))
    .returning();
  return rows[0];
}
