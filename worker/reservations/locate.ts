/**
 * Where a reservation id lives when it is not in the request's property: among the caller's
 * other properties, in whichever shards hold them (only on the way to an error, so a read per
 * shard is no burden).
 */
import type { Bindings, ControlDb } from "../env";
import { grantedByShard } from "../shards/directory.repo";
import { openShard, shardDb } from "../shards/shards";
import { reservationOwner } from "./reservations.repo";

export function locator(env: Bindings, control: ControlDb, clientId: number, only: number | null = null) {
  return async function locateElsewhere(id: number): Promise<number | undefined> {
    const byShard = await grantedByShard(control, clientId, only);
    const found = await Promise.all(
      [...byShard].map(async ([shard, ids]) => {
        const owner = await reservationOwner(shardDb(openShard(env, shard, { write: false })), id);
        return owner !== undefined && ids.includes(owner) ? owner : undefined;
      }),
    );
    return found.find((p) => p !== undefined);
  };
}
