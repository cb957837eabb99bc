/**
 * The operator's door (`npm run ops`), not part of the integrator API nor its OpenAPI document:
 * it exists only when the OPS_TOKEN secret is set, and answers only that bearer token.
 *   GET  /__ops/shards          each shard's properties, rows per table and bytes
 *   POST /__ops/move-property   one step of a move (move.ts): begin, copy, switch, cleanup, abort
 *   POST /__ops/revoke-grant    a client's grant on a property: its tokens and subscriptions there end
 *   POST /__ops/sync-usernames  the directory's copy of sign-ins, for properties made before it kept one
 *   POST /__ops/grant           a client may act on a property
 *   POST /__ops/production      a client's production flag on or off
 *   GET  /__ops/clients         every client, its production flag and properties
 *   POST /__ops/clock           local development only: pins the Worker's clock (the browser tests)
 * Every command that writes goes through here, so that `npm run ops` beside a running `npm start`
 * never writes the local database from a second process.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { pinClock } from "./clock.handlers";
import { operatorOnly } from "./guard";
import {
  clientsReport,
  grantClient,
  moveStep,
  revokeClientGrant,
  setClientProduction,
  shardsReport,
  syncDirectoryUsernames,
} from "./ops.handlers";

export const opsRouter = new Hono<AppEnv>()
  .use("*", operatorOnly())
  .get("/shards", async (c) => c.json({ data: await shardsReport(c) }))
  .post("/move-property", async (c) => c.json({ data: [await moveStep(c)] }))
  .post("/revoke-grant", async (c) => c.json({ data: [await revokeClientGrant(c)] }))
  .post("/sync-usernames", async (c) => c.json({ data: [await syncDirectoryUsernames(c)] }))
  .post("/grant", async (c) => c.json({ data: [await grantClient(c)] }))
  .post("/production", async (c) => c.json({ data: [await setClientProduction(c)] }))
  .get("/clients", async (c) => c.json({ data: await clientsReport(c) }))
  .post("/clock", async (c) => c.json({ data: [await pinClock(c)] }));
