// npm run bench: seeds a busy restaurant into local D1 databases, drives the running Worker
// with autocannon and prints requests/s, p50/p99 latencies and two ratios with their targets.
// A measurement, not a test: it exits 0 whatever the figures, non-zero only when something
// breaks (the server does not start, seeding fails, most requests fail).
//
//   BENCH_DURATION=10   seconds of load per route (default 10; the 5 rounds per database of the
//                       latency ratio use 40% of it)
//   BENCH_OUT=file.json also write the results as JSON
//   BENCH_KEEP=1        keep the temporary databases (their paths are printed)
//   BENCH_ONLY=a,b      only these parts (default all): api (load on the integrator API),
//                       webhooks (delivery to a local receiver), widget (bundle size, time to
//                       first times, Lighthouse)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, freePort, migrate, startDev } from "./dev-server.mjs";
import { createClient, fetchRetry } from "./bench/api.mjs";
import { benchWidget, widgetLines } from "./bench/widget.mjs";
import * as seed from "./bench/seed.mjs";
import { ensureDeps } from "./setup.mjs";

// autocannon is a devDependency: install the packages first on a fresh checkout.
ensureDeps();
const { combineGets, combinePairs, measureGet, measurePairs, tokenRotor } = await import("./bench/load.mjs");
const { measureWebhooks } = await import("./bench/webhooks.mjs");

const PARTS = ["api", "webhooks", "widget"];
const ONLY = new Set((process.env.BENCH_ONLY ?? PARTS.join(",")).split(",").map((s) => s.trim()));
for (const part of ONLY) if (!PARTS.includes(part)) throw new Error(`BENCH_ONLY: unknown part "${part}" (parts: ${PARTS.join(", ")})`);
/** Everything measured, written to BENCH_OUT at the end. */
const report = { date: new Date().toISOString() };

const DURATION = Math.max(1, Number(process.env.BENCH_DURATION) || 10);
const RATIO_DURATION = Math.max(1, Math.round(DURATION * 0.4));
const RATIO_ROUNDS = 5;
const CONNECTIONS = 10;
const WARMUP = 2;
const PASSES = 2;
// Enough clients that no one of them reaches 600 requests in a minute at thousands of req/s.
const LOAD_CLIENTS = 300;
const PER_DAY = 150;
const DAYS = 100;
const BIG = 100_000;
// The week whose slots are compared: days 20..26 from today, with the same 1,001 parties in
// the 1,000-reservation database and in the 100,000-reservation one.
const WEEK_OFFSET = 20;
const WEEK_PER_DAY = 143;

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const say = (line) => console.log(`[bench ${elapsed().padStart(5)}] ${line}`);

const servers = [];
const tempDirs = [];
const workerLog = [];

async function cleanup() {
  await Promise.all(servers.splice(0).map((s) => s.stop().catch(() => {})));
  if (!process.env.BENCH_KEEP) for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    console.error(`\nbench: ${signal}, stopping the servers`);
    await cleanup();
    process.exit(130);
  });
}

// A throw inside a load callback would end the process and leave wrangler dev running.
for (const event of ["uncaughtException", "unhandledRejection"]) {
  process.on(event, async (err) => {
    console.error(`\nbench failed: ${err?.stack ?? err}`);
    await cleanup();
    process.exit(1);
  });
}

/** A fresh local D1 with a running wrangler dev on it, the API client and the catalog. */
async function newPhase(name) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  tempDirs.push(dir);
  await migrate(dir);
  const log = (line) => {
    if (/Scheduled Workers|trigger a scheduled event|curl ".*scheduled"|cron-triggers/.test(line)) return;
    workerLog.push(`[${name}] ${line}`);
  };
  const server = await startDev({ port: await freePort(), persistTo: dir, log });
  servers.push(server);
  const owner = await createClient(server.url, `bench-${name}`);
  const catalog = await seed.createCatalog(server.url, owner);
  return { name, dir, server, url: server.url, owner, catalog, next: { reservation: 1, customer: 1 } };
}

