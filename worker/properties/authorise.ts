/** Whether the request's client may act on a property, and binding the request to its shard. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { nowIso } from "../lib/time";
import { type DirectoryRow, findEntry } from "../shards/directory.repo";
import { bindProperty, bindShard, type Preload } from "./binding";

type Ctx = Parameters<MiddlewareHandler<AppEnv>>[0];

/**
 * Checks that the client (or the console) may act on the property (404 unknown, 403 not granted or sandbox
 * expired) and binds the request to the property's shard.
 */
export async function authoriseProperty(
  c: Ctx,
  propertyId: number,
  options: { allowExpired?: boolean; preload?: Preload | undefined } = {},
): Promise<PropertyRow> {
  const entry = await grantedEntry(c, propertyId);
  return checkPropertyRow(propertyId, await bindProperty(c, entry, { preload: options.preload }), options);
}

/**
 * The same checks, but those on the property's own row are left to whoever reads it next: the
 * request is bound to the shard without reading it (`pendingProperty` names it). A booking's row is
 * read by the restaurant's booking desk anyway, which then checks it (checkPropertyRow).
 */
export async function authorisePropertyLater(c: Ctx, propertyId: number): Promise<void> {
  await bindShard(c, await grantedEntry(c, propertyId));
  c.set("pendingProperty", propertyId);
}

/** What the property's row must say for the request to go on: that it exists, and that its sandbox has not expired. */
export function checkPropertyRow(
  propertyId: number,
  property: PropertyRow | undefined,
  options: { allowExpired?: boolean } = {},
): PropertyRow {
  if (!property) throw new ApiError("property_not_found", `property ${propertyId} does not exist`);
  if (
    !options.allowExpired &&
    property.sandbox &&
    property.sandboxExpiresAt &&
    property.sandboxExpiresAt <= nowIso()
  ) {
    throw new ApiError(
      "sandbox_expired",
      `the sandbox property ${propertyId} expired on ${property.sandboxExpiresAt}`,
    );
  }
  return property;
}

/** The property's directory entry, once the client is known to be granted it (404, 403 otherwise). */
async function grantedEntry(c: Ctx, propertyId: number): Promise<DirectoryRow> {
  const client = c.get("client");
  const ahead = c.get("entryAhead");
  const found =
    ahead?.id === propertyId
      ? ahead.found
      : await findEntry(c.get("control"), propertyId, client.id, client.propertyId);
  if (!found) throw new ApiError("property_not_found", `property ${propertyId} does not exist`);
  // The console reaches the property it signed in to, and no other.
  const granted = client.console ? propertyId === client.propertyId : found.granted;
  if (!granted)
    throw new ApiError("property_forbidden", `this client is not authorised for property ${propertyId}`);
  return found.entry;
}
