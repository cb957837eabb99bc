/**
 * The cron (every minute): housekeeping of the control database (the console's expired sessions,
 * links and passkey challenges among it), and in every shard the PREPAY expiry, the no-shows, the
 * webhook sweeper and retention (the audit log's 13 months among it). Shards run side by side, a few
 * at a time, each within a time budget of its own: a slow shard stops its own work, never another's.
 */
import { purgeAudit } from "./audit/audit.repo";
import { purgeTokens } from "./auth/clients.repo";
import { config } from "./config";
import { dropExpiredConsoleRows } from "./console/sessions.repo";
import { controlDb } from "./db/handles";
import type { Bindings } from "./env";
import { now } from "./lib/clock";
import { purgeKeys } from "./lib/idempotency.repo";
import { purgeMessages } from "./messages/messages.repo";
import { purgeOAuth } from "./oauth/tokens.repo";
import { dispatchDue } from "./outbox/dispatch";
import { expireUnpaidPayments } from "./payments/expiry";
import { purgeEvents } from "./payments/payments.repo";
import { retryOwedRefunds } from "./payments/refunds";
import { purgeCatalogChanges } from "./properties/catalog.repo";
import { expireUnpaid } from "./reservations/expiry";
import { expireNoShows } from "./reservations/noshow";
import { checkIdRange, shardCount, shardD1, shardDb } from "./shards/shards";
import { expireOffers } from "./waitlist/offers";
import { purgeOffers } from "./waitlist/offers.repo";
import { purgeDeliveries } from "./webhooks/webhooks.repo";
import { wire } from "./wiring";

const DAY = 86_400_000;
/** Per shard and run; the cron runs every minute. */
export const SHARD_BUDGET_MS = 15_000;
const PARALLEL_SHARDS = 6;
/** Guard rows of catalog changes are kept a week (they only ever mattered inside their batch). */
const CATALOG_CHANGES_DAYS = 7;
/** Stripe's applied event ids, kept past its three days of retries. */
const STRIPE_EVENT_DAYS = 30;

/** The audit log keeps who did what for 13 months: a year of questions, and a month to ask them. */
const AUDIT_MONTHS = 13;

/** The instant `months` calendar months before `ms`. */
function monthsBefore(ms: number, months: number): string {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString();
}

const iso = (ms: number) => new Date(ms).toISOString();

function logged(where: string) {
  return (err: unknown) =>
    console.error(JSON.stringify({ level: "error", where, message: String((err as Error)?.stack ?? err) }));
}

/** Everything the cron does, over the control database and every shard. */
export async function scheduledWork(env: Bindings): Promise<void> {
  wire();
  const shards = Array.from({ length: shardCount(env) }, (_, i) => i);
  await Promise.all([
    housekeeping(env).catch(logged("housekeeping")),
    inParallel(shards, PARALLEL_SHARDS, (k) => shardWork(env, k, now() + SHARD_BUDGET_MS)),
  ]);
}

/**
 * Idempotency keys past their 24 h; tokens, codes and sign-in sessions expired for a day; the
 * console's sessions and single-use links as soon as they expire (nothing reads them after).
 */
export async function housekeeping(env: Bindings): Promise<void> {
  const dayAgo = iso(now() - DAY);
  const control = controlDb(env.DB);
  await Promise.all([
    purgeKeys(env.DB, dayAgo),
    purgeTokens(control, dayAgo),
    purgeOAuth(control, dayAgo),
    dropExpiredConsoleRows(control, iso(now())),
  ]);
}

/**
 * One shard's work, in order and each step on its own: expiry and no-shows make events, the sweeper then
 * queues them with whatever no queue took (even when the expiry failed), and retention last.
 */
export async function shardWork(env: Bindings, shard: number, until: number): Promise<void> {
  const d1 = shardD1(env, shard);
  const where = (step: string) => logged(`cron ${step} on shard ${shard}`);
  const c = config(env);
  // expiry and no-shows write events, the sweeper attempts: ids from the shard's own range (checked
  // every minute, not once per isolate, so a range an earlier move left behind is repaired soon)
  await checkIdRange(env, shard).catch(where("id range"));
  await expireUnpaid(shardDb(d1), { until, linkSecret: c.linkSecret }).catch(where("expiry"));
  // Bookings paying through Stripe: Stripe is asked first (a lost event never expires a paid booking).
  await expireUnpaidPayments(shardDb(d1), c.stripe, { until, linkSecret: c.linkSecret }).catch(
    where("payments expiry"),
  );
  // Refunds owed by cancelled bookings that Stripe has not made yet (down, or refusing): tried again.
  await retryOwedRefunds(shardDb(d1), c.stripe, { until, linkSecret: c.linkSecret }).catch(
    where("owed refunds"),
  );
  await expireNoShows(shardDb(d1), { until, linkSecret: c.linkSecret }).catch(where("no-shows"));
  await expireOffers(d1, shardDb(d1), c.linkSecret, until).catch(where("offer expiry"));
  await dispatchDue(env, shard, { until }).catch(where("sweeper"));
  if (now() > until) return;
  await purgeDeliveries(d1, iso(now() - c.webhookRetentionDays * DAY), 1000).catch(
    where("webhook retention"),
  );
  await purgeMessages(d1, iso(now() - c.messageRetentionDays * DAY), 1000).catch(where("message retention"));
  await purgeOffers(d1, iso(now() - c.messageRetentionDays * DAY), 1000).catch(where("offer retention"));
  await purgeEvents(shardDb(d1), iso(now() - STRIPE_EVENT_DAYS * DAY)).catch(
    where("stripe events retention"),
  );
  await purgeCatalogChanges(shardDb(d1), iso(now() - CATALOG_CHANGES_DAYS * DAY)).catch(
    where("catalog retention"),
  );
  await purgeAudit(shardDb(d1), monthsBefore(now(), AUDIT_MONTHS), 1000).catch(where("audit retention"));
}

/** Runs `work` over `items`, at most `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}
