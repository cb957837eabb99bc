// Webhook delivery under load (issue 4): a local receiver (tests/receiver.mjs) subscribed to a
// busy restaurant's RESERVATION_CREATED and RESERVATION_UPDATED events, while the API takes
// creates and cancellations; then a backlog of events written at once and left to the cron's
// sweeper. Latency = the receiver's answer minus the event's created_at (the commit).
import { startReceiver } from "../../tests/receiver.mjs";
import { call } from "./api.mjs";
import { percentile } from "./load.mjs";

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
  const latencies = messages.map((m) => m.at - Date.parse(JSON.parse(m.body).created_at)).sort((a, b) => a - b);
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

/**
 * `phase`: a newPhase() of bench.mjs (url, owner, catalog, dir, auth). `measurePairs`, `booking`:
 * the create-then-delete load of bench.mjs. `query(dir, sql)`: reads the local D1.
 */
export async function measureWebhooks({ phase, measurePairs, booking, duration, connections, query, execSql, say }) {
  const receiver = await startReceiver();
  try {
    for (const webhook_type of ["RESERVATION_CREATED", "RESERVATION_UPDATED"]) {
      await call(phase.url, "/api/v2/webhooks/subscription", {
        token: phase.owner.token,
        property: phase.catalog.propertyId,
        body: { endpoint: `${receiver.url}/hook/${HOOK}`, webhook_type },
      });
    }
    const countEvents = async () => (await patiently("count events", () => query(phase.dir, "SELECT count(*) AS n FROM webhook_events")))[0].n;

    // ---- sustained: creates and cancellations through the API, each one an event ----
    const started = Date.now();
    const load = await measurePairs({ url: phase.url, auth: phase.auth, booking, connections, duration, warmup: 0 });
    const n = await countEvents();
    const writes = (load.createStatuses["201"] ?? 0) + (load.deleteStatuses["200"] ?? 0);
    say(`  webhooks: ${writes} API writes (201 creates + 200 cancellations) made ${n} events; waiting for the receiver`);
    const sustained = stats(await settle(receiver, n, 120_000), n, started);

    // ---- backlog: many changes committed at once, no dispatch after them; the cron sweeps ----
    const ids = await patiently("pick reservations", () => query(phase.dir, "SELECT id FROM reservations WHERE status = 'ACCEPTED' ORDER BY id DESC LIMIT 2000"));
    receiver.hooks.get(HOOK).received = [];
    await patiently("write the backlog", () => execSql(`UPDATE reservations SET notes = 'bench backlog' WHERE id IN (${ids.map((r) => r.id).join(",")});`));
    const backlog = (await countEvents()) - n;
    const swept = Date.now();
    // wrangler dev --test-scheduled (scripts/dev-server.mjs) runs the cron handler on /__scheduled.
    const cron = await fetch(`${phase.url}/__scheduled`);
    if (!cron.ok) throw new Error(`the scheduled handler answered ${cron.status}`);
    const drained = stats(await settle(receiver, backlog, 300_000), backlog, swept);
    return { sustained, backlog: drained, apiWrites: load };
  } finally {
    await receiver.close();
  }
}
