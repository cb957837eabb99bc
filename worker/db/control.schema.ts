/**
 * The control database (`DB`): what is global. API clients and their tokens, grants,
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
    /** as given, NFKC-normalised (worker/lib/username.ts) */
    username: text("username").notNull(),
    /** the username's comparison form: NFKC and lower case; null only for rows older than it */
    usernameKey: text("username_key"),
    passwordHash: text("password_hash").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    productionEnabled: integer("production_enabled", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    // token endpoint: authenticate by client_id
    uniqueIndex("api_clients_client_id_uq").on(t.clientId),
    // client creation: username taken -> 409, whatever its case or Unicode form
    uniqueIndex("api_clients_username_key_uq").on(t.usernameKey),
  ],
);

export const accessTokens = sqliteTable(
  "access_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    clientId: integer("client_id")
      .notNull()
      .references(() => apiClients.id),
    /** a token from a restaurant's approval reaches this property only; null: every granted one (client_credentials) */
    propertyId: integer("property_id").references(() => propertyDirectory.id),
    /** the refresh-token family it was issued with (worker/oauth): revoked with it */
    familyId: text("family_id"),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // every authenticated request: bearer token -> client
    uniqueIndex("access_tokens_hash_uq").on(t.tokenHash),
    // housekeeping: purge tokens expired for a day
    index("access_tokens_expires_idx").on(t.expiresAt),
    // a grant revoked: the client's tokens for that property
    index("access_tokens_client_property_idx").on(t.clientId, t.propertyId),
    // a refresh token reused or revoked: every token of its family
    index("access_tokens_family_idx").on(t.familyId),
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
    ownerClientId: integer("owner_client_id")
      .notNull()
      .references(() => apiClients.id),
    shard: integer("shard").notNull(),
    movingSince: text("moving_since"),
    /**
     * The restaurant's sign-in on the hosted pages, where one control read finds it: the username as
     * given (NFKC), its comparison form, and the password hash. The shard's row keeps a copy.
     */
    username: text("username"),
    usernameKey: text("username_key"),
    passwordHash: text("password_hash"),
    createdAt: createdAt(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // the public widget API and hosted pages: /p/<public_key> -> property and shard
    uniqueIndex("property_directory_public_key_uq").on(t.publicKey),
    // the hosted sign-in: username -> property; unique across every shard
    uniqueIndex("property_directory_username_key_uq").on(t.usernameKey),
    // placement (live properties per shard) and `ops shards`
    index("property_directory_shard_idx").on(t.shard, t.deletedAt),
    check("property_directory_shard_ck", sql`${t.shard} >= 0`),
  ],
);

/**
 * Id ranges handed out to shards after their first (shard k's first is k * 10^12): a shard that
 * takes in rows whose ids reach its own counters moves on to a range above every range handed
 * out, so no two shards ever hand out the same id (worker/shards/shards.ts).
 */
export const idRanges = sqliteTable(
  "id_ranges",
  {
    base: integer("base").primaryKey(),
    shard: integer("shard").notNull(),
    createdAt: createdAt(),
  },
  (t) => [check("id_ranges_shard_ck", sql`${t.shard} >= 0`)],
);

/** Which clients may act on which property: the creator, plus grants made by the operator or by the restaurant's approval. */
export const propertyGrants = sqliteTable(
  "property_grants",
  {
    clientId: integer("client_id")
      .notNull()
      .references(() => apiClients.id),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
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
    /** who the stored answer speaks of: " h1 h2 " hashes of its emails, phones and customer ids, so an erasure finds it */
    subjects: text("subjects"),
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

/**
 * Authorisation codes (RFC 6749 4.1, PKCE S256): single use, 60 s, bound to the client, the
 * redirect_uri and the challenge. `family_id`: the tokens issued for it, revoked if it comes back.
 */
export const oauthCodes = sqliteTable(
  "oauth_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    codeHash: text("code_hash").notNull(),
    clientId: integer("client_id")
      .notNull()
      .references(() => apiClients.id),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    familyId: text("family_id"),
    createdAt: createdAt(),
  },
  (t) => [
    // the token endpoint: code -> its row
    uniqueIndex("oauth_codes_hash_uq").on(t.codeHash),
    // housekeeping: purge old codes
    index("oauth_codes_expires_idx").on(t.expiresAt),
    // S256 of a verifier is 32 bytes: 43 base64url characters
    check("oauth_codes_challenge_ck", sql`length(${t.codeChallenge}) = 43`),
    check("oauth_codes_used_ck", sql`(${t.usedAt} IS NULL) = (${t.familyId} IS NULL)`),
  ],
);

/**
 * Refresh tokens, rotated on every use: each use marks the row used and issues the next one of
 * the same family; a used (or revoked) token presented again revokes the whole family.
 */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    familyId: text("family_id").notNull(),
    clientId: integer("client_id")
      .notNull()
      .references(() => apiClients.id),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    /** the hash of the token that replaced it: marks the rotation its successor's insert depends on */
    replacedBy: text("replaced_by"),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // the token endpoint: refresh token -> its row
    uniqueIndex("refresh_tokens_hash_uq").on(t.tokenHash),
    // reuse detected or revoked: the family
    index("refresh_tokens_family_idx").on(t.familyId),
    // a grant revoked: the client's families for that property
    index("refresh_tokens_client_property_idx").on(t.clientId, t.propertyId),
    // housekeeping
    index("refresh_tokens_expires_idx").on(t.expiresAt),
    check("refresh_tokens_used_ck", sql`(${t.usedAt} IS NULL) = (${t.replacedBy} IS NULL)`),
  ],
);

