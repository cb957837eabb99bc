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

/** A member of staff's role, from the most to the least trusted (worker/staff/roles.ts). */
export const STAFF_ROLES = ["owner", "manager", "host"] as const;

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

/**
 * A connected Stripe account's property (worker/payments): Stripe's account events name the account
 * only, and this finds the property, hence its shard. The account's state lives on the property's row.
 */
export const paymentAccounts = sqliteTable(
  "payment_accounts",
  {
    accountId: text("account_id").primaryKey(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
    createdAt: createdAt(),
  },
  // POST .../payments/account: the property's account, made once
  (t) => [uniqueIndex("payment_accounts_property_uq").on(t.propertyId)],
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
    /** who is at the console now: the member who signed in, or whose PIN switched to them */
    staffId: integer("staff_id").references(() => staffMembers.id),
    /** the member whose password or passkey opened the session (their password stamp is the session's) */
    signerId: integer("signer_id").references(() => staffMembers.id),
    /** a platform's sign-in link: the platform (API client) acting, and the role it asked for */
    clientId: integer("client_id").references(() => apiClients.id),
    role: text("role", { enum: STAFF_ROLES }),
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
    // a member deactivated, their role or password changed: their sessions
    index("console_sessions_staff_idx").on(t.staffId),
    index("console_sessions_signer_idx").on(t.signerId),
    check(
      "console_sessions_who_ck",
      sql`(${t.staffId} IS NOT NULL AND ${t.clientId} IS NULL) OR (${t.staffId} IS NULL AND ${t.clientId} IS NOT NULL AND ${t.role} IN ('manager', 'host'))`,
    ),
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
    /** sign_in: the role the platform's session acts with (manager unless it asked for host) */
    role: text("role", { enum: ["manager", "host"] }),
    /** reset: the member of staff whose own password it sets (null: the property's own, its first owner's) */
    staffId: integer("staff_id").references(() => staffMembers.id),
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

/**
 * A restaurant's staff: each person's own sign-in to the console, with a role (worker/staff/roles.ts).
 * The property's own username and password are its first owner (`account`: that row has no email
 * nor password of its own, the directory's are its; a trigger of the directory makes it). An
 * invitee's row waits with only the invitation's hash (`invite_hash`, single use, 7 days) until
 * they choose a name and password. A PIN switches the person at a shared tablet: 5 wrong tries
 * lock it for 15 minutes. Rows are never deleted: a deactivated member keeps their name in the
 * history and the audit.
 */
export const staffMembers = sqliteTable(
  "staff_members",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => propertyDirectory.id),
    /** null until an invitee whose inviter gave no name chooses one */
    name: text("name"),
    /** as given; null for the account member */
    email: text("email"),
    /** the email's comparison form: NFKC, lower case */
    emailKey: text("email_key"),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    /** the property's own username and password (the directory's), its first owner */
    account: integer("account", { mode: "boolean" }).notNull().default(false),
    /** an invitee's own password, once they accepted (the account member's is the directory's) */
    passwordHash: text("password_hash"),
    pinHash: text("pin_hash"),
    pinFailures: integer("pin_failures").notNull().default(0),
    pinLockedUntil: text("pin_locked_until"),
    /** SHA-256 of the pending invitation's token; null once used */
    inviteHash: text("invite_hash"),
    inviteExpiresAt: text("invite_expires_at"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    lastSignInAt: text("last_sign_in_at"),
  },
  (t) => [
    // the staff list and the invitation of an email already there
    uniqueIndex("staff_members_property_email_uq").on(t.propertyId, t.emailKey),
    // sign-in by email, whichever restaurant it is at
    index("staff_members_email_idx").on(t.emailKey),
    // following an invitation: token -> its member
    uniqueIndex("staff_members_invite_uq").on(t.inviteHash),
    // one account member a property
    uniqueIndex("staff_members_account_uq").on(t.propertyId).where(sql`${t.account} = 1`),
    check("staff_members_role_ck", sql`${t.role} IN ('owner', 'manager', 'host')`),
    check(
      "staff_members_account_ck",
      sql`${t.account} = 0 OR (${t.email} IS NULL AND ${t.passwordHash} IS NULL)`,
    ),
    check("staff_members_email_ck", sql`${t.account} = 1 OR ${t.emailKey} IS NOT NULL`),
    check("staff_members_pin_failures_ck", sql`${t.pinFailures} BETWEEN 0 AND 5`),
  ],
);

/** A member's passkeys (WebAuthn credentials, @simplewebauthn/server): the public key and its counter only. */
export const staffPasskeys = sqliteTable(
  "staff_passkeys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    staffId: integer("staff_id")
      .notNull()
      .references(() => staffMembers.id),
    /** the credential's id, base64url */
    credentialId: text("credential_id").notNull(),
    /** its COSE public key, base64url */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    /** JSON: the authenticator's transports, handed back to the browser */
    transports: text("transports", { mode: "json" }).$type<string[]>(),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [
    // a passkey sign-in: credential -> its member
    uniqueIndex("staff_passkeys_credential_uq").on(t.credentialId),
    // a member's passkeys
    index("staff_passkeys_staff_idx").on(t.staffId),
  ],
);

/**
 * WebAuthn challenges waiting for their answer (5 minutes, single use): a passkey sign-in's (the
 * browser holds the token in a cookie) or a signed-in member's new passkey (`staff_id`).
 */
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    challenge: text("challenge").notNull(),
    staffId: integer("staff_id").references(() => staffMembers.id),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // the answer: token -> its challenge
    uniqueIndex("passkey_challenges_token_uq").on(t.tokenHash),
    // housekeeping
    index("passkey_challenges_expires_idx").on(t.expiresAt),
  ],
);
