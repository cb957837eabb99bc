/** Moves between shards as `npm run ops -- move-property` drives them, through the operator's door. */
import { env } from "cloudflare:workers";
import { call } from "./helpers";

export const OPS = { Authorization: `Bearer ${env.OPS_TOKEN}` };

/** The shard the directory names for a property. */
export async function shardIndexOf(propertyId: number): Promise<number> {
  return (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
    .bind(propertyId)
    .first<{ shard: number }>())!.shard;
}

/** One step of a move; its answer's first row (an Error naming the status otherwise). */
export async function ops(step: Record<string, unknown>) {
  const res = await call("/__ops/move-property", { body: step, headers: OPS });
  if (res.status !== 200) throw new Error(`ops ${JSON.stringify(step)}: ${res.status} ${res.text}`);
  return res.json.data[0];
}

/** Begin, every table page by page, switch, cleanup. */
export async function moveProperty(propertyId: number, to: number) {
  const begun = await ops({ step: "begin", property_id: propertyId, shard: to });
  for (const table of begun.tables as string[]) {
    for (let after = 0, done = false; !done; )
      ({ after, done } = await ops({ step: "copy", property_id: propertyId, shard: to, table, after }));
  }
  const switched = await ops({ step: "switch", property_id: propertyId, shard: to });
  for (let done = false; !done; )
    ({ done } = await ops({ step: "cleanup", property_id: propertyId, shard: begun.from }));
  return switched;
}
