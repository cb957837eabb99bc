/** The operator's work: the shards' sizes, a move's steps, grants, production, the clients, syncing usernames. */
import type { Context } from "hono";
import type { z } from "zod";
import { findClient } from "../auth/clients.repo";
import type { AppEnv, Bindings, ControlDb } from "../env";
import { ApiError, invalidInput } from "../errors";
import { revokeGrant } from "../oauth/grants";
import { syncUsernames } from "../properties/lifecycle";
import { countByShard } from "../shards/directory.repo";
import { ID_STRIDE, shardCount, shardD1 } from "../shards/shards";
import { shardStats } from "../shards/shards.repo";
import { grantProperty, listClients, setProduction } from "./clients.repo";
import { abortMove, beginMove, cleanupPage, copyPage, switchMove } from "./move";
import { Grant, MoveStep, Production, RevokeGrant } from "./ops.schemas";

/** The JSON body as `schema` reads it; anything else is a 400 naming the fields. */
async function bodyOf<T>(c: Context<AppEnv>, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

/** Each shard's properties, rows per table, bytes, and the range its new ids come from. */
export async function shardsReport(c: Context<AppEnv>) {
  const directory = await countByShard(c.get("control"));
  return Promise.all(
    Array.from({ length: shardCount(c.env) }, async (_, index) => {
      const { idBase, ...stats } = await shardStats(shardD1(c.env, index));
      // before its first write a shard has no range yet: it will start at its own
      return {
        index,
        ids_from: (idBase ?? index * ID_STRIDE) + 1,
        directory_properties: directory.get(index) ?? 0,
        ...stats,
      };
    }),
  );
}

/** One step of a move between shards (move.ts). */
export async function moveStep(c: Context<AppEnv>) {
  return runStep(c.env, c.get("control"), await bodyOf(c, MoveStep));
}

function runStep(env: Bindings, control: ControlDb, b: MoveStep) {
  switch (b.step) {
    case "begin":
      return beginMove(env, control, b.property_id, b.shard);
    case "copy":
      return copyPage(env, control, b.property_id, b.shard, b.table, b.after);
    case "switch":
      return switchMove(env, control, b.property_id, b.shard);
    case "cleanup":
      return cleanupPage(env, control, b.property_id, b.shard);
    case "abort":
      return abortMove(env, control, b.property_id, b.shard);
  }
}

/** A client's grant on a property: its tokens and subscriptions there end. */
export async function revokeClientGrant(c: Context<AppEnv>) {
  const b = await bodyOf(c, RevokeGrant);
  const client = await findClient(c.get("control"), b.client_id);
  if (!client) throw new ApiError("not_found", `no client ${b.client_id}`);
  return revokeGrant(c.env, c.get("control"), client.id, b.property_id);
}

export function syncDirectoryUsernames(c: Context<AppEnv>) {
  return syncUsernames(c.env, c.get("control"));
}

/** Grants a client a property (`ops grant`): `added` false when it had it already. */
export async function grantClient(c: Context<AppEnv>) {
  const b = await bodyOf(c, Grant);
  const done = await grantProperty(c.get("control"), b.client_id, b.property_id);
  if (!done) throw new ApiError("not_found", `no client ${b.client_id} or no property ${b.property_id}`);
  return done;
}

/** Production on or off for a client (`ops enable-production`, `disable-production`). */
export async function setClientProduction(c: Context<AppEnv>) {
  const b = await bodyOf(c, Production);
  const row = await setProduction(c.get("control"), b.client_id, b.enabled);
  if (!row) throw new ApiError("not_found", `no client ${b.client_id}`);
  return row;
}

export function clientsReport(c: Context<AppEnv>) {
  return listClients(c.get("control"));
}
