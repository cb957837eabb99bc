/**
 * GET /console/live: the console's WebSocket, handed to the restaurant's object, which greets it
 * and tells it of every reservation change. Only from a page of this origin (a WebSocket is not
 * bound by the same-origin rule, so the Origin header is checked), with a live session.
 */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { restaurantObject } from "../lib/restaurant-object";
import { sessionOf } from "./session";

export async function openLiveFeed(c: Context<AppEnv>) {
  const session = sessionOf(c);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket")
    throw new ApiError("invalid_request", "open this path as a WebSocket");
  const origin = c.req.header("Origin");
  const own = [new URL(c.req.url).origin, config(c.env).publicOrigin];
  if (!origin || !own.includes(origin))
    throw new ApiError("csrf_token_invalid", "the live feed opens from the console's own pages only");
  const res = await restaurantObject(c.env, session.entry.id).fetch(c.req.raw);
  // A fresh response: the object's own has immutable headers, which the Worker's middleware adds to.
  return new Response(null, { status: res.status, webSocket: res.webSocket });
}
