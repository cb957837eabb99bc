/**
 * Idempotency-Key on writes, with Stripe's semantics: scoped to the caller, kept 24 h.
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
import { claimKey, completeKey, findKey, forgetSubjects, releaseKey } from "./idempotency.repo";

const encoder = new TextEncoder();

async function bodyKey(idempotencyKey: string, scope: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest(
    "SHA-256",
    encoder.encode(`idempotency-response\n${scope}\n${idempotencyKey}`),
  );
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function seal(text: string, key: CryptoKey): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(text)),
  );
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
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64url(iv!) },
    key,
    fromBase64url(data!),
  );
  return new TextDecoder().decode(plain);
}

const TTL_MS = 24 * 60 * 60 * 1000;
// A claim still "running" after this long was cut off (isolate killed, deploy): let a retry take it.
const STALE_RUNNING_MS = 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  scope: (c: Context<AppEnv>) => string;
  /** throws when the caller may no longer act as it did: a stored answer is never replayed past its grant */
  beforeReplay?: (c: Context<AppEnv>) => Promise<void>;
}

export function idempotency(options: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  return async function idempotencyMiddleware(c, next) {
    const key = idempotencyKeyOf(c);
    if (key === undefined) return next();
    const claim = await fingerprint(c, options.scope(c), key);
    if (!(await claimed(claim))) {
      await options.beforeReplay?.(c);
      return replay(c, claim);
    }
    await next();
    await settle(c, claim);
  };
}

/** A write's key and the fingerprints it is stored under. */
interface Claim {
  db: D1Database;
  scope: string;
  /** the Idempotency-Key as sent: only its hash is stored, and it keys the stored answer's encryption */
  key: string;
  keyHash: string;
  requestHash: string;
}

/** The Idempotency-Key of a write; undefined when there is none to honour. */
function idempotencyKeyOf(c: Context<AppEnv>): string | undefined {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined || c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS")
    return undefined;
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError("invalid_input_data", "Idempotency-Key must be 1 to 255 visible ASCII characters", {
      errors: [{ path: "Idempotency-Key", message: "invalid header" }],
    });
  }
  return key;
}

/** The key's hash in its scope, and the request's: method, path and query, Property header and body. */
async function fingerprint(c: Context<AppEnv>, scope: string, key: string): Promise<Claim> {
  const keyHash = await sha256Hex(`${scope}\n${key}`);
  const body = await c.req.text();
  const url = new URL(c.req.url);
  const requestHash = await sha256Hex(
    `${c.req.method} ${url.pathname}${url.search}\n${c.req.header("Property") ?? ""}\n${body}`,
  );
  return { db: c.env.DB, scope, key, keyHash, requestHash };
}

/** Whether this request claimed the key: a new one, expired, or left running by a request cut off. */
function claimed(k: Claim): Promise<boolean> {
  const at = now();
  return claimKey(k.db, {
    scope: k.scope,
    key: k.keyHash,
    requestHash: k.requestHash,
    at: new Date(at).toISOString(),
    expiredBefore: new Date(at - TTL_MS).toISOString(),
    staleBefore: new Date(at - STALE_RUNNING_MS).toISOString(),
  });
}

/** A key claimed before: the first request's answer again, or why it cannot be given. */
async function replay(c: Context<AppEnv>, k: Claim): Promise<Response> {
  const stored = await findKey(k.db, k.scope, k.keyHash);
  if (!stored)
    throw new ApiError("idempotency_key_in_use", "this Idempotency-Key is being processed; retry shortly");
  if (stored.request_hash !== k.requestHash) {
    throw new ApiError(
      "idempotency_key_reused",
      "this Idempotency-Key was used with another request; use a new key",
    );
  }
  if (stored.state === "running") {
    throw new ApiError(
      "idempotency_key_in_use",
      "the first request with this Idempotency-Key is still running",
      {
        headers: { "Retry-After": "1" },
      },
    );
  }
  // c.body keeps the headers of this request (X-Request-Id and the security headers).
  const replayed = stored.response_body
    ? await unseal(stored.response_body, await bodyKey(k.key, k.scope))
    : "";
  return c.body(replayed, (stored.response_status ?? 200) as ContentfulStatusCode, {
    "Content-Type": stored.response_type ?? "application/json",
    "Cache-Control": "no-store",
    "Idempotent-Replayed": "true",
  });
}

/** The handler's answer kept for replays; a failure of ours (5xx) frees the key for a retry instead. */
async function settle(c: Context<AppEnv>, k: Claim): Promise<void> {
  const res = c.res;
  if (res.status >= 500) {
    await releaseKey(k.db, k.scope, k.keyHash);
    return;
  }
  const text = await res.clone().text();
  const subjects = await subjectHashes(subjectsOf(text, c.req.path));
  await completeKey(k.db, k.scope, k.keyHash, {
    status: res.status,
    body: await seal(text, await bodyKey(k.key, k.scope)),
    type: res.headers.get("Content-Type"),
    subjects: subjects.length ? ` ${subjects.join(" ")} ` : null,
  });
}

/** A person a stored answer may speak of: a customer, by id, email and phone. */
export interface Subject {
  customerId?: number | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
}

const subjectTag = {
  customer: (id: number) => `customer:${id}`,
  email: (v: string) => `email:${v.trim().toLowerCase()}`,
  phone: (v: string) => `phone:${v.replace(/[^\d+]/g, "")}`,
};

/**
 * Who an answer speaks of, read from its JSON: every `email`, `phone` and `telephone`, the id of
 * every `customer`, and the customers of a /customers answer. Not JSON: no one.
 */
export function subjectsOf(text: string, path: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const out = new Set<string>();
  const walk = (value: unknown, key: string, customers: boolean): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v, key, customers);
      return;
    }
    if (typeof value === "string" && value && key === "email") out.add(subjectTag.email(value));
    if (typeof value === "string" && value && (key === "phone" || key === "telephone"))
      out.add(subjectTag.phone(value));
    if (!value || typeof value !== "object") return;
    const id = (value as { id?: unknown }).id;
    if ((key === "customer" || customers) && typeof id === "number") out.add(subjectTag.customer(id));
    for (const [k, v] of Object.entries(value)) walk(v, k, customers && k === "data");
  };
  walk(body, "", /\/customers(\/|$)/.test(path));
  return [...out];
}

const subjectHashes = (tags: string[]) =>
  Promise.all(tags.map(async (t) => (await sha256Hex(`idempotency-subject\n${t}`)).slice(0, 32)));

/** Forgets the stored answers that speak of this person (an erasure): a replay of one runs the request again. */
export async function forgetAnswersAbout(db: D1Database, who: Subject): Promise<void> {
  const tags = [
    who.customerId ? subjectTag.customer(who.customerId) : "",
    who.email ? subjectTag.email(who.email) : "",
    who.phone ? subjectTag.phone(who.phone) : "",
  ].filter(Boolean);
  if (tags.length) await forgetSubjects(db, await subjectHashes(tags));
}
