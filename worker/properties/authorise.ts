/** Whether the request's client may act on a property, and binding the request to its shard. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { nowIso } from "../lib/time";
import { findEntry } from "../shards/directory.repo";
import { bindProperty, type Preload } from "./binding";

/**
 * Checks that the client (or the console) may act on the property (404 unknown, 403 not granted or sandbox
 * expired) and binds the request to the property's shard.
 */
export async function authoriseProperty(
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
  propertyId: number,
  options: { allowExpired?: boolean; preload?: Preload | undefined } = {},
): Promise<PropertyRow> {
  const client = c.get("client");
  const ahead = c.get("entryAhead");
  const found = ahead?.id === propertyId ? ahead.found : await findEntry(c.get("control"), propertyId, client.id, client.propertyId);
  if (!found) throw new ApiError("property_not_found", `property ${propertyId} does not exist`);
  // The console reaches the property it signed in to, and no other.
  const granted = client.console ? propertyId === client.propertyId : found.granted;
  if (!granted) throw new ApiError("property_forbidden", `this client is not authorised for property ${propertyId}`);
  const property = await bindProperty(c, found.entry, { preload: options.preload });
  if (!property) throw new ApiError("property_not_found", `property ${propertyId} does not exist`);
  if (!options.allowExpired && property.sandbox && property.sandboxExpiresAt && property.sandboxExpiresAt <= nowIso()) {
    throw new ApiError("sandbox_expired", `the sandbox property ${propertyId} expired on ${property.sandboxExpiresAt}`);
  }
  return property;
}
