/**
 * Authorisation codes, refresh-token families and the tokens they issue, in the control
 * database. Every secret is stored as its SHA-256. Each exchange is one D1
 * batch whose inserts depend on the row its first statement claimed, so two requests racing
 * for one code or one refresh token can never both get tokens. (Those batches are raw D1:
 * drizzle's batch cannot carry a hand-written statement with parameters.)
 */
import { and, eq, isNull, lt } from "drizzle-orm";
import { accessTokens, oauthCodes, refreshTokens, signInSessions } from "../db/control.schema";
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

export async function insertCode(
  control: ControlDb,
  row: Omit<typeof oauthCodes.$inferInsert, "id" | "usedAt" | "familyId">,
): Promise<void> {
  await control.insert(oauthCodes).values(row);
}

export async function findCode(control: ControlDb, codeHash: string): Promise<CodeRow | undefined> {
  return (await control.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1))[0];
}

/** The statements that issue an access token and a refresh token of `t.familyId`, when `guard` (SQL with its values) holds. */
function issueStatements(d1: D1Database, t: Issued, guard: string, ...values: unknown[]) {
  return [
    d1
      .prepare(
        `INSERT INTO access_tokens (token_hash, client_id, property_id, family_id, expires_at, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${guard}`,
      )
      .bind(t.accessHash, t.clientId, t.propertyId, t.familyId, t.accessExpiresAt, t.at, ...values),
    d1
      .prepare(
        `INSERT INTO refresh_tokens (token_hash, family_id, client_id, property_id, expires_at, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${guard}`,
      )
      .bind(t.refreshHash, t.familyId, t.clientId, t.propertyId, t.refreshExpiresAt, t.at, ...values),
  ];
}

/**
 * Redeems a code: claims it (unused, unexpired, this client, redirect_uri and challenge, its
 * property still live), grants the property to the client and issues a family's first tokens,
 * all in one batch. Answers false when the code could not be claimed.
 */
export async function redeemCode(
  control: ControlDb,
  code: { codeHash: string; redirectUri: string; codeChallenge: string },
  t: Issued,
): Promise<boolean> {
  const d1 = control.$client;
  const claimed = "EXISTS (SELECT 1 FROM oauth_codes WHERE code_hash = ? AND family_id = ?)";
  const [claim] = await d1.batch([
    d1
      .prepare(
        `UPDATE oauth_codes SET used_at = ?1, family_id = ?2
         WHERE code_hash = ?3 AND client_id = ?4 AND property_id = ?5 AND redirect_uri = ?6 AND code_challenge = ?7 AND used_at IS NULL AND expires_at > ?1
           AND EXISTS (SELECT 1 FROM property_directory d WHERE d.id = ?5 AND d.deleted_at IS NULL)`,
      )
      .bind(t.at, t.familyId, code.codeHash, t.clientId, t.propertyId, code.redirectUri, code.codeChallenge),
    d1
      .prepare(
        `INSERT INTO property_grants (client_id, property_id, created_at) SELECT ?, ?, ? WHERE ${claimed} ON CONFLICT DO NOTHING`,
      )
      .bind(t.clientId, t.propertyId, t.at, code.codeHash, t.familyId),
    ...issueStatements(d1, t, claimed, code.codeHash, t.familyId),
  ]);
  return claim!.meta.changes === 1;
}

export async function findRefresh(control: ControlDb, tokenHash: string): Promise<RefreshRow | undefined> {
  return (
    await control.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1)
  )[0];
}

/**
 * Rotates a refresh token: marks it used and replaced by the new one, and issues the new pair
 * of the same family only if that very mark was made (and the grant still stands). False when
 * another request got there first: the caller treats it as reuse.
 */
export async function rotateRefresh(control: ControlDb, oldId: number, t: Issued): Promise<boolean> {
  const d1 = control.$client;
  const [mark] = await d1.batch([
    d1
      .prepare(
        `UPDATE refresh_tokens SET used_at = ?1, replaced_by = ?2
         WHERE id = ?3 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?1
           AND EXISTS (SELECT 1 FROM property_grants g WHERE g.client_id = ?4 AND g.property_id = ?5)`,
      )
      .bind(t.at, t.refreshHash, oldId, t.clientId, t.propertyId),
    ...issueStatements(
      d1,
      t,
      "EXISTS (SELECT 1 FROM refresh_tokens WHERE id = ? AND replaced_by = ?)",
      oldId,
      t.refreshHash,
    ),
  ]);
  return mark!.meta.changes === 1;
}

/** Revokes every refresh and access token of a family (a reuse, or RFC 7009 on a refresh token). */
export async function revokeFamily(control: ControlDb, familyId: string, at: string): Promise<void> {
  await control.batch([
    control
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
    control
      .update(accessTokens)
      .set({ revokedAt: at })
      .where(and(eq(accessTokens.familyId, familyId), isNull(accessTokens.revokedAt))),
  ]);
}

/**
 * A grant revoked: the grant goes, and with it every token of the client that
 * reaches only that property, its refresh families and its unredeemed codes. Tokens of the
 * client that reach all its properties lose this one with the grant, and so do the console sign-in
 * links it made for the property and nobody followed yet. Answers whether a grant was there.
 */
export async function revokeGrantRows(control: ControlDb, clientId: number, propertyId: number, at: string) {
  const d1 = control.$client;
  const [grant, access, refresh] = await d1.batch([
    d1
      .prepare("DELETE FROM property_grants WHERE client_id = ?1 AND property_id = ?2")
      .bind(clientId, propertyId),
    d1
      .prepare(
        "UPDATE access_tokens SET revoked_at = ?3 WHERE client_id = ?1 AND property_id = ?2 AND revoked_at IS NULL AND expires_at > ?3",
      )
      .bind(clientId, propertyId, at),
    d1
      .prepare(
        "UPDATE refresh_tokens SET revoked_at = ?3 WHERE client_id = ?1 AND property_id = ?2 AND revoked_at IS NULL AND used_at IS NULL",
      )
      .bind(clientId, propertyId, at),
    d1
      .prepare("DELETE FROM oauth_codes WHERE client_id = ?1 AND property_id = ?2 AND used_at IS NULL")
      .bind(clientId, propertyId),
    // a console sign-in link the client made and nobody followed yet would outlive its access
    d1
      .prepare("DELETE FROM console_links WHERE client_id = ?1 AND property_id = ?2 AND used_at IS NULL")
      .bind(clientId, propertyId),
  ]);
  return {
    granted: grant!.meta.changes > 0,
    accessTokens: access!.meta.changes,
    refreshTokens: refresh!.meta.changes,
  };
}

/** Housekeeping: codes, refresh tokens and sign-in sessions that expired before `before`. */
export async function purgeOAuth(control: ControlDb, before: string): Promise<void> {
  await control.batch([
    control.delete(oauthCodes).where(lt(oauthCodes.expiresAt, before)),
    control.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before)),
    control.delete(signInSessions).where(lt(signInSessions.expiresAt, before)),
  ]);
}
