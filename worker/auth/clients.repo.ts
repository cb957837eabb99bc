/** API clients and access tokens, in the control database. */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { accessTokens, apiClients, propertyDirectory, propertyGrants } from "../db/control.schema";
import { preparedOnce } from "../db/handles";
import type { ControlDb } from "../env";
import { hashPassword, randomToken, sha256Hex, timingSafeEqual } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";
import { usernameKey } from "../lib/username";
import type { PropertyInput } from "../properties/properties.repo";
import { type DirectoryRow, grantJustPlaced, placeStatement } from "../shards/directory.repo";

export interface NewClient {
  name: string;
  email: string;
  username: string;
  password: string;
  redirectUri: string;
  property: PropertyInput;
}

export type ClientRow = typeof apiClients.$inferSelect;

/** Whether a client or a property already has this username (compared by its key, worker/lib/username.ts). */
export async function usernameTaken(control: ControlDb, username: string) {
  const key = usernameKey(username);
  const rows = await control
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(
      or(
        eq(apiClients.usernameKey, key),
        sql`EXISTS (SELECT 1 FROM ${propertyDirectory} WHERE ${propertyDirectory.usernameKey} = ${key})`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Creates the client, places its sandbox property in the directory and grants it, in one
 * control batch: all or nothing. The property's own row goes to its shard next (the caller).
 */
export async function createClient(control: ControlDb, input: NewClient, shards: number) {
  const clientId = randomToken("ci_", 16);
  const clientSecret = randomToken("cs_", 32);
  const createdAt = nowIso();
  // PBKDF2 is deliberately slow: hashed once, and the sandbox property shares it (and the username).
  const credentials = {
    username: input.username,
    usernameKey: usernameKey(input.username),
    passwordHash: await hashPassword(input.password),
  };
  const insertClient = control
    .insert(apiClients)
    .values({
      clientId,
      secretHash: await sha256Hex(clientSecret),
      name: input.name,
      email: input.email,
      ...credentials,
      redirectUri: input.redirectUri,
      createdAt,
    })
    .returning();
  const owner = sql`(SELECT id FROM api_clients WHERE client_id = ${clientId})`;
  const place = placeStatement(control, {
    publicKey: randomToken("pk_", 16),
    owner,
    shards,
    createdAt,
    credentials,
  });
  const [clients, placed] = await control.batch([insertClient, place, grantJustPlaced(control, owner)]);
  const client = clients[0]!;
  return { client, clientSecret, entry: placed[0]! as DirectoryRow };
}

/** Removes a client whose sandbox property could not be written (nothing else refers to it yet). */
export async function deleteClient(control: ControlDb, id: number): Promise<void> {
  await control.delete(apiClients).where(eq(apiClients.id, id));
}

/** The client whose public client_id this is. */
export async function findClient(control: ControlDb, clientId: string): Promise<ClientRow | undefined> {
  return (await control.select().from(apiClients).where(eq(apiClients.clientId, clientId)).limit(1))[0];
}

export async function getClient(control: ControlDb, id: number): Promise<ClientRow | undefined> {
  return (await control.select().from(apiClients).where(eq(apiClients.id, id)).limit(1))[0];
}

/** client_credentials: the client's row when the id and secret match, else undefined. */
export async function authenticateClient(control: ControlDb, clientId: string, clientSecret: string) {
  const rows = await control.select().from(apiClients).where(eq(apiClients.clientId, clientId)).limit(1);
  const client = rows[0];
  const presented = await sha256Hex(clientSecret);
  // Compare even when the client is unknown so timing does not reveal which client ids exist.
  const ok = timingSafeEqual(presented, client?.secretHash ?? "0".repeat(64));
  return ok && client ? client : undefined;
}

export async function issueToken(control: ControlDb, clientRowId: number, ttlSeconds: number) {
  const token = randomToken("at_", 32);
  await control.insert(accessTokens).values({
    tokenHash: await sha256Hex(token),
    clientId: clientRowId,
    expiresAt: addSeconds(nowIso(), ttlSeconds),
    createdAt: nowIso(),
  });
  return token;
}

/** RFC 7009: revokes the token if it belongs to the client; silent otherwise. */
export async function revokeToken(control: ControlDb, clientRowId: number, token: string) {
  await control.run(
    sql`UPDATE access_tokens SET revoked_at = ${nowIso()} WHERE token_hash = ${await sha256Hex(token)} AND client_id = ${clientRowId} AND revoked_at IS NULL`,
  );
}

const tokenClient = preparedOnce((control) =>
  control
    .select({
      id: apiClients.id,
      clientId: apiClients.clientId,
      productionEnabled: apiClients.productionEnabled,
      propertyId: accessTokens.propertyId,
      expiresAt: accessTokens.expiresAt,
      revokedAt: accessTokens.revokedAt,
      entry: propertyDirectory,
      granted: propertyGrants.propertyId,
    })
    .from(accessTokens)
    .innerJoin(apiClients, eq(apiClients.id, accessTokens.clientId))
    .leftJoin(
      propertyDirectory,
      and(eq(propertyDirectory.id, sql.placeholder("property")), isNull(propertyDirectory.deletedAt)),
    )
    .leftJoin(
      propertyGrants,
      and(eq(propertyGrants.clientId, apiClients.id), eq(propertyGrants.propertyId, propertyDirectory.id)),
    )
    .where(eq(accessTokens.tokenHash, sql.placeholder("hash")))
    .limit(1)
    .prepare(),
);

/**
 * The client behind a bearer token's hash, with the token's expiry and revocation, and, in the
 * same statement, the live directory entry of `propertyId` with whether that client is granted it
 * (null and null for 0, or a property that is not there): a property-scoped request's two control
 * reads in one round trip.
 */
export async function findTokenClient(control: ControlDb, tokenHash: string, propertyId = 0) {
  return tokenClient(control).get({ hash: tokenHash, property: propertyId });
}

/** Tokens expired before `before` (housekeeping; the index on expires_at serves it). */
export async function purgeTokens(control: ControlDb, before: string): Promise<void> {
  await control.delete(accessTokens).where(lt(accessTokens.expiresAt, before));
}
