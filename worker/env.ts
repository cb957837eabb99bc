import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "./db/schema";
import type { DeliveryMessage } from "./webhooks/delivery";

export type Db = DrizzleD1Database<typeof schema>;

export interface Bindings {
  DB: D1Database;
  ASSETS: Fetcher;
  API_RATE_LIMITER: RateLimit;
  PUBLIC_RATE_LIMITER: RateLimit;
  /** per caller, on the public widget API's bookings and cancellations only */
  PUBLIC_WRITE_RATE_LIMITER: RateLimit;
  /** carries "attempt webhook delivery N" messages (worker/webhooks/delivery.ts) */
  WEBHOOK_QUEUE: Queue<DeliveryMessage>;
  /** multiplies CONTRACT 9's retry delays (default 1; tests use a small fraction) */
  WEBHOOK_RETRY_SCALE?: string;
  /** per delivery attempt (default 10000, at most 30000) */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Lifetime of an access token in seconds (default 3600). */
  TOKEN_TTL_SECONDS?: string;
  /** Days a sandbox property stays usable (default 90). */
  SANDBOX_DAYS?: string;
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
}

/** The property named by the Property header (or path), already authorised. */
export type PropertyRow = typeof schema.properties.$inferSelect;

export interface Variables {
  requestId: string;
  db: Db;
  client: AuthClient;
  property: PropertyRow;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
