// npm run bench: seeds restaurants into local D1 databases (a control database and two shards),
// drives the running Worker and prints requests/s, latencies, sizes and ratios with their
// targets. A measurement, not a test: it exits 0 whatever the figures, non-zero only when
// something breaks (the server does not start, seeding fails, most requests fail, a booking
// drop double-books).
//
//   BENCH_DURATION=10   seconds of load per route (default 10; the 5 rounds per database of the
//                       latency ratio use 40% of it)
//   BENCH_OUT=file.json also write the results as JSON
//   BENCH_KEEP=1        keep the temporary databases (their paths are printed)
//   BENCH_ONLY=a,b      only these parts (default all): api (load on the integrator API),
//                       webhooks (delivery to a local receiver), storage (bytes per reservation),
//                       drop (500 parallel bookings of one time), shards (two shards against one),
//                       searchengine (BatchAvailabilityLookup of 200 slots on the busy restaurant;
//                       SE_BENCH_REQUESTS, SE_BENCH_CONCURRENCY), feeds (the Worker's peak memory
//                       while it streams the availability feed of 1 and FEED_BENCH_MERCHANTS=50
//                       merchants), delivery (webhooks and
//                       guest messages, commit to receiver at 50 writes/s: scripts/bench-delivery.mjs),
//                       widget (bundle size, time to first times, Lighthouse), upload (the
//                       Worker's upload gzipped and its startup CPU: wrangler check startup),
//                       console-ui (the console's day view and timeline of 300 reservations
//                       rendered, in Chromium), console-live (the console's live feed: 20 bookings
//                       heard through the WebSocket and through the 10 s poll, an idle console's
//                       requests and D1 reads; LIVE_IDLE_SECONDS)
// Each part ends with its goals (figure, target, OK or BELOW: scripts/bench/goals.mjs) and the
// run with all of them.
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { goalLines, goalsOf } from "./bench/goals.mjs";
import { cleanup, keptDirs, tempDir, workerLog } from "./bench/phase.mjs";
import { elapsed, printErrors, say, summariseErrors } from "./bench/report.mjs";
import { benchWidget, widgetLines } from "./bench/widget.mjs";
import { build, freePort } from "./dev-server.mjs";
import { ensureDeps } from "./setup.mjs";

// autocannon is a devDependency: install the packages first on a fresh checkout.
ensureDeps();
const { apiPart } = await import("./bench/api-part.mjs");
const { webhooksPart } = await import("./bench/webhooks.mjs");
const { storagePart } = await import("./bench/storage.mjs");
const { dropPart } = await import("./bench/drop.mjs");
const { shardsPart } = await import("./bench/shards.mjs");
const { searchenginePart } = await import("./bench/searchengine.mjs");
const { feedsPart } = await import("./bench/feeds.mjs");
const { deliveryPart } = await import("./bench/delivery.mjs");
const { uploadPart } = await import("./bench/upload.mjs");
const { consoleUiPart } = await import("./bench/console-ui.mjs");
const { consoleLivePart } = await import("./bench/console-live.mjs");

const DURATION = Math.max(1, Number(process.env.BENCH_DURATION) || 10);
const options = { duration: DURATION, connections: 10, warmup: 2 };

/** The widget's figures, on their own wrangler dev with the demo restaurant. */
async function widgetPart() {
  say("widget: bundle size, time to first times on the hosted booking page, Lighthouse");
  const w = await benchWidget({ port: await freePort(), say });
  console.log(["", ...widgetLines(w)].join("\n"));
  return w;
}

const PARTS = {
  api: apiPart,
  webhooks: webhooksPart,
  storage: storagePart,
  drop: dropPart,
  shards: shardsPart,
  searchengine: searchenginePart,
  feeds: feedsPart,
  delivery: deliveryPart,
  widget: widgetPart,
  upload: uploadPart,
  "console-ui": () => consoleUiPart({ say }),
  "console-live": () => consoleLivePart(),
};
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? Object.keys(PARTS).join(",")).split(",").map((s) => s.trim()),
);
for (const part of ONLY)
  if (!PARTS[part])
    throw new Error(`BENCH_ONLY: unknown part "${part}" (parts: ${Object.keys(PARTS).join(", ")})`);

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

async function main() {
  const started = performance.now();
  /** Everything measured, written to BENCH_OUT at the end. */
  const report = {
    date: new Date().toISOString(),
    machine: `local wrangler dev, ${availableParallelism()} cores`,
  };
  say(
    `duration ${DURATION} s per route, ${options.connections} connections, warm-up ${options.warmup} s; parts: ${[...ONLY].join(", ")}`,
  );
  // wrangler writes a debug log of every request and subrequest (hundreds of MB per run) to
  // ~/.config/.wrangler/logs unless told otherwise: the bench's go with its databases.
  process.env.WRANGLER_LOG_PATH ??= tempDir("wrangler-logs");
  build();
  // In the order of PARTS, whatever the order of BENCH_ONLY.
  const ran = [];
  for (const [name, part] of Object.entries(PARTS)) {
    if (!ONLY.has(name)) continue;
    report[name] = await part(options);
    ran.push(name);
    console.log(goalLines(goalsOf(report, [name]), `Goals of part "${name}"`).join("\n"));
  }
  report.goals = goalsOf(report, ran);
  console.log(goalLines(report.goals, "Goals of the run").join("\n"));
  printErrors(workerLog);
  report.workerErrors = summariseErrors(workerLog);
  report.elapsedSeconds = (performance.now() - started) / 1000;
  if (process.env.BENCH_OUT) {
    const keepSamples = (k, v) => (k === "samples" && !(Array.isArray(v) && v.length <= 20) ? undefined : v);
    writeFileSync(process.env.BENCH_OUT, `${JSON.stringify(report, keepSamples, 2)}\n`);
    say(`results written to ${process.env.BENCH_OUT}`);
  }
  if (process.env.BENCH_KEEP) say(`kept the databases: ${keptDirs().join(", ")}`);
  say(`done in ${elapsed()}`);
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
