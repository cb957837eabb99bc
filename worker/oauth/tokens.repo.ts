/**
 * Authorisation codes, refresh-token families and the tokens they issue, in the control
 * database (CONTRACT 10, 11). Every secret is stored as its SHA-256. Each exchange is one D1
 * batch whose inserts depend on the row its first statement claimed, so two requests racing
 * for one code or one refresh token can never both get tokens.
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { accessTokens, oauthCodes, propertyGrants, refreshTokens, signInSessions } from "../db/control.schema";
import type { ControlDb } from "../env";

export type CodeRow = typeof oauthCodes.$inferSelect;
export type RefreshRow = typeof refreshTokens.$inferSelect;

export interface Issued {
  clientId: number;
  propertyId: number;
  familyId: string;
  accessHash: string;
  accessExpiresAt: string;
  refreshHash: string;
  refreshExpiresAt: string;
  at: string;
}

export async function insertCode(control: ControlDb, row: Omit<typeof oauthCodes.$inferInsert, "id" | "usedAt" | "familyId">): Promise<void> {
  await control.insert(oauthCodes).values(row);
}

export async function findCode(control: ControlDb, codeHash: string): Promise<CodeRow | undefined> {
  return (await control.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1))[0];
}

/** The statements that issue an access token and a refresh token of `t.familyId`, when `guard` holds. */
function issueStatements(control: ControlDb, t: Issued, guard: ReturnType<typeof sql>) {
  return [
    control.run(sql`INSERT INTO ${accessTokens} (token_hash, client_id, property_id, family_id, expires_at, created_at)
      SELECT ${t.accessHash}, ${t.clientId}, ${t.propertyId}, ${t.familyId}, ${t.accessExpiresAt}, ${t.at} WHERE ${guard}`),
    control.run(sql`INSERT INTO ${refreshTokens} (token_hash, family_id, client_id, property_id, expires_at, created_at)
      SELECT ${t.refreshHash}, ${t.familyId}, ${t.clientId}, ${t.propertyId}, ${t.refreshExpiresAt}, ${t.at} WHERE ${guard}`),
  ] as const;
}

/**
 * Redeems a code: claims it (unused, unexpired, this client, redirect_uri and challenge, its
 * property still live), grants the property to the client and issues a family's first tokens,
 * all in one batch. Answers false when the code could not be claimed.
 */
export async function redeemCode(control: ControlDb, code: { codeHash: string; redirectUri: string; codeChallenge: string }, t: Issued): Promise<boolean> {
  const claimed = sql`EXISTS (SELECT 1 FROM ${oauthCodes} WHERE code_hash = ${code.codeHash} AND family_id = ${t.familyId})`;
  const [claim] = await control.batch([
    control.run(sql`UPDATE ${oauthCodes} SET used_at = ${t.at}, family_id = ${t.familyId}
      WHERE code_hash = ${code.codeHash} AND client_id = ${t.clientId} AND property_id = ${t.propertyId} AND redirect_uri = ${code.redirectUri}
        AND code_challenge = ${code.codeChallenge} AND used_at IS NULL AND expires_at > ${t.at}
        AND EXISTS (SELECT 1 FROM property_directory d WHERE d.id = ${t.propertyId} AND d.deleted_at IS NULL)`),
    control.run(sql`INSERT INTO ${propertyGrants} (client_id, property_id, created_at) SELECT ${t.clientId}, ${t.propertyId}, ${t.at} WHERE ${claimed}
      ON CONFLICT DO NOTHING`),
    ...issueStatements(control, t, claimed),
  ]);
  return (claim as D1Result).meta.changes === 1;
}

export async function findRefresh(control: ControlDb, tokenHash: string): Promise<RefreshRow | undefined> {
  return (await control.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1))[0];
}

/**
 * Rotates a refresh token: marks it used and replaced by the new one, and issues the new pair
 * of the same family only if that very mark was made (and the grant still stands). False when
 * another request got there first: the caller treats it as reuse.
 */
export async function rotateRefresh(control: ControlDb, oldId: number, t: Issued): Promise<boolean> {
  const [mark] = await control.batch([
    control.run(sql`UPDATE ${refreshTokens} SET used_at = ${t.at}, replaced_by = ${t.refreshHash}
      WHERE id = ${oldId} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ${t.at}
        AND EXISTS (SELECT 1 FROM ${propertyGrants} g WHERE g.client_id = ${t.clientId} AND g.property_id = ${t.propertyId})`),
    ...issueStatements(control, t, sql`EXISTS (SELECT 1 FROM ${refreshTokens} WHERE id = ${oldId} AND replaced_by = ${t.refreshHash})`),
  ]);
  return (mark as D1Result).meta.changes === 1;
}

/** Revokes every refresh and access token of a family (a reuse, or RFC 7009 on a refresh token). */
export async function revokeFamily(control: ControlDb, familyId: string, at: string): Promise<void> {
  await control.batch([
    control.update(refreshTokens).set({ revokedAt: at }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
    control.update(accessTokens).set({ revokedAt: at }).where(and(eq(accessTokens.familyId, familyId), isNull(accessTokens.revokedAt))),
  ]);
}

/**
 * A grant revoked (CONTRACT 11): the grant goes, and with it every token of the client that
 * reaches only that property, its refresh families and its unredeemed codes. Tokens of the
 * client that reach all its properties lose this one with the grant. Answers whether a grant was there.
 */
export async function revokeGrantRows(control: ControlDb, clientId: number, propertyId: number, at: string) {
  const [deleted, access, refresh] = await control.batch([
    control.delete(propertyGrants).where(and(eq(propertyGrants.clientId, clientId), eq(propertyGrants.propertyId, propertyId))).returning({ id: propertyGrants.propertyId }),
    control.run(sql`UPDATE ${accessTokens} SET revoked_at = ${at} WHERE client_id = ${clientId} AND property_id = ${propertyId} AND revoked_at IS NULL AND expires_at > ${at}`),
    control.run(sql`UPDATE ${refreshTokens} SET revoked_at = ${at} WHERE client_id = ${clientId} AND property_id = ${propertyId} AND revoked_at IS NULL AND used_at IS NULL`),
    control.delete(oauthCodes).where(and(eq(oauthCodes.clientId, clientId), eq(oauthCodes.propertyId, propertyId), isNull(oauthCodes.usedAt))),
  ]);
  return { granted: deleted.length > 0, accessTokens: (access as D1Result).meta.changes ?? 0, refreshTokens: (refresh as D1Result).meta.changes ?? 0 };
}

/** Housekeeping: codes, refresh tokens and sign-in sessions that expired before `before`. */
export async function purgeOAuth(control: ControlDb, before: string): Promise<void> {
  await control.batch([
    control.delete(oauthCodes).where(lt(oauthCodes.expiresAt, before)),
    control.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before)),
    control.delete(signInSessions).where(lt(signInSessions.expiresAt, before)),
  ]);
}
