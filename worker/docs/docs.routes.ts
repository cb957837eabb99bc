/** /docs: Swagger UI served from the Worker's own assets (no CDN), and /docs/errors. */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { errorsPage, swaggerPage } from "./docs.handlers";

export const docsRouter = new Hono<AppEnv>().get("/docs", swaggerPage).get("/docs/errors", errorsPage);