async function seedDays(phase, days, label) {
  const t = performance.now();
  const r = seed.reservationsSql(phase.catalog, days, phase.next);
  await seed.writeAndRun(phase.dir, phase.dir, `${label}.sql`, r.sql);
  say(`${phase.name}: wrote ${r.reservations.toLocaleString("en")} reservations (${r.holds.toLocaleString("en")} table holds) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return r;
}

/** Extra API clients granted the property, so the load is not held back by per-client limits. */
async function addLoadClients(phase) {
  const { sql, tokens } = seed.benchClientsSql(phase.catalog.propertyId, LOAD_CLIENTS);
  await seed.writeAndRun(phase.dir, phase.dir, "clients.sql", sql);
  for (const token of [tokens[0], tokens.at(-1)]) {
    const res = await fetchRetry(`${phase.url}/api/v2/properties/${phase.catalog.propertyId}`, { headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`a seeded load token is refused: ${res.status} ${await res.text()}`);
  }
  phase.tokens = tokens;
  phase.auth = { rotor: tokenRotor(tokens), property: phase.catalog.propertyId };
}

async function counts(phase) {
  const pid = phase.catalog.propertyId;
  const [c] = await seed.query(
    phase.dir,
    `SELECT
       (SELECT count(*) FROM rooms WHERE property_id = ${pid} AND deleted_at IS NULL) AS rooms,
       (SELECT count(*) FROM dining_tables WHERE property_id = ${pid} AND deleted_at IS NULL AND is_group = 0) AS tables,
       (SELECT count(*) FROM dining_tables WHERE property_id = ${pid} AND deleted_at IS NULL AND is_group = 1) AS groups_,
       (SELECT count(*) FROM services WHERE property_id = ${pid} AND deleted_at IS NULL) AS services,
       (SELECT count(*) FROM reservations) AS reservations,
       (SELECT count(*) FROM reservations WHERE status = 'ACCEPTED') AS accepted,
       (SELECT count(*) FROM reservation_tables) AS holds,
       (SELECT count(DISTINCT start_date) FROM reservations WHERE status = 'ACCEPTED') AS days,
       (SELECT count(*) FROM customers) AS customers`,
  );
  return { rooms: c.rooms, tables: c.tables, groups: c.groups_, services: c.services, reservations: c.reservations, accepted: c.accepted, holds: c.holds, days: c.days, customers: c.customers };
}

function printCounts(phase, c) {
  say(
    `${phase.name}: ${c.rooms} rooms, ${c.tables} tables + ${c.groups} groups, ${c.services} services, ` +
      `${c.reservations.toLocaleString("en")} reservations (${c.accepted.toLocaleString("en")} accepted over ${c.days} days, ` +
      `${c.holds.toLocaleString("en")} table holds), ${c.customers.toLocaleString("en")} customers`,
  );
}

/** Next reservation and customer ids of a database that the API has written to as well. */
async function syncIds(phase) {
  const [m] = await seed.query(phase.dir, "SELECT (SELECT coalesce(max(id), 0) FROM reservations) AS r, (SELECT coalesce(max(id), 0) FROM customers) AS c");
  phase.next = { reservation: m.r + 1, customer: m.c + 1 };
}

const fmt = (v, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : "-");

function row(label, r) {
  const non2xx = r.non2xx + (r.errors ?? 0) + (r.timeouts ?? 0);
  return `${label.padEnd(36)}${fmt(r.rps).padStart(9)}${fmt(r.p50, 2).padStart(10)}${fmt(r.p99, 2).padStart(10)}${String(non2xx).padStart(9)}`;
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** wrangler's error lines, grouped by their message (first line, ids and paths blurred). */
function summariseErrors(lines) {
  const groups = new Map();
  for (const raw of lines) {
    const line = raw.replace(ANSI, "");
    if (!/error|exception|uncaught/i.test(line)) continue;
    let text = line;
    const json = line.match(/\{"level".*\}/);
    if (json) {
      try {
        const entry = JSON.parse(json[0]);
        text = `${line.slice(0, line.indexOf("]") + 1)} ${String(entry.message ?? "").split("\n")[0]}`;
      } catch {
        // keep the raw line
      }
    }
    text = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>").slice(0, 240);
    groups.set(text, (groups.get(text) ?? 0) + 1);
  }
  return [...groups].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count);
}

/** A route is broken when most of its requests fail, or none were made. */
function broken(r) {
  const failed = r.non2xx + (r.errors ?? 0) + (r.timeouts ?? 0);
  return r.requests === 0 || failed > r.requests / 2;
}

/** A random create on day 30..99 at a random time of a random service, for 2 to 4 guests. */
function bookingMaker(catalog, today) {
  const grids = seed.SERVICES.map(({ start_hour, end_hour }) => {
    const out = [];
    for (let m = seed.localMinutes("2000-01-01", start_hour); m <= seed.localMinutes("2000-01-01", end_hour); m += 15) {
      out.push(new Date(m * 60000).toISOString().slice(11, 19));
    }
    return out;
  });
  let booked = 0;
  return () => {
    const s = Math.random() < 0.5 ? 2 : Math.floor(Math.random() * 2); // half of them at dinner
    const grid = grids[s];
    const n = booked++;
    return {
      start_date: seed.addDays(today, 30 + Math.floor(Math.random() * (DAYS - 30))),
      start_hour: grid[Math.floor(Math.random() * grid.length)],
      pax: 2 + Math.floor(Math.random() * 3),
      service_id: catalog.services[s],
      customer: { first_name: "Bench", last_name: `Guest ${n % 200}`, email: `bench.guest${n % 200}@load.example` },
    };
  };
}

/** Webhooks: a restaurant of its own with 30 busy days, then the receiver's figures. */
async function webhooksPart() {
  const phase = await newPhase("webhooks");
  say(`webhooks: wrangler dev on ${phase.url}, D1 in ${phase.dir}`);
  const today = seed.today();
  const days = [];
  for (let d = 0; d < 30; d++) days.push([seed.addDays(today, d), PER_DAY]);
  await seedDays(phase, days, "webhooks");
  await addLoadClients(phase);
  say(`measuring webhook delivery: ${DURATION} s of creates and cancellations, then a backlog of 2,000 changes`);
  const w = await measureWebhooks({
    phase,
    measurePairs,
    booking: bookingMaker(phase.catalog, today),
    duration: DURATION,
    connections: CONNECTIONS,
    query: seed.query,
    execSql: (sql) => seed.writeAndRun(phase.dir, phase.dir, "backlog.sql", sql),
    say,
  });
  const line = (label, r) =>
    `${label.padEnd(44)}${String(r.events).padStart(8)}${String(r.delivered).padStart(10)}${String(r.duplicates).padStart(6)}${fmt(r.perSecond).padStart(10)}${fmt(r.p50, 0).padStart(9)}${fmt(r.p99, 0).padStart(9)}`;
  console.log(
    [
      "",
      `Webhooks to a local receiver (signed, one delivery per event; latency = receiver's answer - the commit's created_at):`,
      `${"".padEnd(44)}${"events".padStart(8)}${"delivered".padStart(10)}${"dup".padStart(6)}${"events/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`,
      line(`during ${DURATION} s of API creates + cancellations`, w.sustained),
      line("a backlog of changes, swept by the cron", w.backlog),
      `the first row's events/s is the API's write rate (every write is one event); the second is the delivery capacity, draining ${w.backlog.events.toLocaleString("en")} events committed at once`,
    ].join("\n"),
  );
  return w;
}

