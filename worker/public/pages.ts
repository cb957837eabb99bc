/**
 * The hosted pages: /p/{public_key}[/services|/book|/manage/{token}|/offer/{token}|/pay/{token}], each a
 * server-rendered shell around the widget (pages.shell.ts).
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { page } from "./pages.handlers";

export const pagesRouter = new Hono<AppEnv>()
  .get("/:public_key", page("welcome"))
  .get("/:public_key/services", page("services"))
  .get("/:public_key/book", page("book"))
  .get("/:public_key/manage/:token", page("manage"))
  .get("/:public_key/offer/:token", page("offer"))
  .get("/:public_key/pay/:token", page("pay"));
