/**
 * The one JWT the Worker signs (a search-engine service account's assertion): RS256 in the
 * compact form of RFC 7515, on WebCrypto. A library's signer and key import cost the bundle
 * 15.7 KB for these few lines; the tests verify what this signs with jose.
 */
import { base64url } from "./crypto";

const encoder = new TextEncoder();

const segment = (value: object) => base64url(encoder.encode(JSON.stringify(value)));

/** The DER of a PEM "PRIVATE KEY" (PKCS8), or an error naming what it is not. */
function pkcs8Der(pem: string): Uint8Array<ArrayBuffer> {
  const body = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem)?.[1];
  if (!body) throw new TypeError("the private key is not a PEM-encoded PKCS8 key");
  return Uint8Array.from(atob(body.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
}

/** `header` and `claims` signed with the RSA key `pem` (PKCS8) by RSASSA-PKCS1-v1_5 with SHA-256. */
export async function signRs256(header: object, claims: object, pem: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "pkcs8",
    pkcs8Der(pem),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const input = `${segment(header)}.${segment(claims)}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, encoder.encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}
