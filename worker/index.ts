/**
 * The Worker's doors: fetch (API, pages, docs), queue (the outbox: webhook deliveries and emails) and scheduled
 * (unpaid PREPAY expiry, the webhook sweeper, retention and housekeeping, over every shard).
 */
import { createApp } from "./app";
import { scheduledWork } from "./cron";
import type { Bindings, DeliveryMessage } from "./env";
import { clockFromEnv } from "./lib/clock";
import { consume } from "./outbox/dispatch";
import { wire } from "./wiring";

wire();
const app = createApp();

export default {
  fetch(request, env, ctx) {
    clockFromEnv(env);
    return app.fetch(request, env, ctx);
  },
  queue(batch, env) {
    clockFromEnv(env);
    return consume(batch, env);
  },
  async scheduled(_controller, env, ctx) {
    clockFromEnv(env);
    ctx.waitUntil(scheduledWork(env));
  },
} satisfies ExportedHandler<Bindings, DeliveryMessage>;
