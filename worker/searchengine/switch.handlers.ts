import type { Context } from "hono";
import type { AppEnv } from "../env";
import { setSwitch } from "./searchengine.repo";

/** The property of the Property header joins or leaves the search engine's merchants. */
export async function applySwitch(c: Context<AppEnv>, body: { enable_searchengine: boolean }) {
  await setSwitch(c.get("db"), c.get("property").id, body.enable_searchengine);
  return { status: "ACCEPTED" as const };
}
