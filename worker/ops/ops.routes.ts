/**
 * The operator's door (`npm run ops`), not part of the integrator API nor its OpenAPI document:
 * it exists only when the OPS_TOKEN secret is set, and answers only that bearer token.
 *   GET  /__ops/shards          each shard's properties, rows per table and bytes
 *   POST /__ops/move-property   one step of a move (move.ts): begin, copy, switch, cleanup, abort
 *   POST /__ops/revoke-grant    a client's grant on a property: its tokens and subscriptions there end
 *   POST /__ops/sync-usernames  the directory's copy of sign-ins, for properties made before it kept one
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { operatorOnly } from "./guard";
import { moveStep, revokeClientGrant, shardsReport, syncDirectoryUsernames } from "./ops.handlers";

export const opsRouter = new Hono<AppEnv>()
  .use("*", operatorOnly())
  .get("/shards", async (c) => c.json({ data: await shardsReport(c) }))
  .post("/move-property", async (c) => c.json({ data: [await moveStep(c)] }))
  .post("/revoke-grant", async (c) => c.json({ data: [await revokeClientGrant(c)] }))
  .post("/sync-usernames", async (c) => c.json({ data: [await syncDirectoryUsernames(c)] }));
