/**
 * Idempotency-Key on writes (CONTRACT 2, Stripe semantics): scoped to the caller, kept 24 h.
 * The same key and body replays the first response; another body -> 422; still running -> 409.
 * The claim is one INSERT .. ON CONFLICT, so two racing requests cannot both run.
 *
 * A stored response can hold a secret shown once (a guest's manage token): the table keeps only
 * the key's SHA-256, and the response encrypted (AES-GCM) under a key derived from the
 * Idempotency-Key itself, so only whoever holds that key can read it back.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { now } from "./clock";
import { base64url, sha256Hex } from "./crypto";

const encoder = new TextEncoder();

async function bodyKey(idempotencyKey: string, scope: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", encoder.encode(`idempotency-response\n${scope}\n${idempotencyKey}`));
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function seal(text: string, key: CryptoKey): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(text)));
  return `v1.${base64url(iv)}.${base64url(sealed)}`;
}

function fromBase64url(value: string): Uint8Array<ArrayBuffer> {
  const s = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function unseal(stored: string, key: CryptoKey): Promise<string> {
  const [, iv, data] = stored.split(".");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64url(iv!) }, key, fromBase64url(data!));
  return new TextDecoder().decode(plain);
}

const TTL_MS = 24 * 60 * 60 * 1000;
// A claim still "running" after this long was cut off (isolate killed, deploy): let a retry take it.
const STALE_RUNNING_MS = 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

interface StoredKey {
  request_hash: string;
  state: "running" | "done";
  response_status: number | null;
  response_body: string | null;
  response_type: string | null;
  created_at: string;
}

export function idempotency(options: { scope: (c: Context<AppEnv>) => string }): MiddlewareHandler<AppEnv> {
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header("Idempotency-Key");
    if (key === undefined || c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") {
      return next();
    }
    if (!KEY_SHAPE.test(key)) {
      throw new ApiError("invalid_input_data", "Idempotency-Key must be 1 to 255 visible ASCII characters", {
        errors: [{ path: "Idempotency-Key", message: "invalid header" }],
      });
    }
    const scope = options.scope(c);
    const rawKey = key;
    const keyHash = await sha256Hex(`${scope}\n${rawKey}`);
    const body = await c.req.text();
    const url = new URL(c.req.url);
    const requestHash = await sha256Hex(`${c.req.method} ${url.pathname}${url.search}\n${c.req.header("Property") ?? ""}\n${body}`);
    const db = c.env.DB;
    const expiredBefore = new Date(now() - TTL_MS).toISOString();
    const staleBefore = new Date(now() - STALE_RUNNING_MS).toISOString();

    const claimed = await db
      .prepare(
        `INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at) VALUES (?1, ?2, ?3, 'running', ?6)
         ON CONFLICT (scope, key) DO UPDATE SET request_hash = ?3, state = 'running', response_status = NULL,
           response_body = NULL, response_type = NULL, created_at = ?6
         WHERE idempotency_keys.created_at < ?4 OR (idempotency_keys.state = 'running' AND idempotency_keys.created_at < ?5)
         RETURNING key`,
      )
      .bind(scope, keyHash, requestHash, expiredBefore, staleBefore, new Date(now()).toISOString())
      .first();

    if (!claimed) {
      const stored = await db
        .prepare("SELECT request_hash, state, response_status, response_body, response_type, created_at FROM idempotency_keys WHERE scope = ? AND key = ?")
        .bind(scope, keyHash)
        .first<StoredKey>();
      if (!stored) throw new ApiError("idempotency_key_in_use", "this Idempotency-Key is being processed; retry shortly");
      if (stored.request_hash !== requestHash) {
        throw new ApiError("idempotency_key_reused", "this Idempotency-Key was used with another request; use a new key");
      }
      if (stored.state === "running") {
        throw new ApiError("idempotency_key_in_use", "the first request with this Idempotency-Key is still running", {
          headers: { "Retry-After": "1" },
        });
      }
      // c.body keeps the headers of this request (X-Request-Id and the security headers).
      const replayed = stored.response_body ? await unseal(stored.response_body, await bodyKey(rawKey, scope)) : "";
      return c.body(replayed, (stored.response_status ?? 200) as ContentfulStatusCode, {
        "Content-Type": stored.response_type ?? "application/json",
        "Cache-Control": "no-store",
        "Idempotent-Replayed": "true",
      });
    }

    await next();

    const res = c.res;
    if (res.status >= 500) {
      // A failure on our side must not pin the key: the caller's retry runs again.
      await db.prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ?").bind(scope, keyHash).run();
      return;
    }
    const text = await res.clone().text();
    await db
      .prepare("UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ?, response_type = ? WHERE scope = ? AND key = ?")
      .bind(res.status, await seal(text, await bodyKey(rawKey, scope)), res.headers.get("Content-Type"), scope, keyHash)
      .run();
  };
}
