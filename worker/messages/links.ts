/**
 * The secret links emails carry: a reservation's manage link, a waiting-list offer's claim
 * link, a console password reset link and a staff invitation. Each token is HMAC-SHA256(LINK_SECRET, purpose:nonce), so a message written long after
 * the booking (a reminder, an offer) can carry it again, while the database keeps only the
 * random nonce and the token's SHA-256: a copy of the database opens no reservation and no account.
 */
import { base64url, randomToken, sha256Hex } from "../lib/crypto";

export type LinkPurpose = "manage" | "offer" | "reset" | "invite";

const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    keys.set(secret, key);
  }
  return key;
}

/** The token of a link: 43 characters, 256 bits. */
export async function linkToken(secret: string, purpose: LinkPurpose, nonce: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(`${purpose}:${nonce}`));
  return base64url(new Uint8Array(mac));
}

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

/** The token of a stored link, if the secret still gives it (a rotated secret does not). */
export async function storedToken(
  secret: string | undefined,
  purpose: LinkPurpose,
  nonce: string | null,
  hash: string | null,
): Promise<string | undefined> {
  if (!secret || !nonce || !hash) return undefined;
  const token = await linkToken(secret, purpose, nonce);
  return (await sha256Hex(token)) === hash ? token : undefined;
}
