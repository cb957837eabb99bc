/** The Worker's doors: fetch (API, pages, docs) and scheduled (unpaid PREPAY expiry, housekeeping). */
import { createApp } from "./app";
import type { Bindings } from "./env";
import { expireUnpaid } from "./reservations/reservations.repo";

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(Promise.all([expireUnpaid(env.DB), housekeeping(env)]));
  },
} satisfies ExportedHandler<Bindings>;

/** Drops idempotency keys past their 24 h and tokens expired for a day. */
export async function housekeeping(env: Bindings) {
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  await env.DB.batch([
    env.DB.prepare("DELETE FROM idempotency_keys WHERE created_at < ?").bind(dayAgo),
    env.DB.prepare("DELETE FROM access_tokens WHERE expires_at < ?").bind(dayAgo),
  ]);
}
