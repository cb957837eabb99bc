import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { resolveSettings, type SettingsPatch } from "../../shared/schemas";
import { properties, propertyGrants } from "../db/schema";
import type { Db, PropertyRow } from "../env";
import { hashPassword, randomToken } from "../lib/crypto";
import { addSeconds, nowIso } from "../lib/time";

export interface PropertyInput {
  name: string;
  email?: string | null | undefined;
  username?: string | null | undefined;
  password?: string | undefined;
  /** already hashed (client creation hashes the shared password once) */
  passwordHash?: string | undefined;
  website?: string | null | undefined;
  phone?: string | null | undefined;
  description?: string | null | undefined;
  position?: Record<string, unknown> | undefined;
  settings?: SettingsPatch | undefined;
}

export async function findPropertyForClient(db: Db, propertyId: number, clientId: number) {
  const rows = await db
    .select({
      property: properties,
      granted: sql<number | null>`(SELECT 1 FROM property_grants g WHERE g.client_id = ${clientId} AND g.property_id = ${properties.id})`,
    })
    .from(properties)
    .where(and(eq(properties.id, propertyId), isNull(properties.deletedAt)))
    .limit(1);
  const row = rows[0];
  return row ? { property: row.property, granted: row.granted === 1 } : undefined;
}

export async function listPropertiesForClient(db: Db, clientId: number, limit: number, afterId = 0) {
  const rows = await db
    .select({ property: properties })
    .from(propertyGrants)
    .innerJoin(properties, eq(properties.id, propertyGrants.propertyId))
    .where(and(eq(propertyGrants.clientId, clientId), isNull(properties.deletedAt), gt(properties.id, afterId)))
    .orderBy(asc(properties.id))
    .limit(limit + 1);
  return rows.map((r) => r.property);
}

/** The statements that create a property and grant it to its creator, for one D1 batch. */
export async function propertyInsertStatements(
  db: Db,
  input: PropertyInput,
  owner: { clientIdSql: ReturnType<typeof sql> | number; sandbox: boolean; sandboxDays: number },
) {
  const createdAt = nowIso();
  const insert = db
    .insert(properties)
    .values({
      publicKey: randomToken("pk_", 16),
      ownerClientId: owner.clientIdSql as number,
      name: input.name,
      email: input.email ?? null,
      username: input.username ?? null,
      passwordHash: input.passwordHash ?? (input.password ? await hashPassword(input.password) : null),
      website: input.website ?? null,
      phone: input.phone ?? null,
      description: input.description ?? null,
      enabled: true,
      sandbox: owner.sandbox,
      sandboxExpiresAt: owner.sandbox ? addSeconds(createdAt, owner.sandboxDays * 86400) : null,
      position: input.position ?? {},
      settings: input.settings ? stripUndefined(input.settings) : {},
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  const grant = db.insert(propertyGrants).values({
    clientId: owner.clientIdSql as number,
    propertyId: sql`last_insert_rowid()` as unknown as number,
  });
  return [insert, grant] as const;
}

export async function createProperty(db: Db, clientId: number, input: PropertyInput, sandbox: boolean, sandboxDays: number) {
  const [insert, grant] = await propertyInsertStatements(db, input, { clientIdSql: clientId, sandbox, sandboxDays });
  const [inserted] = await db.batch([insert, grant]);
  return inserted[0]!;
}

export async function updateProperty(db: Db, current: PropertyRow, input: Partial<PropertyInput> & { enabled?: boolean | undefined }) {
  const settings = input.settings ? { ...(current.settings as object), ...stripUndefined(input.settings) } : undefined;
  const rows = await db
    .update(properties)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.email !== undefined && { email: input.email }),
      ...(input.username !== undefined && { username: input.username }),
      ...(input.password !== undefined && { passwordHash: await hashPassword(input.password) }),
      ...(input.website !== undefined && { website: input.website }),
      ...(input.phone !== undefined && { phone: input.phone }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.position !== undefined && { position: input.position }),
      ...(input.enabled !== undefined && { enabled: input.enabled }),
      ...(settings !== undefined && { settings }),
      updatedAt: nowIso(),
    })
    .where(eq(properties.id, current.id))
    .returning();
  return rows[0]!;
}

export async function softDeleteProperty(db: Db, id: number) {
  await db.update(properties).set({ deletedAt: nowIso(), updatedAt: nowIso() }).where(eq(properties.id, id));
}

export async function setSearchengine(db: Db, id: number, enabled: boolean) {
  await db.update(properties).set({ searchengineEnabled: enabled, updatedAt: nowIso() }).where(eq(properties.id, id));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The API shape of a property: SPEC's fields plus settings (defaults filled) and public_key. */
export function toPropertyDto(p: PropertyRow) {
  return {
    id: p.id,
    name: p.name,
    enabled: p.enabled,
    sandbox: p.sandbox,
    position: (p.position ?? {}) as Record<string, unknown>,
    email: p.email,
    username: p.username,
    website: p.website,
    phone: p.phone,
    description: p.description,
    public_key: p.publicKey,
    sandbox_expires_at: p.sandboxExpiresAt,
    searchengine_enabled: p.searchengineEnabled,
    settings: resolveSettings(p.settings),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

