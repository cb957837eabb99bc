/**
 * The Worker's doors: fetch (API, pages, docs), queue (the outbox: webhook deliveries and emails) and scheduled
 * (unpaid PREPAY expiry, the webhook sweeper, retention and housekeeping, over every shard).
 */
import { createApp } from "./app";
import { scheduledWork } from "./cron";
import type { Bindings, DeliveryMessage } from "./env";
import { withBackground } from "./lib/background";
import { clockFromEnv } from "./lib/clock";
import { consume } from "./outbox/dispatch";
import { wire } from "./wiring";

/** The restaurant's own Durable Object (bound as RESTAURANT). */
export { Restaurant } from "./restaurant/restaurant";

wire();
const app = createApp();

export default {
  fetch(request, env, ctx) {
    clockFromEnv(env);
    return app.fetch(request, env, ctx);
  },
  queue(batch, env, ctx) {
    clockFromEnv(env);
    return withBackground({ env, waitUntil: (work) => ctx.waitUntil(work) }, () => consume(batch, env));
  },
  async scheduled(_controller, env, ctx) {
    clockFromEnv(env);
    // The cron's changes (unpaid reservations expiring, no-shows) reach the open consoles too.
    ctx.waitUntil(
      withBackground({ env, waitUntil: (work) => ctx.waitUntil(work) }, () => scheduledWork(env)),
    );
  },
} satisfies ExportedHandler<Bindings, DeliveryMessage>;
