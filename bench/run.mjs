// The bench's run, once its packages are installed (bench/bench.mjs says what it measures).
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { build, freePort } from "../scripts/dev-server.mjs";
import { apiPart } from "./parts/api-part.mjs";
import { consoleLivePart } from "./parts/console-live.mjs";
import { consoleUiPart } from "./parts/console-ui.mjs";
import { deliveryPart } from "./parts/delivery.mjs";
import { dropPart } from "./parts/drop.mjs";
import { feedsPart } from "./parts/feeds.mjs";
import { goalLines, goalsOf } from "./parts/goals.mjs";
import { paymentsPart } from "./parts/payments.mjs";
import { cleanup, keptDirs, tempDir, workerLog } from "./parts/phase.mjs";
import { elapsed, printErrors, say, summariseErrors } from "./parts/report.mjs";
import { searchenginePart } from "./parts/searchengine.mjs";
import { shardsPart } from "./parts/shards.mjs";
import { storagePart } from "./parts/storage.mjs";
import { uploadPart } from "./parts/upload.mjs";
import { webhooksPart } from "./parts/webhooks.mjs";
import { benchWidget, widgetLines } from "./parts/widget.mjs";

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
  payments: paymentsPart,
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