async function main() {
  say(`duration ${DURATION} s per route, ${CONNECTIONS} connections, warm-up ${WARMUP} s; parts: ${[...ONLY].join(", ")}`);
  build();
  if (ONLY.has("api")) report.api = await apiPart();
  if (ONLY.has("webhooks")) report.webhooks = await webhooksPart();
  if (ONLY.has("widget")) report.widget = await widget();
  if (process.env.BENCH_OUT) {
    writeFileSync(process.env.BENCH_OUT, JSON.stringify(report, (k, v) => (k === "samples" && !(Array.isArray(v) && v.length <= 20) ? undefined : v), 2) + "\n");
    say(`results written to ${process.env.BENCH_OUT}`);
  }
  if (process.env.BENCH_KEEP) say(`kept the databases: ${tempDirs.join(", ")}`);
  say(`done in ${elapsed()}`);
}

async function apiPart() {
  const today = seed.today();
  const week = seed.addDays(today, WEEK_OFFSET);
  const inWeek = (d) => d >= WEEK_OFFSET && d < WEEK_OFFSET + 7;
  const dayList = (from, to) => {
    const out = [];
    for (let d = from; d < to; d++) out.push([seed.addDays(today, d), inWeek(d) ? WEEK_PER_DAY : PER_DAY]);
    return out;
  };

  // ---- the busy restaurant: 150 reservations a day over 100 days ----
  const main = await newPhase("busy");
  say(`busy: wrangler dev on ${main.url}, D1 in ${main.dir}`);
  await seedDays(main, dayList(0, DAYS), "busy");
  await addLoadClients(main);
  const busyCounts = await counts(main);
  printCounts(main, busyCounts);

  // ---- the 1,000-reservation database: the compared week only ----
  const small = await newPhase("1k");
  say(`1k: wrangler dev on ${small.url}, D1 in ${small.dir}`);
  await seedDays(small, dayList(WEEK_OFFSET, WEEK_OFFSET + 7), "1k");
  await addLoadClients(small);
  const smallCounts = await counts(small);
  printCounts(small, smallCounts);

  const pid = main.catalog.propertyId;
  const slotsPath = `/api/v2/bookings/slots?start_date=${week}&pax=2`;
  const roomsPath = `/api/v2/bookings/rooms?start_date=${week}&start_hour=20:00:00&pax=2`;
  const common = { url: main.url, connections: CONNECTIONS };

  const booking = bookingMaker(main.catalog, today);

  // Each route runs in PASSES passes of DURATION / PASSES seconds, the passes one after the
  // other over all routes, so a slow spell of the machine does not land on one route only.
  const routes = [
    ["healthz", "GET /healthz", (o) => measureGet({ ...o, path: "/healthz" })],
    ["property", "GET /properties/{id}", (o) => measureGet({ ...o, path: `/api/v2/properties/${pid}`, auth: { rotor: main.auth.rotor } })],
    ["slots", "GET /bookings/slots", (o) => measureGet({ ...o, path: slotsPath, auth: main.auth })],
    ["rooms", "GET /bookings/rooms", (o) => measureGet({ ...o, path: roomsPath, auth: main.auth })],
    ["pairs", "POST+DELETE /reservations", (o) => measurePairs({ ...o, auth: main.auth, booking })],
  ];
  const runs = Object.fromEntries(routes.map(([key]) => [key, []]));
  for (let pass = 0; pass < PASSES; pass++) {
    say(`measuring the busy restaurant, pass ${pass + 1} of ${PASSES}`);
    for (const [key, label, measure] of routes) {
      const r = await measure({ ...common, duration: DURATION / PASSES, warmup: pass === 0 ? WARMUP : 1 });
      runs[key].push(r);
      say(`  ${label}: ${fmt(r.rps)} ${key === "pairs" ? "pairs" : "req"}/s, p50 ${fmt(r.p50)} ms`);
    }
  }
  const results = {};
  for (const [key] of routes) results[key] = key === "pairs" ? combinePairs(runs[key]) : combineGets(runs[key]);

  // ---- grow the busy database to 100,000 reservations: more days, the same compared week ----
  await syncIds(main);
  const extraDays = Math.ceil((BIG - busyCounts.accepted) / PER_DAY);
  await seedDays(main, dayList(DAYS, DAYS + extraDays), "100k");
  main.name = "100k";
  const bigCounts = await counts(main);
  printCounts(main, bigCounts);

  // ---- slots latency, 100k vs 1k: interleaved rounds so drift hits both alike ----
  // Both databases hold the same catalog and the same parties that week: same answer.
  const [answerSmall, answerBig] = await Promise.all(
    [small, main].map(async (p) => {
      const res = await fetchRetry(p.url + slotsPath, { headers: { Authorization: `Bearer ${p.tokens[0]}`, Property: String(p.catalog.propertyId) } });
      if (res.status !== 200) throw new Error(`GET ${slotsPath} on ${p.name} answered ${res.status}: ${await res.text()}`);
      return JSON.stringify((await res.json()).data);
    }),
  );
  const sameAnswer = answerSmall === answerBig;

  // Rounds alternate which database goes first, so drift and noise from the rest of the
  // machine hit both alike; the ratio is the median of the rounds' p50 ratios.
  say(`slots latency: ${RATIO_ROUNDS} rounds of ${RATIO_DURATION} s on each database, interleaved`);
  const ratioRuns = { "1k": [], "100k": [] };
  const roundRatios = [];
  for (let round = 0; round < RATIO_ROUNDS; round++) {
    const order = [
      ["1k", small],
      ["100k", main],
    ];
    if (round % 2) order.reverse();
    for (const [key, phase] of order) {
      const warmup = round < 2 ? WARMUP : 1;
      ratioRuns[key].push(await measureGet({ url: phase.url, path: slotsPath, auth: phase.auth, connections: CONNECTIONS, duration: RATIO_DURATION, warmup }));
    }
    roundRatios.push(ratioRuns["100k"][round].p50 / ratioRuns["1k"][round].p50);
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const merged = (runs) => {
    const requests = runs.reduce((n, r) => n + r.requests, 0);
    const seconds = runs.reduce((n, r) => n + r.duration, 0);
    const statuses = {};
    for (const r of runs) for (const [code, c] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + c;
    return {
      requests,
      rps: requests / seconds,
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      statuses,
      errors: runs.reduce((n, r) => n + r.errors, 0),
      timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
      rounds: runs.map((r) => ({ rps: r.rps, p50: r.p50, p99: r.p99 })),
    };
  };
  results.slots1k = merged(ratioRuns["1k"]);
  results.slots100k = merged(ratioRuns["100k"]);

  // ---- report ----
  const throughputRatio = results.slots.rps / results.property.rps;
  const latencyRatio = median(roundRatios);
  const ratios = {
    slotsPerOneRecordThroughput: { value: throughputRatio, target: ">= 0.5", ok: throughputRatio >= 0.5 },
    slotsLatency100kPer1k: { value: latencyRatio, target: "<= 1.2", ok: latencyRatio <= 1.2, rounds: roundRatios, sameAnswer },
  };

  const rateLimited = Object.values(results).reduce((n, r) => n + (r.statuses?.["429"] ?? 0), 0);
  const lines = [
    "",
    `Busy restaurant: ${busyCounts.rooms} rooms, ${busyCounts.tables} tables + ${busyCounts.groups} groups, ${busyCounts.services} services, ` +
      `${busyCounts.accepted.toLocaleString("en")} reservations over ${busyCounts.days} days (${Math.round(busyCounts.accepted / busyCounts.days)} a day); ` +
      `${CONNECTIONS} connections, ${DURATION} s per route (${PASSES} passes); latencies in ms; slots/rooms for the week of ${week}`,
    "",
    `${"route".padEnd(36)}${"req/s".padStart(9)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}${"non-2xx".padStart(9)}`,
    row("GET /healthz (no database)", results.healthz),
    row("GET /properties/{id}", results.property),
    row("GET /bookings/slots (7 days)", results.slots),
    row("GET /bookings/rooms", results.rooms),
    row("POST+DELETE /reservations (pair)", results.pairs),
    row("  POST /reservations alone", { ...results.pairs.post, rps: NaN, non2xx: Object.entries(results.pairs.createStatuses).reduce((n, [s, c]) => (s === "201" ? n : n + c), 0) }),
    row("  DELETE /reservations/{id} alone", { ...results.pairs.delete, rps: NaN, non2xx: Object.entries(results.pairs.deleteStatuses).reduce((n, [s, c]) => (s === "200" ? n : n + c), 0) }),
    row(`GET /bookings/slots, 1k reservations`, results.slots1k),
    row(`GET /bookings/slots, ${Math.round(bigCounts.accepted / 1000)}k reservations`, results.slots100k),
    "",
    `pair = POST then DELETE of the reservation just created (req/s column: pairs/s); creates answered ${JSON.stringify(results.pairs.createStatuses)}` +
      `${Object.keys(results.pairs.createErrors).length ? ` (refusals: ${JSON.stringify(results.pairs.createErrors)})` : ""}, deletes ${JSON.stringify(results.pairs.deleteStatuses)}`,
    `1k vs 100k: the same week (${(WEEK_PER_DAY * 7).toLocaleString("en")} parties) in a database of ${smallCounts.accepted.toLocaleString("en")} vs ${bigCounts.accepted.toLocaleString("en")} reservations; ` +
      `same slots in both: ${sameAnswer ? "yes" : "NO"}; ${RATIO_ROUNDS} interleaved rounds of ${RATIO_DURATION} s, p50 ms 1k/100k per round: ` +
      results.slots1k.rounds.map((r, i) => `${fmt(r.p50)}/${fmt(results.slots100k.rounds[i].p50)}`).join(", ") +
      `; the ratio is the median of the rounds' p50 ratios (${roundRatios.map((x) => fmt(x, 2)).join(", ")})`,
    rateLimited ? `note: ${rateLimited} responses were 429 (rate limited)` : "no request was rate limited (429)",
    "",
    `ratio slots/one-record throughput = ${fmt(throughputRatio, 2)} (target >= 0.5)  ${ratios.slotsPerOneRecordThroughput.ok ? "OK" : "BELOW TARGET"}`,
    `ratio slots latency 100k/1k      = ${fmt(latencyRatio, 2)} (target <= 1.2)  ${ratios.slotsLatency100kPer1k.ok ? "OK" : "ABOVE TARGET"}`,
  ];
  console.log(lines.join("\n"));

  const problems = summariseErrors(workerLog);
  if (problems.length) {
    console.log(`\nwrangler dev logged errors:`);
    for (const { count, text } of problems.slice(0, 8)) console.log(`  ${String(count).padStart(5)} x ${text}`);
  }

  const out = {
    date: new Date().toISOString(),
    today,
    week,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    phases: { busy: busyCounts, "1k": smallCounts, "100k": bigCounts },
    routes: {
      healthz: results.healthz,
      property: results.property,
      slots: results.slots,
      rooms: results.rooms,
      createThenDelete: results.pairs,
      slots1k: results.slots1k,
      slots100k: results.slots100k,
    },
    ratios,
    workerErrors: summariseErrors(workerLog),
    elapsedSeconds: (performance.now() - started) / 1000,
  };
  const failed = Object.entries({ healthz: results.healthz, property: results.property, slots: results.slots, rooms: results.rooms, pairs: results.pairs, slots1k: results.slots1k, slots100k: results.slots100k }).filter(([, r]) => broken(r));
  const creates = Object.values(results.pairs.createStatuses).reduce((a, b) => a + b, 0);
  if (results.pairs.pairs < creates / 2) failed.push(["create-then-delete (fewer than half the creates were followed by a deletion)"]);
  if (failed.length) throw new Error(`most requests failed on: ${failed.map(([k]) => k).join(", ")}`);
  return out;
}

/** The widget's figures, on their own wrangler dev with the demo restaurant. */
async function widget() {
  say("widget: bundle size, time to first times on the hosted booking page, Lighthouse");
  const w = await benchWidget({ port: await freePort(), say });
  console.log(["", ...widgetLines(w)].join("\n"));
  return w;
}

try {
  await main();
  await cleanup();
} catch (err) {
  console.error(`\nbench failed: ${err?.stack ?? err}`);
  if (workerLog.length) {
    console.error("\nlast wrangler output:");
    for (const l of workerLog.slice(-30)) console.error(`  ${l}`);
  }
  await cleanup();
  process.exitCode = 1;
}
