/** A property's own row, in its shard (the directory in the control database says which). */
import { and, asc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { resolveSettings, type SettingsPatch } from "../../shared/schemas";
import { properties } from "../db/shard.schema";
import type { Db, PropertyRow } from "../env";
import { hashPassword } from "../lib/crypto";
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

const propertyRowQuery = (db: Db, id: number) =>
  db
    .select()
    .from(properties)
    .where(and(eq(properties.id, id), isNull(properties.deletedAt)))
    .limit(1);

/** The live row of property `id` in this shard. */
export async function getPropertyRow(db: Db, id: number): Promise<PropertyRow | undefined> {
  return (await propertyRowQuery(db, id))[0];
}

/** The live row of property `id`, read in one round trip with `alongside` (whose results follow it). */
export async function getPropertyRowWith(
  db: Db,
  id: number,
  alongside: BatchItem<"sqlite">[],
): Promise<[PropertyRow | undefined, unknown[]]> {
  const [rows, ...rest] = await db.batch([propertyRowQuery(db, id), ...alongside]);
  return [rows[0], rest];
}

/** The live rows of these properties in this shard (a page of GET /properties spans shards). */
export async function getPropertyRows(db: Db, ids: number[]): Promise<PropertyRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(properties)
    .where(and(inArray(properties.id, ids), isNull(properties.deletedAt)));
}

/** The shard's live properties that expire no-shows (settings.no_show_after_minutes set), for the cron. */
export async function noShowProperties(db: Db): Promise<PropertyRow[]> {
  return db
    .select()
    .from(properties)
    .where(
      and(
        isNull(properties.deletedAt),
        eq(properties.shardState, "live"),
        sql`json_extract(${properties.settings}, '$.no_show_after_minutes') IS NOT NULL`,
      ),
    );
}

/** Writes a new property's row under the id and key the directory gave it. */
export async function insertPropertyRow(
  db: Db,
  placed: { id: number; publicKey: string; ownerClientId: number; createdAt: string },
  input: PropertyInput,
  o: { sandbox: boolean; sandboxDays: number },
): Promise<PropertyRow> {
  const rows = await db
    .insert(properties)
    .values({
      id: placed.id,
      publicKey: placed.publicKey,
      ownerClientId: placed.ownerClientId,
      name: input.name,
      email: input.email ?? null,
      username: input.username ?? null,
      passwordHash: input.passwordHash ?? (input.password ? await hashPassword(input.password) : null),
      website: input.website ?? null,
      phone: input.phone ?? null,
      description: input.description ?? null,
      enabled: true,
      sandbox: o.sandbox,
      sandboxExpiresAt: o.sandbox ? addSeconds(placed.createdAt, o.sandboxDays * 86400) : null,
      position: input.position ?? {},
      settings: input.settings ? stripUndefined(input.settings) : {},
      createdAt: placed.createdAt,
      updatedAt: placed.createdAt,
    })
    .returning();
  return rows[0]!;
}

/** Changes the given fields; a new password comes hashed (`passwordHash`: the directory holds the same hash). */
export async function updateProperty(
  db: Db,
  current: PropertyRow,
  input: Omit<Partial<PropertyInput>, "password"> & { enabled?: boolean | undefined },
) {
  const settings = input.settings
    ? { ...(current.settings as object), ...stripUndefined(input.settings) }
    : undefined;
  const rows = await db
    .update(properties)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.email !== undefined && { email: input.email }),
      ...(input.username !== undefined && { username: input.username }),
      ...(input.passwordHash !== undefined && { passwordHash: input.passwordHash }),
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

/** A page of this shard's properties that have a username, by id (the directory's sign-in backfill). */
export async function usernamesPage(db: Db, afterId: number, limit: number) {
  return db
    .select({ id: properties.id, username: properties.username, passwordHash: properties.passwordHash })
    .from(properties)
    .where(and(gt(properties.id, afterId), isNotNull(properties.username)))
    .orderBy(asc(properties.id))
    .limit(limit);
}

export async function softDeleteProperty(db: Db, id: number) {
  await db.update(properties).set({ deletedAt: nowIso(), updatedAt: nowIso() }).where(eq(properties.id, id));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The API shape of a property: its own fields, its settings (defaults filled) and its public_key. */
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
