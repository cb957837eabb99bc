/** The one AppEnv: the Worker's bindings and the request's variables. Imports no feature module. */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { propertyDirectory } from "./db/control.schema";
import type * as shard from "./db/shard.schema";

/** A property's shard, through drizzle (the request's D1 session); its query builder only (worker/db/handles.ts). */
export type Db = DrizzleD1Database;
/** The control database: clients, tokens, grants, the property directory, idempotency keys (`$client`: the raw D1 binding). */
export type ControlDb = DrizzleD1Database & { $client: D1Database };

/** The kinds of outbox row the queue carries (worker/outbox/): each has its own table and sender. */
export type OutboxKind = "webhook" | "message";

/**
 * "Attempt outbox row N of property P now": the queue's message (worker/outbox/dispatch.ts).
 * `kind` absent means a webhook delivery, the only kind before messages existed, so messages
 * already queued keep their meaning.
 */
export interface DeliveryMessage {
  property_id: number;
  delivery_id: number;
  kind?: OutboxKind;
}

export interface Bindings {
  /** the control database */
  DB: D1Database;
  /** the shards, SHARD_0 .. SHARD_<n-1> (worker/shards/shards.ts) */
  [shard: `SHARD_${number}`]: D1Database;
  ASSETS: Fetcher;
  /** the restaurant's own Durable Object, one per property (worker/restaurant/restaurant.ts) */
  RESTAURANT: DurableObjectNamespace;
  API_RATE_LIMITER: RateLimit;
  PUBLIC_RATE_LIMITER: RateLimit;
  /** per caller, on the public widget API's bookings and cancellations only */
  PUBLIC_WRITE_RATE_LIMITER: RateLimit;
  /** a restaurant's sign-in (worker/properties/signin-limits.ts): per caller address, per known device */
  SIGNIN_RATE_LIMITER: RateLimit;
  /** a restaurant's sign-in: per account, shared by every device that never signed in to it */
  SIGNIN_ACCOUNT_RATE_LIMITER: RateLimit;
  /** carries "attempt outbox row N" messages: webhook deliveries and emails (worker/outbox/dispatch.ts) */
  WEBHOOK_QUEUE: Queue<DeliveryMessage>;
  /** Cloudflare's send_email binding: guest and restaurant emails (worker/messages/transport.ts) */
  EMAIL: SendEmail;
  /** where guests and integrators reach the Worker; every absolute link is built on it (worker/config.ts) */
  PUBLIC_ORIGIN?: string;
  /** the sender address of every email */
  EMAIL_FROM?: string;
  /** secret: keys the manage and offer links in emails (HMAC) */
  LINK_SECRET?: string;
  /** days sent and failed messages are kept (default 90) */
  MESSAGE_RETENTION_DAYS?: string;
  /** multiplies the outbox's retry delays (default 1; tests use a small fraction) */
  WEBHOOK_RETRY_SCALE?: string;
  /** per delivery attempt (default 10000, at most 30000) */
  WEBHOOK_TIMEOUT_MS?: string;
  /** days delivered (and failed) webhook deliveries, their attempts and events are kept (default 30) */
  WEBHOOK_RETENTION_DAYS?: string;
  /** Lifetime of an access token in seconds (default 3600). */
  TOKEN_TTL_SECONDS?: string;
  /** Days a sandbox property stays usable (default 90). */
  SANDBOX_DAYS?: string;
  /** the operator's bearer token for /__ops (worker/ops); without it those routes do not exist */
  OPS_TOKEN?: string;
  /** the search engine's partner credentials (HTTP Basic) for its booking server and feeds (worker/searchengine); secrets */
  SEARCHENGINE_USER?: string;
  SEARCHENGINE_PASSWORD?: string;
  /** the partner id in the booking-notification API's paths */
  SEARCHENGINE_PARTNER_ID?: string;
  /** the booking-notification API's origin (default https://mapsbooking.googleapis.com) */
  SEARCHENGINE_NOTIFICATION_URL?: string;
  /** a service-account key as JSON (client_email, private_key, token_uri) for the notification API; a secret */
  SEARCHENGINE_SERVICE_ACCOUNT?: string;
  /** Stripe (worker/payments): the platform's secret key, its publishable key and the events endpoint's signing secret; secrets */
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** local development and tests only: the Stripe stand-in's address in place of https://api.stripe.com */
  STRIPE_API_BASE?: string;
  /** where guests' browsers load Stripe.js (default https://js.stripe.com/v3/; the stand-in's locally) */
  STRIPE_JS_URL?: string;
  /** the platform's fee on each payment, in basis points of it (default 0: none) */
  STRIPE_PLATFORM_FEE_BPS?: string;
  /** "development" only in `wrangler dev` and tests (set by the scripts, never by wrangler.toml) */
  ENVIRONMENT?: string;
  /** local dev and tests only: the Worker's clock at a fixed instant or shifted (worker/lib/clock.ts) */
  DEV_CLOCK?: string;
}

/** The authenticated API client of the request. */
export interface AuthClient {
  id: number;
  clientId: string;
  productionEnabled: boolean;
  /** the one property the token reaches (a token from a restaurant's approval); null: every property granted to the client */
  propertyId: number | null;
  /** who acts, for a reservation's history: "client:<id>", or "console:<property_id>" for the restaurant's own console */
  actor: string;
  /** the restaurant's own console (worker/console): it reaches its property only, and owns no webhooks */
  console: boolean;
}

/** The property named by the Property header (or path), already authorised, as its shard holds it. */
export type PropertyRow = typeof shard.properties.$inferSelect;

export interface Variables {
  requestId: string;
  control: ControlDb;
  /** the property's shard (set once the property is resolved) */
  db: Db;
  /** the same shard as raw D1, for the few statements drizzle does not write */
  d1: D1Database;
  shard: number;
  client: AuthClient;
  /** the Property header's directory entry, read with the bearer token (auth/middleware.ts) */
  entryAhead: {
    id: number;
    found: { entry: typeof propertyDirectory.$inferSelect; granted: boolean } | undefined;
  };
  property: PropertyRow;
  /** a property authorised from its directory entry whose row this request has not read yet (authorisePropertyLater) */
  pendingProperty: number;
  /** the due outbox rows the request's writes took in their own batches, for its dispatch to attempt (outbox/dispatch.ts) */
  outboxTaken: (readonly unknown[])[];
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
