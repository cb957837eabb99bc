/**
 * The operator's door (`npm run ops`), not part of the integrator API nor its OpenAPI document:
 * it exists only when the OPS_TOKEN secret is set, and answers only that bearer token.
 *   GET  /__ops/shards          each shard's properties, rows per table and bytes
 *   POST /__ops/move-property   one step of a move (move.ts): begin, copy, switch, cleanup, abort
 *   POST /__ops/revoke-grant    a client's grant on a property: its tokens and subscriptions there end
 *   POST /__ops/sync-usernames  the directory's copy of sign-ins, for properties made before it kept one
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { ApiError, invalidInput } from "../errors";
import { timingSafeEqual } from "../lib/crypto";
import { countByShard } from "../shards/directory.repo";
import { ID_STRIDE, shardCount, shardD1 } from "../shards/shards";
import { shardStats } from "../shards/shards.repo";
import { abortMove, beginMove, cleanupPage, copyPage, switchMove } from "./move";
import { findClient } from "../auth/clients.repo";
import { revokeGrant } from "../oauth/grants";
import { syncUsernames } from "../properties/lifecycle";

const id = z.number().int().positive();
const shard = z.number().int().min(0);
const RevokeGrant = z.object({ client_id: z.string().max(100), property_id: id });
const MoveStep = z.discriminatedUnion("step", [
  z.object({ step: z.literal("begin"), property_id: id, shard }),
  // where the last page ended: a number, or a pair for a table with a two-column key (reservation_history)
  z.object({ step: z.literal("copy"), property_id: id, shard, table: z.string().max(64), after: z.union([z.number().int().min(0), z.tuple([z.number().int().min(0), z.number().int().min(0)])]) }),
  z.object({ step: z.literal("switch"), property_id: id, shard }),
  z.object({ step: z.literal("cleanup"), property_id: id, shard }),
  z.object({ step: z.literal("abort"), property_id: id, shard }),
]);

export const opsRouter = new Hono<AppEnv>()
  .use("*", async function opsAuth(c, next) {
    const token = c.env.OPS_TOKEN;
    // Without the secret the door does not exist; with it, only its holder gets through.
    if (!token) throw new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`);
    const given = c.req.header("Authorization")?.replace(/^Bearer\s+/i, "") ?? "";
    if (!timingSafeEqual(given, token)) throw new ApiError("invalid_token", "the operator's token is required here");
    await next();
  })
  .get("/shards", async (c) => {
    const directory = await countByShard(c.get("control"));
    const data = await Promise.all(
      Array.from({ length: shardCount(c.env) }, async (_, index) => ({
        index,
        ids_from: index * ID_STRIDE + 1,
        directory_properties: directory.get(index) ?? 0,
        ...(await shardStats(shardD1(c.env, index))),
      })),
    );
    return c.json({ data });
  })
  .post("/move-property", async (c) => {
    const parsed = MoveStep.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) throw invalidInput(parsed.error);
    const b = parsed.data;
    const control = c.get("control");
    const result =
      b.step === "begin"
        ? await beginMove(c.env, control, b.property_id, b.shard)
        : b.step === "copy"
          ? await copyPage(c.env, control, b.property_id, b.shard, b.table, b.after)
          : b.step === "switch"
            ? await switchMove(c.env, control, b.property_id, b.shard)
            : b.step === "cleanup"
              ? await cleanupPage(c.env, control, b.property_id, b.shard)
              : await abortMove(c.env, control, b.property_id, b.shard);
    return c.json({ data: [result] });
  })
  .post("/revoke-grant", async (c) => {
    const parsed = RevokeGrant.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) throw invalidInput(parsed.error);
    const client = await findClient(c.get("control"), parsed.data.client_id);
    if (!client) throw new ApiError("not_found", `no client ${parsed.data.client_id}`);
    return c.json({ data: [await revokeGrant(c.env, c.get("control"), client.id, parsed.data.property_id)] });
  })
  .post("/sync-usernames", async (c) => c.json({ data: [await syncUsernames(c.env, c.get("control"))] }));
