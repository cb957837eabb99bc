/** Sign-in sessions of the hosted pages (the browser holds the token's cookie), in the control database. */
import { and, eq, gt } from "drizzle-orm";
import { signInSessions } from "../db/control.schema";
import type { ControlDb } from "../env";

export type SessionRow = typeof signInSessions.$inferSelect;
export type NewSession = Omit<
  typeof signInSessions.$inferInsert,
  "id" | "createdAt" | "propertyId" | "passwordStamp"
>;

export async function insertSession(
  control: ControlDb,
  row: NewSession & { createdAt: string },
): Promise<void> {
  await control.insert(signInSessions).values(row);
}

/** The unexpired session of this kind behind a cookie's token hash. */
export async function findSession(
  control: ControlDb,
  tokenHash: string,
  kind: SessionRow["kind"],
  now: string,
): Promise<SessionRow | undefined> {
  const rows = await control
    .select()
    .from(signInSessions)
    .where(
      and(
        eq(signInSessions.tokenHash, tokenHash),
        eq(signInSessions.kind, kind),
        gt(signInSessions.expiresAt, now),
      ),
    )
    .limit(1);
  return rows[0];
}

/** Signs the session in: the property, and a new token (the old one stops working). */
export async function signInSession(
  control: ControlDb,
  id: number,
  set: { tokenHash: string; propertyId: number; passwordStamp: string; expiresAt: string },
): Promise<void> {
  await control.update(signInSessions).set(set).where(eq(signInSessions.id, id));
}

/** Deletes the session; true only for the one call that deleted it (two requests racing get one true). */
export async function deleteSession(control: ControlDb, id: number): Promise<boolean> {
  const gone = await control
    .delete(signInSessions)
    .where(eq(signInSessions.id, id))
    .returning({ id: signInSessions.id });
  return gone.length > 0;
}
