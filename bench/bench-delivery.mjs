// Delivery latency under load, run by hand: `node bench/bench-delivery.mjs [--seconds 20] [--rate 50]`.
//
// A fresh local D1 and wrangler dev; a few restaurants, each with its own API client, both webhook
// types subscribed to a local receiver (tests/receiver.mjs); then staff bookings and cancellations
// through the API at `rate` writes a second in all (each write is one webhook event and one email
// to the guest) for `seconds`. It prints p50/p99 from the commit to the receiver:
// - webhooks: the receiver's answer minus the event's created_at (in the signed body);
// - messages: the moment the send_email binding wrote the message (wrangler's local simulation
//   keeps each as an .eml file and logs its path; the file's mtime) minus the outbox row's
//   created_at (GET /reservations/{id}/messages), matched by Message-ID.
// Both are measured against the time the Worker's own transaction committed the change.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build, migrate, startDevOnFreePort } from "../scripts/dev-server.mjs";
import { createRestaurant, request } from "../scripts/restaurant.mjs";
import { startReceiver } from "../tests/receiver.mjs";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: process.env.BENCH_DURATION ?? "20" },
    rate: { type: "string", default: "50" },
    restaurants: { type: "string", default: "8" },
  },
});
const SECONDS = Number(values.seconds);
const RATE = Number(values.rate);
// Each client's rate limit is 600 requests a minute: the writes are spread over several.
const RESTAURANTS = Number(values.restaurants);

const CATALOG = {
  settings: {
    timezone: "Europe/Rome",
    locale: "en",
    average_stay: 60,
    slot_interval: 15,
    min_notice: 0,
    max_days_ahead: 120,
    cancel_notice: 0,
    max_online_pax: 10,
  },
  rooms: { Sala: Array.from({ length: 24 }, (_, i) => [`T${i + 1}`, 1, 4]) },
  groups: [],
  services: [
    { name: "Tutto il giorno", start_hour: "11:00", end_hour: "23:00", weekdays: [1, 2, 3, 4, 5, 6, 7] },
  ],
};

const percentile = (sorted, p) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
    : NaN;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (line) => console.log(line);

function summary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  };
}

