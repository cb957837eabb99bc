/**
 * Standard Webhooks signing, on WebCrypto only: no Hono, no drizzle.
 * Secrets are `whsec_<base64 of the key bytes>`; a signature is
 * `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`.
 */

const encoder = new TextEncoder();
const PREFIX = "whsec_";

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const s = atob(value);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A new signing secret: 32 random bytes (Standard Webhooks asks for 24 to 64). */
export function generateSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

async function hmac(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.slice(PREFIX.length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(content))));
}

/**
 * The webhook-signature header for a message: one `v1,<sig>` per secret, space-separated, so a
 * receiver holding either the new or the previous secret verifies it during a rotation.
 */
export async function signatureHeader(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = `${id}.${timestamp}.${body}`;
  const signatures = await Promise.all(secrets.map(async (s) => `v1,${await hmac(s, content)}`));
  return signatures.join(" ");
}

/** The three Standard Webhooks headers, plus the content type. */
export async function webhookHeaders(
  secrets: string[],
  id: string,
  body: string,
  now = Date.now(),
): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(secrets, id, timestamp, body),
    "user-agent": "booking-engine-webhooks/2",
  };
}
