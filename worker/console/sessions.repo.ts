/** The console's sessions and single-use links in the control database (only token hashes are kept). */
import { and, eq, gt, inArray, isNull, lt, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  apiClients,
  consoleLinks,
  consoleSessions,
  passkeyChallenges,
  propertyDirectory,
  staffMembers,
} from "../db/control.schema";
import type { ControlDb } from "../env";

export type ConsoleSessionRow = typeof consoleSessions.$inferSelect;
export type ConsoleLinkRow = typeof consoleLinks.$inferSelect;
type DirectoryRow = typeof propertyDirectory.$inferSelect;
type StaffRow = typeof staffMembers.$inferSelect;

/** A session as one read finds it: its property's entry, who is at the console, who signed in, the platform. */
export interface FoundSession {
  session: ConsoleSessionRow;
  entry: DirectoryRow;
  member: StaffRow | null;
  signer: StaffRow | null;
  client: { id: number; name: string } | null;
}

const member = alias(staffMembers, "member");
const signer = alias(staffMembers, "signer");

export async function insertConsoleSession(
  control: ControlDb,
  row: Omit<typeof consoleSessions.$inferInsert, "id">,
): Promise<ConsoleSessionRow> {
  return (await control.insert(consoleSessions).values(row).returning())[0]!;
}

/** The unexpired session of a token hash, with its property's entry and who is in it (one read). */
export async function findConsoleSession(
  control: ControlDb,
  tokenHash: string,
  at: string,
): Promise<FoundSession | undefined> {
  const rows = await control
    .select({
      session: consoleSessions,
      entry: propertyDirectory,
      member,
      signer,
      client: { id: apiClients.id, name: apiClients.name },
    })
    .from(consoleSessions)
    .innerJoin(propertyDirectory, eq(propertyDirectory.id, consoleSessions.propertyId))
    .leftJoin(member, eq(member.id, consoleSessions.staffId))
    .leftJoin(signer, eq(signer.id, consoleSessions.signerId))
    .leftJoin(apiClients, eq(apiClients.id, consoleSessions.clientId))
    .where(and(eq(consoleSessions.tokenHash, tokenHash), gt(consoleSessions.expiresAt, at)))
    .limit(1);
  const row = rows[0];
  return row && { ...row, client: row.client?.id ? row.client : null };
}

/** Who is at a session's console now: another member, switched to by their PIN. */
export async function switchSession(control: ControlDb, id: number, staffId: number): Promise<void> {
  await control.update(consoleSessions).set({ staffId }).where(eq(consoleSessions.id, id));
}

export async function slideConsoleSession(control: ControlDb, id: number, expiresAt: string): Promise<void> {
  await control.update(consoleSessions).set({ expiresAt }).where(eq(consoleSessions.id, id));
}

export async function deleteConsoleSession(control: ControlDb, id: number): Promise<void> {
  await control.delete(consoleSessions).where(eq(consoleSessions.id, id));
}

/** Ends every session of a property but `keep` (the property deleted); answers their ids. */
export async function endPropertySessions(
  control: ControlDb,
  propertyId: number,
  keep?: number,
): Promise<number[]> {
  const rows = await control
    .delete(consoleSessions)
    .where(
      and(
        eq(consoleSessions.propertyId, propertyId),
        keep === undefined ? undefined : ne(consoleSessions.id, keep),
      ),
    )
    .returning({ id: consoleSessions.id });
  return rows.map((r) => r.id);
}

export async function insertConsoleLink(
  control: ControlDb,
  row: Omit<typeof consoleLinks.$inferInsert, "id">,
): Promise<void> {
  await control.insert(consoleLinks).values(row);
}

/** Spends an unexpired, unused link of this kind in one statement: two racing uses cannot both have it. */
export async function spendConsoleLink(
  control: ControlDb,
  tokenHash: string,
  kind: ConsoleLinkRow["kind"],
  at: string,
): Promise<ConsoleLinkRow | undefined> {
  const rows = await control
    .update(consoleLinks)
    .set({ usedAt: at })
    .where(
      and(
        eq(consoleLinks.tokenHash, tokenHash),
        eq(consoleLinks.kind, kind),
        isNull(consoleLinks.usedAt),
        gt(consoleLinks.expiresAt, at),
      ),
    )
    .returning();
  return rows[0];
}

/** Housekeeping: expired sessions and links (a platform's sign-in links, password reset links). */
export async function dropExpiredConsoleRows(control: ControlDb, at: string): Promise<void> {
  await control.delete(consoleSessions).where(lt(consoleSessions.expiresAt, at));
  await control.delete(consoleLinks).where(lt(consoleLinks.expiresAt, at));
  await control.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, at));
}

/** Ends these sessions (their rows). */
export async function endSessionRows(control: ControlDb, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 90)
    await control.delete(consoleSessions).where(inArray(consoleSessions.id, ids.slice(i, i + 90)));
}

/** The sessions the property's own username and password opened (its account member signed them in). */
export async function accountSessions(control: ControlDb, propertyId: number): Promise<number[]> {
  const rows = await control
    .select({ id: consoleSessions.id })
    .from(consoleSessions)
    .innerJoin(staffMembers, eq(staffMembers.id, consoleSessions.signerId))
    .where(and(eq(consoleSessions.propertyId, propertyId), eq(staffMembers.account, true)));
  return rows.map((r) => r.id);
}

/** The platform a sign-in link was made for: its id and name. */
export async function findClientName(control: ControlDb, id: number) {
  const rows = await control
    .select({ id: apiClients.id, name: apiClients.name })
    .from(apiClients)
    .where(eq(apiClients.id, id))
    .limit(1);
  return rows[0];
}

/** The sessions a member's own password or passkey opened (their password changed: they end). */
export async function signedSessions(control: ControlDb, staffId: number): Promise<number[]> {
  const rows = await control
    .select({ id: consoleSessions.id })
    .from(consoleSessions)
    .where(eq(consoleSessions.signerId, staffId));
  return rows.map((r) => r.id);
}