/** One API call; a body that is not JSON (wrangler's own error pages) is kept as text. */
async function api(path, { method, token, property, body } = {}) {
  const headers = { Authorization: `Bearer ${token}`, Property: String(property) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(server.url + path, {
    method: method ?? (body ? "POST" : "GET"),
    headers,
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    return { status: res.status, text: text.slice(0, 200) };
  }
}

const fmt = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "n/a");

const dir = mkdtempSync(join(tmpdir(), "bench-delivery-"));
const emlFiles = [];
let server;
let receiver;

async function cleanup() {
  await receiver?.close().catch(() => {});
  await server?.stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, async () => {
    await cleanup();
    process.exit(130);
  });

try {
  build();
  await migrate(dir);
  const workerLog = [];
  const log = (line) => {
    if (process.env.BENCH_LOG) workerLog.push(line);
    // wrangler's local send_email keeps each message as an .eml file and logs its path.
    const m = /(\/\S+\.eml)\b/.exec(line);
    if (m) emlFiles.push(m[1]);
    else if (/\[wrangler:(warn|error)\]|✘|Error/.test(line) && !/Scheduled Workers/.test(line))
      console.error(`[wrangler] ${line}`);
  };
  server = await startDevOnFreePort({ persistTo: dir, log, logLevel: "info" });
  receiver = await startReceiver();
  say(
    `bench-delivery: wrangler dev on ${server.url}; ${RESTAURANTS} restaurants; ${RATE} writes/s for ${SECONDS} s`,
  );

  const restaurants = [];
  for (let i = 0; i < RESTAURANTS; i++) {
    const r = await createRestaurant(server.url, { name: `Bench ${i + 1}`, catalog: CATALOG });
    for (const webhook_type of ["RESERVATION_CREATED", "RESERVATION_UPDATED"]) {
      const sub = await request(server.url, "/api/v2/webhooks/subscription", {
        token: r.token,
        property: r.property_id,
        body: { endpoint: `${receiver.url}/hook/bench`, webhook_type },
      });
      if (sub.status !== 201) throw new Error(`subscription: ${sub.status} ${JSON.stringify(sub.json)}`);
    }
    restaurants.push({ ...r, service: r.services[0].id, reservations: [] });
  }

  // ---- the load: a pair (book, then cancel) every 2/RATE seconds, round robin over restaurants ----
  let n = 0;
  let writes = 0;
  const refused = {};
  const inFlight = new Set();
  const pair = async (r) => {
    const k = n++;
    const day = new Date(Date.now() + (1 + (k % 90)) * 86_400_000).toISOString().slice(0, 10);
    const slot = (k * 7) % 48; // 11:00 .. 22:45
    const hour = `${String(11 + Math.floor(slot / 4)).padStart(2, "0")}:${String((slot % 4) * 15).padStart(2, "0")}:00`;
    const body = {
      start_date: day,
      start_hour: hour,
      pax: 2,
      service_id: r.service,
      customer: { first_name: "Guest", last_name: `N${k}`, email: `guest-${k}@bench.example` },
    };
    const created = await api("/api/v2/reservations", { token: r.token, property: r.property_id, body });
    const refuse = (answer) => {
      refused[answer.status] = (refused[answer.status] ?? 0) + 1;
      if (refused[answer.status] < 3) console.error(answer.text ?? JSON.stringify(answer.json));
    };
    if (created.status !== 201) return refuse(created);
    writes++;
    const id = created.json.data[0].id;
    r.reservations.push(id);
    const cancelled = await api(`/api/v2/reservations/${id}`, {
      method: "DELETE",
      token: r.token,
      property: r.property_id,
    });
    if (cancelled.status === 200) writes++;
    else refuse(cancelled);
  };
  const started = Date.now();
  const interval = 2000 / RATE;
  for (let i = 0; Date.now() - started < SECONDS * 1000; i++) {
    const due = started + i * interval;
    if (due > Date.now()) await sleep(due - Date.now());
    const p = pair(restaurants[i % restaurants.length]).catch((err) => {
      refused.error = (refused.error ?? 0) + 1;
      if (refused.error <= 3) console.error(String(err?.stack ?? err).slice(0, 500));
    });
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  const loadSeconds = (Date.now() - started) / 1000;
  say(
    `  load: ${writes} writes in ${loadSeconds.toFixed(1)} s (${(writes / loadSeconds).toFixed(1)}/s)${Object.keys(refused).length ? `; refused ${JSON.stringify(refused)}` : ""}`,
  );

  // ---- wait until every event reached the receiver and every message the binding ----
  const hookIds = () =>
    new Set((receiver.hooks.get("bench")?.received ?? []).map((m) => m.headers["webhook-id"]));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && (hookIds().size < writes || emlFiles.length < writes)) await sleep(200);

  // ---- webhooks: receiver's answer minus the event's commit ----
  const seen = new Map();
  for (const m of receiver.hooks.get("bench")?.received ?? []) {
    const id = m.headers["webhook-id"];
    if (!seen.has(id)) seen.set(id, m.at - Date.parse(JSON.parse(m.body).created_at));
  }
  const webhooks = summary([...seen.values()]);

  // ---- messages: the .eml's write minus the outbox row's commit, by Message-ID ----
  const written = new Map();
  for (const file of emlFiles) {
    const text = readFileSync(file, "utf8");
    const id = /^Message-ID:\s*<([^>]+)>/im.exec(text)?.[1];
    if (id) written.set(id, statSync(file).mtimeMs);
  }
  const messageLatencies = [];
  let listed = 0;
  // by state: a cancelled booking's reminder is listed too (cancelled), and is not a message to wait for
  const states = {};
  for (const r of restaurants) {
    for (const id of r.reservations) {
      const res = await api(`/api/v2/reservations/${id}/messages`, {
        token: r.token,
        property: r.property_id,
      });
      if (res.status !== 200) break;
      for (const m of res.json.data) {
        listed++;
        states[m.state] = (states[m.state] ?? 0) + 1;
        const at = written.get(m.message_id.replace(/^<|>$/g, ""));
        if (at !== undefined) messageLatencies.push(at - Date.parse(m.created_at));
      }
    }
  }
  const messages = summary(messageLatencies);

  say(
    `  webhooks: ${webhooks.n} of ${writes} events delivered; commit to receiver p50 ${fmt(webhooks.p50)}, p99 ${fmt(webhooks.p99)}, max ${fmt(webhooks.max)}`,
  );
  say(
    messages.n
      ? `  messages: ${messages.n} sent and found as .eml files (${listed} listed: ${Object.entries(states)
          .map(([k, v]) => `${v} ${k}`)
          .join(
            ", ",
          )}); commit to binding p50 ${fmt(messages.p50)}, p99 ${fmt(messages.p99)}, max ${fmt(messages.max)}`
      : `  messages: none sent (${emlFiles.length} .eml files; no messages listed)`,
  );
  say(`  target: p99 under 2 s for both`);
  if (process.env.BENCH_LOG)
    (await import("node:fs")).writeFileSync(process.env.BENCH_LOG, workerLog.join("\n"));
} finally {
  await cleanup();
}
