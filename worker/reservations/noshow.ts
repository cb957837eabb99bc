/**
 * The cron's no-shows, one shard at a time: in each property that set
 * `no_show_after_minutes`, a party that would arrive (PREPAY, ACCEPTED, CONFIRMED) and is not
 * checked in by its start plus those minutes expires through the state machine with reason
 * no_show, by the same write as any status move (act): a history entry and its webhook event.
 * Only starts of the last two days are looked at, so turning the setting on never rewrites a
 * restaurant's history of guests it did not check in.
 */
import { resolveSettings } from "../../shared/schemas";
import type { Db } from "../env";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { zonedParts } from "../lib/localtime";
import { noShowProperties } from "../properties/properties.repo";
import { act } from "./booking";
import { dueNoShows } from "./reservations.repo";

const BATCH = 200;
const LOOKBACK_MIN = 2 * 1440;
/** properties per batch of reads (D1 runs a batch as one call) */
const PER_BATCH = 50;

/** Expires the shard's no-shows until `until` (epoch ms); answers the ids expired. */
export async function expireNoShows(
  db: Db,
  o: { until?: number; linkSecret?: string | undefined } = {},
): Promise<number[]> {
  const properties = new Map((await noShowProperties(db)).map((p) => [p.id, p]));
  const windows = [...properties.values()].map((p) => {
    const s = resolveSettings(p.settings);
    const here = zonedParts(s.timezone, now()).minutes;
    // no_show_after_minutes is set for every property listed (the query asks for it)
    const due = here - (s.no_show_after_minutes ?? 0);
    return { propertyId: p.id, fromMin: due - LOOKBACK_MIN, toMin: due };
  });
  const expired: number[] = [];
  for (let i = 0; i < windows.length; i += PER_BATCH) {
    for (const row of await dueNoShows(db, windows.slice(i, i + PER_BATCH), BATCH)) {
      if (o.until !== undefined && now() > o.until) return expired;
      try {
        await act(
          { db, property: properties.get(row.propertyId)!, actor: "system", linkSecret: o.linkSecret },
          row.id,
          { type: "expire_no_show" },
        );
        expired.push(row.id);
      } catch (err) {
        // Checked in, cancelled or moved between the read and the write: nothing to expire.
        if (!(err instanceof ApiError)) throw err;
      }
    }
  }
  return expired;
}
