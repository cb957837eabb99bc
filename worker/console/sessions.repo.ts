/** The console's sessions and single-use links in the control database (only token hashes are kept). */
import { and, eq, gt, isNull, lt, ne } from "drizzle-orm";
import { consoleLinks, consoleSessions, propertyDirectory } from "../db/control.schema";
import type { ControlDb } from "../env";

export type ConsoleSessionRow = typeof consoleSessions.$inferSelect;
export type ConsoleLinkRow = typeof consoleLinks.$inferSelect;
type DirectoryRow = typeof propertyDirectory.$inferSelect;

export async function insertConsoleSession(
  control: ControlDb,
  row: Omit<typeof consoleSessions.$inferInsert, "id">,
): Promise<ConsoleSessionRow> {
  return (await control.insert(consoleSessions).values(row).returning())[0]!;
}

/** The unexpired session of a token hash, with its property's directory entry (one read). */
export async function findConsoleSession(
  control: ControlDb,
  tokenHash: string,
  at: string,
): Promise<{ session: ConsoleSessionRow; entry: DirectoryRow } | undefined> {
  const rows = await control
    .select({ session: consoleSessions, entry: propertyDirectory })
    .from(consoleSessions)
    .innerJoin(propertyDirectory, eq(propertyDirectory.id, consoleSessions.propertyId))
    .where(and(eq(consoleSessions.tokenHash, tokenHash), gt(consoleSessions.expiresAt, at)))
    .limit(1);
  return rows[0];
}

export async function slideConsoleSession(control: ControlDb, id: number, expiresAt: string): Promise<void> {
  await control.update(consoleSessions).set({ expiresAt }).where(eq(consoleSessions.id, id));
}

export async function deleteConsoleSession(control: ControlDb, id: number): Promise<void> {
  await control.delete(consoleSessions).where(eq(consoleSessions.id, id));
}

/** Ends every session of a property but `keep` (a password changed or reset). */
export async function endPropertySessions(
  control: ControlDb,
  propertyId: number,
  keep?: number,
): Promise<void> {
  await control
    .delete(consoleSessions)
    .where(
      and(
        eq(consoleSessions.propertyId, propertyId),
        keep === undefined ? undefined : ne(consoleSessions.id, keep),
      ),
    );
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
}
