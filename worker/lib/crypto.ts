/** Random identifiers, secret hashing and constant-time comparison, on WebCrypto only. */

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** An unguessable string of `bytes` random bytes (default 32 = 256 bits), with a readable prefix. */
export function randomToken(prefix: string, bytes = 32): string {
  return prefix + base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA256 of `message` under `secret`, base64url, its first `bytes` bytes (default all 32). */
export async function hmacBase64url(secret: string, message: string, bytes = 32): Promise<string> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    hmacKeys.set(secret, key);
  }
  const mac = await crypto.subtle.sign("HMAC", await key, encoder.encode(message));
  return base64url(new Uint8Array(mac).slice(0, bytes));
}

/** Constant-time comparison of two digests. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

// Workers caps PBKDF2 at 100k iterations; user-chosen passwords need a slow hash.
const PBKDF2_ITERATIONS = 100_000;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${base64url(salt)}$${base64url(hash)}`;
}

async function pbkdf2(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/**
 * Whether `password` matches a hash of hashPassword(). A malformed or missing hash is checked
 * against a dummy of the same cost, so an unknown account answers as slowly as a wrong password.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  const iterations = Number(parts[1]);
  const salt = parts.length === 4 ? fromBase64url(parts[2]!) : undefined;
  const valid =
    !!salt &&
    parts[0] === "pbkdf2-sha256" &&
    Number.isInteger(iterations) &&
    iterations > 0 &&
    iterations <= PBKDF2_ITERATIONS;
  const hash = await pbkdf2(
    password,
    valid ? salt : new Uint8Array(16),
    valid ? iterations : PBKDF2_ITERATIONS,
  );
  return valid && timingSafeEqual(base64url(hash), parts[3]!);
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** SHA-256 of `value` in base64 (CSP hashes). */
export async function sha256Base64(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
  return btoa(String.fromCharCode(...digest));
}

/** PKCE S256 (RFC 7636 4.2): BASE64URL(SHA-256(ASCII(code_verifier))). */
export async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(verifier))));
}
