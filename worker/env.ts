import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "./db/schema";

export type Db = DrizzleD1Database<typeof schema>;

export interface Bindings {
  DB: D1Database;
  ASSETS: Fetcher;
  API_RATE_LIMITER: RateLimit;
  PUBLIC_RATE_LIMITER: RateLimit;
  /** Lifetime of an access token in seconds (default 3600). */
  TOKEN_TTL_SECONDS?: string;
  /** Days a sandbox property stays usable (default 90). */
  SANDBOX_DAYS?: string;
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
