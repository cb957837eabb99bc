/**
 * The control database (`DB`, CONTRACT 10): what is global. API clients and their tokens, grants,
 * the property directory (which shard holds each property) and idempotency keys. Everything a
 * property owns lives in its shard (shard.schema.ts). Times are ISO strings in UTC.
 * Each index carries a one-line reason: the lookup it serves.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const createdAt = () => text("created_at").notNull().default(now);

export const apiClients = sqliteTable(
  "api_clients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    clientId: text("client_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    productionEnabled: integer("production_enabled", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    // token endpoint: authenticate by client_id
    uniqueIndex("api_clients_client_id_uq").on(t.clientId),
    // client creation: username taken -> 409
    uniqueIndex("api_clients_username_uq").on(t.username),
  ],
);

export const accessTokens = sqliteTable(
  "access_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    clientId: integer("client_id").notNull().references(() => apiClients.id),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // every authenticated request: bearer token -> client
    uniqueIndex("access_tokens_hash_uq").on(t.tokenHash),
    // housekeeping: purge tokens expired for a day
    index("access_tokens_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Where each property lives. The id is every property's id (shards take it as theirs); a new
 * property is placed on the shard with the fewest live properties. `moving_since`: a move to
 * another shard is under way (writes answer 503, reads go on at the old shard).
 */
export const propertyDirectory = sqliteTable(
  "property_directory",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    publicKey: text("public_key").notNull(),
    ownerClientId: integer("owner_client_id").notNull().references(() => apiClients.id),
    shard: integer("shard").notNull(),
    movingSince: text("moving_since"),
    createdAt: createdAt(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // the public widget API and hosted pages: /p/<public_key> -> property and shard
    uniqueIndex("property_directory_public_key_uq").on(t.publicKey),
    // placement (live properties per shard) and `ops shards`
    index("property_directory_shard_idx").on(t.shard, t.deletedAt),
    check("property_directory_shard_ck", sql`${t.shard} >= 0`),
  ],
);

/** Which clients may act on which property: the creator, plus grants made by the operator. */
export const propertyGrants = sqliteTable(
  "property_grants",
  {
    clientId: integer("client_id").notNull().references(() => apiClients.id),
    propertyId: integer("property_id").notNull().references(() => propertyDirectory.id),
    createdAt: createdAt(),
  },
  (t) => [
    // Property-header check and GET /properties: (client, property) -> allowed
    primaryKey({ columns: [t.clientId, t.propertyId] }),
    // operator: who can see this property
    index("property_grants_property_idx").on(t.propertyId),
  ],
);

/** Stripe-style idempotency: one row per (caller, key), holding the first response. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["running", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseType: text("response_type"),
    createdAt: createdAt(),
  },
  (t) => [
    // replay lookup
    primaryKey({ columns: [t.scope, t.key] }),
    // purge of keys older than 24 h
    index("idempotency_keys_created_idx").on(t.createdAt),
    check("idempotency_keys_state_ck", sql`${t.state} IN ('running', 'done')`),
  ],
);
