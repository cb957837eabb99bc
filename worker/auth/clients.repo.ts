import { eq, sql } from "drizzle-orm";
import { accessTokens, apiClients } from "../db/schema";
import type { Db } from "../env";
import { hashPassword, randomToken, sha256Hex, timingSafeEqual } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";
import { propertyInsertStatements, type PropertyInput } from "../properties/properties.repo";

export interface NewClient {
  name: string;
  email: string;
  username: string;
  password: string;
  redirectUri: string;
  property: PropertyInput;
}

export async function usernameTaken(db: Db, username: string) {
  const rows = await db.select({ id: apiClients.id }).from(apiClients).where(eq(apiClients.username, username)).limit(1);
  return rows.length > 0;
}

/** Creates the client, its sandbox property and the grant in one D1 batch: all or nothing. */
export async function createClient(db: Db, input: NewClient, sandboxDays: number) {
  const clientId = randomToken("ci_", 16);
  const clientSecret = randomToken("cs_", 32);
  // PBKDF2 is deliberately slow: hash once; the sandbox property shares the client's password.
  const passwordHash = await hashPassword(input.password);
  const insertClient = db
    .insert(apiClients)
    .values({
      clientId,
      secretHash: await sha256Hex(clientSecret),
      name: input.name,
      email: input.email,
      username: input.username,
      passwordHash,
      redirectUri: input.redirectUri,
    })
    .returning();
  const owner = sql`(SELECT id FROM api_clients WHERE client_id = ${clientId})`;
  const [insertProperty, grant] = await propertyInsertStatements(db, { ...input.property, passwordHash }, { clientIdSql: owner, sandbox: true, sandboxDays });
  const [clients, props] = await db.batch([insertClient, insertProperty, grant]);
  return { client: clients[0]!, clientSecret, property: props[0]! };
}

/** client_credentials: the client's row when the id and secret match, else undefined. */
export async function authenticateClient(db: Db, clientId: string, clientSecret: string) {
  const rows = await db.select().from(apiClients).where(eq(apiClients.clientId, clientId)).limit(1);
  const client = rows[0];
  const presented = await sha256Hex(clientSecret);
  // Compare even when the client is unknown so timing does not reveal which client ids exist.
  const ok = timingSafeEqual(presented, client?.secretHash ?? "0".repeat(64));
  return ok && client ? client : undefined;
}

export async function issueToken(db: Db, clientRowId: number, ttlSeconds: number) {
  const token = randomToken("at_", 32);
  await db.insert(accessTokens).values({ tokenHash: await sha256Hex(token), clientId: clientRowId, expiresAt: addSeconds(nowIso(), ttlSeconds) });
  return token;
}

/** RFC 7009: revokes the token if it belongs to the client; silent otherwise. */
export async function revokeToken(db: Db, clientRowId: number, token: string) {
  await db.run(
    sql`UPDATE access_tokens SET revoked_at = ${nowIso()} WHERE token_hash = ${await sha256Hex(token)} AND client_id = ${clientRowId} AND revoked_at IS NULL`,
  );
}
