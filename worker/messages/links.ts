/**
 * The secret links emails carry: a reservation's manage link, a waiting-list offer's claim
 * link, a console password reset link and a staff invitation. Each token is
 * HMAC-SHA256(LINK_SECRET, purpose:nonce), so a message written long after the booking (a reminder,
 * an offer) can carry it again, while the database keeps only the random nonce and the token's
 * SHA-256: a copy of the database opens no reservation and no account.
 */
import { randomToken, sha256Hex } from "../lib/crypto";
import { type LinkPurpose, linkToken } from "../lib/links";

export { type LinkPurpose, linkToken, storedToken } from "../lib/links";

export interface NewLink {
  /** null without a secret: the token is then random and no later message can carry it */
  nonce: string | null;
  token: string;
  hash: string;
}

/** A fresh link: its nonce to store, its token to hand out once, the token's hash to look it up by. */
export async function newLink(secret: string | undefined, purpose: LinkPurpose): Promise<NewLink> {
  const nonce = secret ? randomToken("", 16) : null;
  const token = secret && nonce ? await linkToken(secret, purpose, nonce) : randomToken("", 32);
  return { nonce, token, hash: await sha256Hex(token) };
}
