/**
 * The token endpoint's grants of a restaurant's approval: authorization_code with
 * PKCE S256 (RFC 6749 4.1.3, RFC 7636 4.6) and refresh_token (RFC 6749 6), rotated on every use;
 * a used or revoked refresh token that comes back revokes its whole family, and so does a code
 * redeemed twice (RFC 6749 4.1.2). Tokens of these grants reach the approved property only.
 */

import type { ControlDb } from "../env";
import { randomToken, s256, sha256Hex } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";
import { OAuthError } from "./errors";
import type { OAuthRequest } from "./request";
import { findCode, findRefresh, type Issued, redeemCode, revokeFamily, rotateRefresh } from "./tokens.repo";

/** A refresh token (each one of a family) stays usable this long after it was issued. */
export const REFRESH_TTL_SECONDS = 90 * 86_400;
/** RFC 7636 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface TokenAnswer {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  property_ids: number[];
}

const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);

/** A new access and refresh token of `familyId`: the rows to write and the answer to give. */
async function newPair(clientId: number, propertyId: number, familyId: string, ttl: number) {
  const at = nowIso();
  const access = randomToken("at_", 32);
  const refresh = randomToken("rt_", 32);
  const issued: Issued = {
    clientId,
    propertyId,
    familyId,
    accessHash: await sha256Hex(access),
    accessExpiresAt: addSeconds(at, ttl),
    refreshHash: await sha256Hex(refresh),
    refreshExpiresAt: addSeconds(at, REFRESH_TTL_SECONDS),
    at,
  };
  const answer: TokenAnswer = {
    access_token: access,
    token_type: "Bearer",
    expires_in: ttl,
    refresh_token: refresh,
    property_ids: [propertyId],
  };
  return { issued, answer };
}

function required(req: OAuthRequest, name: string): string {
  const value = req.str(name);
  if (!value) throw new OAuthError("invalid_request", `${name} is required`);
  return value;
}

/** grant_type=authorization_code, for the authenticated client `clientId`. */
export async function exchangeCode(
  control: ControlDb,
  clientId: number,
  req: OAuthRequest,
  ttl: number,
): Promise<TokenAnswer> {
  const code = required(req, "code");
  const redirectUri = required(req, "redirect_uri");
  const verifier = required(req, "code_verifier");
  if (!VERIFIER.test(verifier))
    throw new OAuthError(
      "invalid_request",
      "code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'",
    );
  const codeHash = await sha256Hex(code);
  const row = await findCode(control, codeHash);
  if (!row || row.clientId !== clientId) throw invalidGrant("unknown authorization code");
  if (row.usedAt) {
    // RFC 6749 4.1.2: a code used twice revokes what it issued.
    await revokeFamily(control, row.familyId!, nowIso());
    throw invalidGrant("the authorization code was already used; the tokens issued for it are revoked");
  }
  if (row.redirectUri !== redirectUri)
    throw invalidGrant("redirect_uri is not the one of the authorization request");
  const { issued, answer } = await newPair(clientId, row.propertyId, randomToken("fam_", 16), ttl);
  if (row.expiresAt <= issued.at) throw invalidGrant("the authorization code expired");
  if ((await s256(verifier)) !== row.codeChallenge)
    throw invalidGrant("code_verifier does not match the code_challenge");
  if (!(await redeemCode(control, { codeHash, redirectUri, codeChallenge: row.codeChallenge }, issued))) {
    // Another request redeemed it meanwhile, or the restaurant is gone: either way nothing was issued here.
    throw invalidGrant("the authorization code is no longer valid");
  }
  return answer;
}

/** grant_type=refresh_token: rotates the token; a token seen before revokes its family. */
export async function exchangeRefresh(
  control: ControlDb,
  clientId: number,
  req: OAuthRequest,
  ttl: number,
): Promise<TokenAnswer> {
  const presented = required(req, "refresh_token");
  const row = await findRefresh(control, await sha256Hex(presented));
  if (!row || row.clientId !== clientId) throw invalidGrant("unknown refresh token");
  if (row.revokedAt) throw invalidGrant("the refresh token was revoked");
  if (row.usedAt) {
    await revokeFamily(control, row.familyId, nowIso());
    throw invalidGrant("the refresh token was already used; every token of its family is revoked");
  }
  const { issued, answer } = await newPair(clientId, row.propertyId, row.familyId, ttl);
  if (row.expiresAt <= issued.at) throw invalidGrant("the refresh token expired");
  if (!(await rotateRefresh(control, row.id, issued))) {
    const now = await findRefresh(control, row.tokenHash);
    // Used by a racing request: the same reuse as above. Otherwise the grant was revoked meanwhile.
    if (now?.usedAt) await revokeFamily(control, row.familyId, nowIso());
    throw invalidGrant("the refresh token is no longer valid");
  }
  return answer;
}

/** RFC 7009 for a refresh token of this client: its family goes (access tokens included). False when it is none. */
export async function revokeRefreshToken(
  control: ControlDb,
  clientId: number,
  token: string,
): Promise<boolean> {
  const row = await findRefresh(control, await sha256Hex(token));
  if (!row || row.clientId !== clientId) return false;
  await revokeFamily(control, row.familyId, nowIso());
  return true;
}
