import type { Context, MiddlewareHandler } from "hono";
import { controlDb } from "../db/handles";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";

export const MAX_BODY_BYTES = 64 * 1024;

/** One drizzle handle per request on the control database; a property's shard is bound later (properties/binding.ts). */
export function database(): MiddlewareHandler<AppEnv> {
  return async function databaseMiddleware(c, next) {
    c.set("control", controlDb(c.env.DB));
    await next();
  };
}

/** How far an over-long chunked body is read and dropped before the connection's read side is given up. */
const DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * The body's first `max` bytes, or undefined when it is longer. A longer body is read on and
 * dropped (up to DRAIN_BYTES) rather than left half-read: a request answered while its body is
 * still streaming in made `wrangler dev` answer 503 "worker restarted mid-request" instead.
 */
async function readAtMost(
  body: ReadableStream<Uint8Array>,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > DRAIN_BYTES) break;
      if (size <= max) chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (size > max) return undefined;
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Bodies over 64 KiB are refused with 413 before anything parses them: by Content-Length when
 * the caller sent one, else (chunked) by reading at most that much; a body within the limit is
 * then handed on from memory. `refuse` answers the 413 where the one problem shape does not
 * apply (the OAuth endpoints' RFC 6749 errors).
 */
export function limitBody(
  maxSize = MAX_BODY_BYTES,
  refuse?: (c: Context<AppEnv>, detail: string) => Response,
): MiddlewareHandler<AppEnv> {
  const detail = `request bodies are limited to ${maxSize / 1024} KiB`;
  const tooLarge = (c: Context<AppEnv>) => {
    if (refuse) return refuse(c, detail);
    throw new ApiError("payload_too_large", detail);
  };
  return async function limitBodyMiddleware(c, next) {
    const body = c.req.raw.body;
    if (!body) return next();
    const length = c.req.header("Content-Length");
    if (length !== undefined) return Number(length) > maxSize ? tooLarge(c) : next();
    const bytes = await readAtMost(body, maxSize);
    if (!bytes) return tooLarge(c);
    c.req.raw = new Request(c.req.raw, { body: bytes.byteLength ? bytes : null });
    await next();
  };
}

/**
 * Answers of the integrator API name guests, restaurants' contacts and webhook secrets: no
 * browser, proxy or CDN keeps them (RFC 9111 no-store), unless a route already said otherwise.
 */
export function noStore(): MiddlewareHandler<AppEnv> {
  return async function noStoreMiddleware(c, next) {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  };
}

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** A write carrying a body must say it is JSON (415 otherwise); an empty body passes to validation. */
export function jsonBodyOnly(): MiddlewareHandler<AppEnv> {
  return async function jsonBodyOnlyMiddleware(c, next) {
    const method = c.req.method;
    if (method === "POST" || method === "PUT" || method === "PATCH") {
      const length = c.req.header("Content-Length");
      const hasBody = length !== undefined ? Number(length) > 0 : c.req.raw.body !== null;
      const type = c.req.header("Content-Type");
      if (hasBody && !(type && JSON_TYPE.test(type))) {
        throw new ApiError("unsupported_media_type", "send the body as Content-Type: application/json");
      }
    }
    await next();
  };
}

type LimiterName = "API_RATE_LIMITER" | "PUBLIC_RATE_LIMITER" | "PUBLIC_WRITE_RATE_LIMITER";

/**
 * The Workers Rate Limiting binding, keyed per caller; 429 with Retry-After when spent.
 * `methods`: only requests with these methods count (default: all).
 */
export function rateLimit(options: {
  binding: LimiterName;
  key: (c: Context<AppEnv>) => string;
  periodSeconds?: number;
  methods?: string[];
}): MiddlewareHandler<AppEnv> {
  const retryAfter = String(options.periodSeconds ?? 60);
  return async function rateLimitMiddleware(c, next) {
    if (options.methods && !options.methods.includes(c.req.method)) return next();
    const limiter = c.env[options.binding];
    const { success } = await limiter.limit({ key: options.key(c) });
    if (!success) {
      throw new ApiError("too_many_requests", `rate limit reached; retry after ${retryAfter} seconds`, {
        headers: { "Retry-After": retryAfter },
      });
    }
    await next();
  };
}

/** The caller's address as Cloudflare reports it (a constant in local dev and tests). */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header("CF-Connecting-IP") ?? "local";
}

/**
 * The caller as a rate limit sees it: an IPv4 address, or the /64 network of an IPv6 one (one
 * subscriber holds a whole /64, so counting single v6 addresses would give it 2^64 budgets).
 */
export function callerKey(c: Context<AppEnv>): string {
  const ip = clientIp(c);
  if (!ip.includes(":")) return ip;
  // An IPv4 caller written as IPv6 (::ffff:192.0.2.1) is that IPv4 caller, not one big /64.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t]
    : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
