// Webhook delivery under load: a local receiver (tests/receiver.mjs) subscribed to a
// busy restaurant's RESERVATION_CREATED and RESERVATION_UPDATED events, while the API takes
// creates and cancellations; then a backlog of events written at once and left to the cron's
// sweeper. Latency = the receiver's answer minus the event's created_at (the commit).
import { startReceiver } from "../../tests/receiver.mjs";
import { call } from "./api.mjs";
import { measurePairs, percentile } from "./load.mjs";
import { addLoadClients, newPhase, seedDays, shardQuery } from "./phase.mjs";
import { fmt, say } from "./report.mjs";
import * as seed from "./seed.mjs";

const HOOK = "bench";

/**
 * The running wrangler dev holds the SQLite file while it writes: a read from outside may meet
 * SQLITE_BUSY (wrangler sometimes reports it only as "internal error"), so it is tried again.
 */
async function patiently(what, fn) {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= 20) throw new Error(`${what}: ${err?.message ?? err}`);
      await new Promise((r) => setTimeout(r, 250 + i * 100));
    }
  }
}

async function received(receiver) {
  return receiver.hooks.get(HOOK)?.received ?? [];
}

/** Waits until the receiver holds `n` distinct events, or `timeoutMs` passed; answers the messages. */
async function settle(receiver, n, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await received(receiver);
    if (new Set(got.map((m) => m.headers["webhook-id"])).size >= n || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stats(messages, n, from) {
  const ids = new Set(messages.map((m) => m.headers["webhook-id"]));
  const latencies = messages
    .map((m) => m.at - Date.parse(JSON.parse(m.body).created_at))
    .sort((a, b) => a - b);
  const last = Math.max(...messages.map((m) => m.at));
  return {
    events: n,
    delivered: ids.size,
    duplicates: messages.length - ids.size,
    perSecond: ids.size / ((last - from) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    seconds: (last - from) / 1000,
  };
}

/** Subscribes the receiver to both event types of the restaurant's property. */
export async function subscribe(phase, r, receiver, hook) {
  for (const webhook_type of ["RESERVATION_CREATED", "RESERVATION_UPDATED"]) {
    await call(phase.url, "/api/v2/webhooks/subscription", {
      token: r.owner.token,
      property: r.catalog.propertyId,
      body: { endpoint: `${receiver.url}/hook/${hook}`, webhook_type },
    });
  }
}

/**
 * `phase`: a newPhase() with load clients (auth). `booking`: bodies of the creates of the
 * create-then-delete load. The events and the backlog live in the restaurant's shard.
 */
async function measureWebhooks({ phase, booking, duration, connections }) {
  const receiver = await startReceiver();
  try {
    await subscribe(phase, phase, receiver, HOOK);
    const query = (sql) => shardQuery(phase, phase, sql);
    const countEvents = async () =>
      (await patiently("count events", () => query("SELECT count(*) AS n FROM webhook_events")))[0].n;

    // ---- sustained: creates and cancellations through the API, each one an event ----
    const started = Date.now();
    const load = await measurePairs({
      url: phase.url,
      auth: phase.auth,
      booking,
      connections,
      duration,
      warmup: 0,
    });
    const n = await countEvents();
    const writes = (load.createStatuses["201"] ?? 0) + (load.deleteStatuses["200"] ?? 0);
    say(
      `  webhooks: ${writes} API writes (201 creates + 200 cancellations) made ${n} events; waiting for the receiver`,
    );
    const sustained = stats(await settle(receiver, n, 120_000), n, started);

    // ---- backlog: many changes committed at once, no dispatch after them; the cron sweeps ----
    const ids = await patiently("pick reservations", () =>
      query("SELECT id FROM reservations WHERE status = 'ACCEPTED' ORDER BY id DESC LIMIT 2000"),
    );
    receiver.hooks.get(HOOK).received = [];
    const backlogSql = `UPDATE reservations SET notes = 'bench backlog' WHERE id IN (${ids.map((r) => r.id).join(",")}); SELECT count(*) AS n FROM webhook_events`;
    // The write and the count in one wrangler run, and the cron right after it: each run of the
    // CLI takes seconds on a busy machine, and the p99 counts from the commit.
    const [, counted] = await patiently("write the backlog", () =>
      seed.queryAll(phase.dir, phase.binding, backlogSql),
    );
    const swept = Date.now();
    // wrangler dev --test-scheduled (scripts/dev-server.mjs) runs the cron handler on /__scheduled.
    const cron = await fetch(`${phase.url}/__scheduled`);
    if (!cron.ok) throw new Error(`the scheduled handler answered ${cron.status}`);
    const backlog = counted.results[0].n - n;
    const drained = stats(await settle(receiver, backlog, 300_000), backlog, swept);
    return { sustained, backlog: drained, apiWrites: load };
  } finally {
    await receiver.close();
  }
}

/**
 * Part "webhooks": a restaurant of its own with 30 busy days, placed on shard 1 so the seed's
 * ids above 10^12 meet the API's own writes there, then the receiver's figures.
 */
export async function webhooksPart({ duration, connections }) {
  const phase = await newPhase("webhooks", { shard: 1 });
  const today = seed.today();
  const days = [];
  for (let d = 0; d < 30; d++) days.push([seed.addDays(today, d), 150]);
  await seedDays(phase, phase, days, "webhooks");
  phase.auth = { ...(await addLoadClients(phase, [phase])), property: phase.catalog.propertyId };
  say(
    `measuring webhook delivery: ${duration} s of creates and cancellations, then a backlog of 2,000 changes`,
  );
  const booking = seed.bookingMaker(phase.catalog, today, { fromDay: 30, toDay: 100 });
  const w = await measureWebhooks({ phase, booking, duration, connections });
  await phase.stop();
  const line = (label, r) =>
    `${label.padEnd(44)}${String(r.events).padStart(8)}${String(r.delivered).padStart(10)}${String(r.duplicates).padStart(6)}${fmt(r.perSecond).padStart(10)}${fmt(r.p50, 0).padStart(9)}${fmt(r.p99, 0).padStart(9)}`;
  console.log(
    [
      "",
      `Webhooks to a local receiver (restaurant on shard ${phase.shard}; signed, one delivery per event; latency = receiver's answer - the commit's created_at):`,
      `${"".padEnd(44)}${"events".padStart(8)}${"delivered".padStart(10)}${"dup".padStart(6)}${"events/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`,
      line(`during ${duration} s of API creates + cancellations`, w.sustained),
      line("a backlog of changes, swept by the cron", w.backlog),
      `the first row's events/s is the API's write rate (every write is one event); the second is the delivery capacity, draining ${w.backlog.events.toLocaleString("en")} events committed at once`,
    ].join("\n"),
  );
  return { shard: phase.shard, ...w };
}
