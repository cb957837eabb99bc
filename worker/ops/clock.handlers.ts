/**
 * The browser tests' hand on the Worker's clock: a party's arrival, checked in from the console,
 * happens at its own hour whatever the hour of the run. Only where DEV_CLOCK is honoured (the
 * dev scripts set ENVIRONMENT=development; wrangler.toml never does), and behind the operator's
 * token; anywhere else the route does not exist.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { ApiError, invalidField } from "../errors";
import { nowIso, parseClock, setClock } from "../lib/clock";

const ClockBody = z.object({ at: z.string().max(40).nullable() }).strict();

/** POST /__ops/clock {"at": ISO instant | "+/-ms" | null}: pins the clock, or unpins it (null). */
export async function pinClock(c: Context<AppEnv>): Promise<{ now: string }> {
  if (c.env.ENVIRONMENT !== "development")
    throw new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`);
  const body = ClockBody.safeParse(await c.req.json().catch(() => undefined));
  if (!body.success) throw invalidField("at", "an ISO instant, +/- milliseconds, or null");
  if (body.data.at !== null) {
    try {
      parseClock(body.data.at);
    } catch {
      throw invalidField("at", "an ISO instant, +/- milliseconds, or null");
    }
  }
  setClock(body.data.at ?? undefined);
  return { now: nowIso() };
}
