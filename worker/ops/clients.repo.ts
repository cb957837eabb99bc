/**
 * The operator's writes on clients and grants, run by the Worker (through /__ops) so that only one
 * process writes the local state while `npm start` runs.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { apiClients, propertyDirectory, propertyGrants } from "../db/control.schema";
import type { ControlDb } from "../env";

/** Grants the client the property; undefined when either is unknown (or the property deleted). */
export async function grantProperty(
  control: ControlDb,
  clientId: string,
  propertyId: number,
): Promise<{ added: boolean } | undefined> {
  const client = (
    await control
      .select({ id: apiClients.id })
      .from(apiClients)
      .where(eq(apiClients.clientId, clientId))
      .limit(1)
  )[0];
  const property = (
    await control
      .select({ id: propertyDirectory.id })
      .from(propertyDirectory)
      .where(and(eq(propertyDirectory.id, propertyId), isNull(propertyDirectory.deletedAt)))
      .limit(1)
  )[0];
  if (!client || !property) return undefined;
  const added = await control
    .insert(propertyGrants)
    .values({ clientId: client.id, propertyId: property.id })
    .onConflictDoNothing()
    .returning({ id: propertyGrants.clientId });
  return { added: added.length > 0 };
}

/** Turns production on or off for the client; undefined when there is no such client. */
export async function setProduction(control: ControlDb, clientId: string, enabled: boolean) {
  const rows = await control
    .update(apiClients)
    .set({ productionEnabled: enabled })
    .where(eq(apiClients.clientId, clientId))
    .returning({
      client_id: apiClients.clientId,
      username: apiClients.username,
      production_enabled: apiClients.productionEnabled,
    });
  return rows[0];
}

/** Every client with its production flag and the properties it may act on. */
export async function listClients(control: ControlDb) {
  return control
    .select({
      client_id: apiClients.clientId,
      username: apiClients.username,
      production_enabled: apiClients.productionEnabled,
      properties: sql<string | null>`group_concat(${propertyGrants.propertyId})`,
    })
    .from(apiClients)
    .leftJoin(propertyGrants, eq(propertyGrants.clientId, apiClients.id))
    .groupBy(apiClients.id)
    .orderBy(asc(apiClients.id));
}
