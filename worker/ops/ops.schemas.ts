/** The operator's requests (not part of the OpenAPI document). */
import { z } from "zod";

const id = z.number().int().positive();
const shard = z.number().int().min(0);

export const RevokeGrant = z.object({ client_id: z.string().max(100), property_id: id });
export const Grant = RevokeGrant;
export const Production = z.object({ client_id: z.string().max(100), enabled: z.boolean() });

export const MoveStep = z.discriminatedUnion("step", [
  z.object({ step: z.literal("begin"), property_id: id, shard }),
  // where the last page ended: a number, or a pair for a table with a two-column key (reservation_history)
  z.object({
    step: z.literal("copy"),
    property_id: id,
    shard,
    table: z.string().max(64),
    after: z.union([z.number().int().min(0), z.tuple([z.number().int().min(0), z.number().int().min(0)])]),
  }),
  z.object({ step: z.literal("switch"), property_id: id, shard }),
  z.object({ step: z.literal("cleanup"), property_id: id, shard }),
  z.object({ step: z.literal("abort"), property_id: id, shard }),
]);
export type MoveStep = z.infer<typeof MoveStep>;
