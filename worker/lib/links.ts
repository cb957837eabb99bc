/**
 * The tokens of the secret links emails carry (a reservation's manage and pay links, a waiting-list
 * offer, a password reset, a staff invitation): HMAC-SHA256(LINK_SECRET, purpose:nonce), so any
 * later message or answer can give the link again while the database keeps only the nonce and the
 * token's SHA-256.
 * worker/messages/links.ts makes new links.
 */
import { base64url, sha256Hex } from "./crypto";

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
