/**
 * The apps connected to a restaurant, through the API: the console's restaurant view lists and
 * disconnects them (every app the restaurant granted, the one that created it aside, which it
 * cannot disconnect); through the integrator API a client sees and disconnects only its own
 * grant, never another platform's. Disconnecting revokes the grant as the connected-apps page does.
 */

import type { Context } from "hono";
import { recordChange } from "../audit/audit";
import { findClient } from "../auth/clients.repo";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { authoriseProperty } from "../properties/authorise";
import { grantsOf } from "../shards/directory.repo";
import { revokeGrant } from "./grants";
import { toConnectedAppDto } from "./grants.schemas";

type Ctx = Context<AppEnv>;

/** GET /properties/{property_id}/apps: the restaurant's connected apps (for a client: itself, when it is one). */
export async function listConnectedApps(c: Ctx, propertyId: number) {
  const property = await authoriseProperty(c, propertyId);
  const client = c.get("client");
  const grants = (await grantsOf(c.get("control"), propertyId)).filter(
    (g) => g.id !== property.ownerClientId && (client.console || g.id === client.id),
  );
  return { data: grants.map(toConnectedAppDto), next_cursor: null };
}

/** DELETE /properties/{property_id}/apps/{client_id}: the grant ends, with the app's tokens and webhook subscriptions there. */
export async function disconnectApp(c: Ctx, propertyId: number, clientId: string) {
  const property = await authoriseProperty(c, propertyId, { allowExpired: true });
  const caller = c.get("client");
  // Asked before anything is looked up, so the answer never tells which other apps are connected.
  if (!caller.console && clientId !== caller.clientId) {
    throw new ApiError(
      "property_forbidden",
      "a client disconnects only itself; the restaurant disconnects other apps from its console",
    );
  }
  const app = await findClient(c.get("control"), clientId);
  if (app && app.id === property.ownerClientId)
    throw new ApiError(
      "app_not_disconnectable",
      "the app that created the restaurant cannot be disconnected from it",
    );
  const granted = app && (await grantsOf(c.get("control"), propertyId)).some((g) => g.id === app.id);
  if (!app || !granted)
    throw new ApiError("app_not_found", `no app ${clientId} is connected to property ${propertyId}`);
  await revokeGrant(c.env, c.get("control"), app.id, propertyId);
  await recordChange(c, { action: "disconnected", subject: "app", subjectId: app.id });
  return { data: [clientId] };
}
