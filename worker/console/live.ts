/**
 * GET /console/live: the console's WebSocket, handed to the restaurant's object, which greets it
 * and tells it of every reservation change. Only from a page of this origin (a WebSocket is not
 * bound by the same-origin rule, so the Origin header is checked), with a live session; the
 * object keeps the socket under that session, and the session's end closes it.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { ACCOUNT_HEADER, restaurantObject, SESSION_HEADER } from "../lib/restaurant-object";
import { isOwnOrigin } from "./origin";
import { sessionOf } from "./session";

export async function openLiveFeed(c: Context<AppEnv>) {
  const session = sessionOf(c);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket")
    throw new ApiError("invalid_request", "open this path as a WebSocket");
  if (!isOwnOrigin(c, c.req.header("Origin")))
    throw new ApiError("csrf_token_invalid", "the live feed opens from the console's own pages only");
  // the object keeps the socket under its session, whose end closes it
  const upgrade = new Request(c.req.raw, { headers: new Headers(c.req.raw.headers) });
  upgrade.headers.set(SESSION_HEADER, String(session.row.id));
  if (session.byAccount) upgrade.headers.set(ACCOUNT_HEADER, "1");
  const res = await restaurantObject(c.env, session.entry.id).fetch(upgrade);
  // A fresh response: the object's own has immutable headers, which the Worker's middleware adds to.
  return new Response(null, { status: res.status, webSocket: res.webSocket });
}
