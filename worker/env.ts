/** The one AppEnv: the Worker's bindings and the request's variables. Imports no feature module. */
import type { propertyDirectory } from "./db/control.schema";
import type { ControlDb, Db } from "./db/handles";
import type * as shard from "./db/shard.schema";

export type { ControlDb, Db };

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

/**
 * The Worker's bindings: those of wrangler.toml as `wrangler types` writes them
 * (worker-configuration.d.ts, by `npm run types`; `npm test` fails when it is stale), and those
 * wrangler.toml does not list.
 */
export interface Bindings extends Cloudflare.Env, Unlisted {
  /** carries "attempt outbox row N" messages: webhook deliveries and emails (worker/outbox/dispatch.ts) */
  WEBHOOK_QUEUE: Queue<DeliveryMessage>;
}

/** The bindings wrangler.toml does not list: secrets, the scripts' dev-only vars, shards a deploy adds. */
export interface Unlisted {
  /** the shards, SHARD_0 .. SHARD_<n-1> (worker/shards/shards.ts) */
  [shard: `SHARD_${number}`]: D1Database;
  // Secrets (`wrangler secret put`; locally .dev.vars):
  /** keys the manage and offer links in emails (HMAC) */
  LINK_SECRET?: string;
  /** the operator's bearer token for /__ops (worker/ops); without it those routes do not exist */
  OPS_TOKEN?: string;
  /** the search engine's partner credentials (HTTP Basic) for its booking server and feeds (worker/searchengine) */
  SEARCHENGINE_USER?: string;
  SEARCHENGINE_PASSWORD?: string;
  /** a service-account key as JSON (client_email, private_key, token_uri) for the booking-notification API */
  SEARCHENGINE_SERVICE_ACCOUNT?: string;
  /** Stripe (worker/payments): the platform's secret key, its publishable key and the events endpoint's signing secret */
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** the platform's fee on each payment, in basis points of it (default 0: none) */
  STRIPE_PLATFORM_FEE_BPS?: string;
  // Set by the scripts for `wrangler dev` and by the tests, never by wrangler.toml:
  /** the Stripe stand-in's address in place of https://api.stripe.com */
  STRIPE_API_BASE?: string;
  /** where guests' browsers load Stripe.js (default https://js.stripe.com/v3/; the stand-in's locally) */
  STRIPE_JS_URL?: string;
  /** "development" only in `wrangler dev` and tests */
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
  /** the same shard as raw D1 (the request's session on it), for the few statements drizzle does not write */
  d1: D1DatabaseSession;
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
