/**
 * The cron's expiry of unpaid PREPAY reservations, one shard at a time: each goes through the
 * state machine and the same write as any other status move (act), with a history entry and
 * its webhook event. A reservation changed meanwhile is left for the next run.
 */

import type { Db } from "../env";
import { ApiError } from "../errors";
import { now, nowIso } from "../lib/clock";
import { getPropertyRows } from "../properties/properties.repo";
import { act } from "./booking";
import { dueUnpaid } from "./reservations.repo";

const BATCH = 200;

/** Expires what is due in this shard until `until` (epoch ms); answers the ids expired. */
export async function expireUnpaid(
  db: Db,
  o: { at?: string; until?: number; linkSecret?: string | undefined } = {},
): Promise<number[]> {
  const due = await dueUnpaid(db, o.at ?? nowIso(), BATCH);
  const properties = new Map(
    (await getPropertyRows(db, [...new Set(due.map((r) => r.propertyId))])).map((p) => [p.id, p]),
  );
  const expired: number[] = [];
  for (const row of due) {
    if (o.until !== undefined && now() > o.until) break;
    const property = properties.get(row.propertyId);
    if (!property) continue;
    try {
      await act({ db, property, actor: "system", linkSecret: o.linkSecret }, row.id, {
        type: "expire_unpaid",
      });
      expired.push(row.id);
    } catch (err) {
      // Paid, cancelled or checked in between the read and the write: nothing to expire.
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return expired;
}
