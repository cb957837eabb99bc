/**
 * One typed config, parsed once per set of bindings with zod: the vars of wrangler.toml (and
 * secrets) become numbers, URLs and addresses here, each with its default. A value that does not
 * parse falls back to its default (a typo never disables a limit) and says so once in the log.
 * Imports no feature module.
 */
import { z } from "zod";
import type { Bindings } from "./env";

/** An integer var at least `min`, else `fallback`. */
const int = (fallback: number, min: number) =>
  z.coerce.number().int().min(min).catch(fallback).default(fallback);
const num = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().min(min).max(max).catch(fallback).default(fallback);

/** The development origin: what `npm start` serves unless PORT says otherwise. */
export const DEV_ORIGIN = "http://127.0.0.1:8787";
/** Only for local development and tests (ENVIRONMENT=development): deployed Workers need the LINK_SECRET secret. */
const DEV_LINK_SECRET = "development-only-link-secret";

/** Stripe's own Stripe.js; local runs load the stand-in's (STRIPE_JS_URL). */
export const STRIPE_JS = "https://js.stripe.com/v3/";

const schema = z.object({
  /** where guests and integrators reach this Worker: every absolute link is built on it, never on the request's Host */
  PUBLIC_ORIGIN: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v))
    .transform((v) => new URL(v).origin)
    .catch(DEV_ORIGIN)
    .default(DEV_ORIGIN),
  /** the envelope sender of every email (an address the send_email binding may send from) */
  EMAIL_FROM: z
    .string()
    .trim()
    .email()
    .catch("bookings@booking-engine.example")
    .default("bookings@booking-engine.example"),
  /** keys the manage and offer links that emails carry (HMAC); without it, emails carry none */
  LINK_SECRET: z.string().min(16).optional().catch(undefined),
  TOKEN_TTL_SECONDS: int(3600, 1),
  SANDBOX_DAYS: int(90, 1),
  /** multiplies the outbox's retry delays (webhooks and messages, outbox/retry.ts) */
  WEBHOOK_RETRY_SCALE: num(1, 0),
  WEBHOOK_TIMEOUT_MS: num(10_000, 100, 30_000),
  WEBHOOK_RETENTION_DAYS: int(30, 1),
  /** sent (and failed) messages are kept this long, for GET /reservations/{id}/messages */
  MESSAGE_RETENTION_DAYS: int(90, 1),
  STRIPE_SECRET_KEY: z.string().min(1).optional().catch(undefined),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional().catch(undefined),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional().catch(undefined),
  STRIPE_API_BASE: z.string().url().optional().catch(undefined),
  STRIPE_JS_URL: z.string().url().catch(STRIPE_JS).default(STRIPE_JS),
  STRIPE_PLATFORM_FEE_BPS: int(0, 0),
  ENVIRONMENT: z.string().optional(),
});

export interface Config {
  publicOrigin: string;
  emailFrom: string;
  linkSecret: string | undefined;
  tokenTtlSeconds: number;
  sandboxDays: number;
  retryScale: number;
  webhookTimeoutMs: number;
  webhookRetentionDays: number;
  messageRetentionDays: number;
  /**
   * Webhooks may go to a loopback receiver (http://localhost, 127.0.0.1, [::1]) of any property:
   * only in local development (ENVIRONMENT=development) on a loopback PUBLIC_ORIGIN, i.e. `npm
   * start`, where the receiver and the Worker share the machine. A deploy refuses both.
   */
  loopbackWebhooks: boolean;
  /** Stripe (worker/payments); undefined keys: the property's payments answer 503 */
  stripe: {
    secretKey: string | undefined;
    publishableKey: string | undefined;
    webhookSecret: string | undefined;
    /** the API's origin: Stripe's own unless the stand-in's (only honoured in development) */
    apiBase: string | undefined;
    jsUrl: string;
    platformFeeBps: number;
  };
}

const parsed = new WeakMap<object, Config>();

/** The Worker's config for these bindings (parsed on first use, then kept). */
export function config(env: Bindings): Config {
  let c = parsed.get(env);
  if (!c) {
    const v = schema.parse(env);
    const development = v.ENVIRONMENT === "development";
    c = {
      publicOrigin: v.PUBLIC_ORIGIN,
      emailFrom: v.EMAIL_FROM,
      linkSecret: v.LINK_SECRET ?? (development ? DEV_LINK_SECRET : undefined),
      tokenTtlSeconds: v.TOKEN_TTL_SECONDS,
      sandboxDays: v.SANDBOX_DAYS,
      retryScale: v.WEBHOOK_RETRY_SCALE,
      webhookTimeoutMs: v.WEBHOOK_TIMEOUT_MS,
      webhookRetentionDays: v.WEBHOOK_RETENTION_DAYS,
      messageRetentionDays: v.MESSAGE_RETENTION_DAYS,
      loopbackWebhooks: development && loopbackOrigin(v.PUBLIC_ORIGIN),
      stripe: {
        secretKey: v.STRIPE_SECRET_KEY,
        publishableKey: v.STRIPE_PUBLISHABLE_KEY,
        webhookSecret: v.STRIPE_WEBHOOK_SECRET,
        apiBase: development ? v.STRIPE_API_BASE : undefined,
        jsUrl: development ? v.STRIPE_JS_URL : STRIPE_JS,
        platformFeeBps: Math.min(v.STRIPE_PLATFORM_FEE_BPS, 10_000),
      },
    };
    warnOnce(env, c);
    parsed.set(env, c);
  }
  return c;
}

function warnOnce(env: Bindings, c: Config) {
  if (env.PUBLIC_ORIGIN !== undefined && new URL(c.publicOrigin).origin !== safeOrigin(env.PUBLIC_ORIGIN)) {
    console.error(
      JSON.stringify({
        level: "error",
        where: "config",
        message: `PUBLIC_ORIGIN "${env.PUBLIC_ORIGIN}" is not an http(s) URL; using ${c.publicOrigin}`,
      }),
    );
  }
  if (!c.linkSecret)
    console.error(
      JSON.stringify({
        level: "error",
        where: "config",
        message:
          "LINK_SECRET is not set: emails go out without manage links and no waiting-list offers are made",
      }),
    );
}

/** Whether the origin is this machine's own (localhost, 127.x.x.x, [::1]). */
function loopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname;
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

function safeOrigin(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
