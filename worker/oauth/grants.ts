/**
 * Revoking a client's grant on a property, by the restaurant on its connected-apps
 * page or by the operator (`npm run ops -- revoke-grant`, through /__ops): the client's tokens for
 * that property end, and its webhook subscriptions there are deleted, pending deliveries failed.
 * Subscriptions live in the property's shard, the grant in the control database: there is no
 * transaction across the two, so the shard goes first (a move in progress refuses it: nothing
 * changed, retry), then the grant, then the shard once more for a subscription the client made
 * in between.
 */
import type { Bindings, ControlDb } from "../env";
import { nowIso } from "../lib/clock";
import { movingError } from "../properties/binding";
import { getEntry } from "../shards/directory.repo";
import { shardD1 } from "../shards/shards";
import { deleteClientSubscriptions } from "../webhooks/webhooks.repo";
import { revokeGrantRows } from "./tokens.repo";

export interface GrantRevoked {
  /** whether the client had the grant */
  granted: boolean;
  access_tokens_revoked: number;
  refresh_tokens_revoked: number;
  subscriptions_deleted: number;
}

export async function revokeGrant(
  env: Bindings,
  control: ControlDb,
  clientId: number,
  propertyId: number,
): Promise<GrantRevoked> {
  const entry = await getEntry(control, propertyId);
  let subscriptions = 0;
  if (entry?.movingSince) throw movingError();
  const shard = entry && shardD1(env, entry.shard);
  if (shard) subscriptions += await deleteClientSubscriptions(shard, clientId, propertyId, nowIso());
  const rows = await revokeGrantRows(control, clientId, propertyId, nowIso());
  if (shard) subscriptions += await deleteClientSubscriptions(shard, clientId, propertyId, nowIso());
  return {
    granted: rows.granted,
    access_tokens_revoked: rows.accessTokens,
    refresh_tokens_revoked: rows.refreshTokens,
    subscriptions_deleted: subscriptions,
  };
}