export const SIGN_IN_KINDS = ["authorize", "apps"] as const;

/**
 * A browser's sign-in on the hosted pages: an authorisation request on its way to consent
 * ("authorize"), or a restaurant on its connected-apps page ("apps"). The browser holds the
 * token in a short HttpOnly cookie; the forms hold a CSRF token derived from it (worker/oauth/
 * signin.ts). `property_id` once signed in.
 */
export const signInSessions = sqliteTable(
  "sign_in_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    kind: text("kind", { enum: SIGN_IN_KINDS }).notNull(),
    locale: text("locale").notNull(),
    clientId: integer("client_id").references(() => apiClients.id),
    redirectUri: text("redirect_uri"),
    state: text("state"),
    codeChallenge: text("code_challenge"),
    propertyId: integer("property_id").references(() => propertyDirectory.id),
    /** the salt of the password hash signed in with: a changed password ends the session */
    passwordStamp: text("password_stamp"),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // every page of the flow: cookie -> session
    uniqueIndex("sign_in_sessions_token_uq").on(t.tokenHash),
    // housekeeping
    index("sign_in_sessions_expires_idx").on(t.expiresAt),
    check("sign_in_sessions_kind_ck", sql`${t.kind} IN ('authorize', 'apps')`),
    check("sign_in_sessions_signed_in_ck", sql`(${t.propertyId} IS NULL) = (${t.passwordStamp} IS NULL)`),
    check(
      "sign_in_sessions_request_ck",
      sql`${t.kind} = 'apps' OR (${t.clientId} IS NOT NULL AND ${t.redirectUri} IS NOT NULL AND length(${t.codeChallenge}) = 43)`,
    ),
  ],
);

/**
 * The restaurant's console: a browser signed in as a property (worker/console/). The browser
 * holds the token in an HttpOnly, SameSite=Strict cookie; the row keeps its hash. The CSRF token
 * is derived from the token, so it is not stored. A session slides: each request moves
 * `expires_at` to 12 hours on, never past 7 days after `created_at`.
 */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
    /** the language the console speaks (en, it, fr, de, es) */
    locale: text("locale").notNull(),
    /** the salt of the password hash signed in with: a changed password ends the session */
    passwordStamp: text("password_stamp").notNull(),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // every console request: cookie -> session
    uniqueIndex("console_sessions_token_uq").on(t.tokenHash),
    // a password changed or reset: every session of the property
    index("console_sessions_property_idx").on(t.propertyId),
    // housekeeping
    index("console_sessions_expires_idx").on(t.expiresAt),
  ],
);

export const CONSOLE_LINK_KINDS = ["reset", "sign_in"] as const;

/**
 * Single-use links into the console: a forgotten password's reset link (30 minutes, emailed to
 * the restaurant) and a platform's sign-in link (60 seconds, POST /console/links). Only the
 * token's hash is kept; `used_at` spends it.
 */
export const consoleLinks = sqliteTable(
  "console_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    kind: text("kind", { enum: CONSOLE_LINK_KINDS }).notNull(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
    /** sign_in: the API client that asked for the link */
    clientId: integer("client_id").references(() => apiClients.id),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // following a link: token -> its row
    uniqueIndex("console_links_token_uq").on(t.tokenHash),
    // housekeeping
    index("console_links_expires_idx").on(t.expiresAt),
    check("console_links_kind_ck", sql`${t.kind} IN ('reset', 'sign_in')`),
  ],
);
