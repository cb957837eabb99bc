/**
 * The Worker's doors: fetch (API, pages, docs), queue (webhook deliveries) and scheduled
 * (unpaid PREPAY expiry, the webhook sweeper, housekeeping).
 */
import { createApp } from "./app";
import type { Bindings } from "./env";
import { clockFromEnv, now } from "./lib/clock";
import { expireUnpaid } from "./reservations/reservations.repo";
import { consume, dispatchDue, type DeliveryMessage } from "./webhooks/delivery";

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
    // Expiry makes events; the sweeper then queues them with whatever no queue took (and runs
    // even when the expiry failed).
    ctx.waitUntil(Promise.all([expireUnpaid(env.DB).finally(() => dispatchDue(env)), housekeeping(env)]));
  },
} satisfies ExportedHandler<Bindings, DeliveryMessage>;

/** Drops idempotency keys past their 24 h and tokens expired for a day. */
export async function housekeeping(env: Bindings) {
  const dayAgo = new Date(now() - 86_400_000).toISOString();
  await env.DB.batch([
    env.DB.prepare("DELETE FROM idempotency_keys WHERE created_at < ?").bind(dayAgo),
    env.DB.prepare("DELETE FROM access_tokens WHERE expires_at < ?").bind(dayAgo),
  ]);
}
