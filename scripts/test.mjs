// npm test: every test, in order of cost. Fails on the first failing stage.
// The browser suites (widget component tests, end-to-end widget tests) run once on the real
// clock, then again at each fixed instant of scripts/instants.mjs (DEV_CLOCK, BROWSER_ZONE); at
// each instant the two suites run side by side, each with its own wrangler dev (their guests'
// per-address budgets stay apart); tests that cannot depend on the clock (axe, layout, languages)
// are skipped there.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./dev-server.mjs";
import { INSTANTS } from "./instants.mjs";
import { ensureLocalSecrets } from "./ops-door.mjs";
import { ensureChromium, ensureDeps } from "./setup.mjs";

ensureDeps();
ensureChromium();

const bin = (name) => join(ROOT, "node_modules", ".bin", name);
// The end-to-end files in two lanes side by side (each file starts its own wrangler dev): those
// that run `npm start`, with the OAuth flow, and the rest.
const E2E_FIRST_LANE = [
  "start.test.mjs",
  "searchengine.test.mjs",
  "oauth.test.mjs",
  "typed-client.test.mjs",
  "newcomer.test.mjs",
];
const e2eFiles = readdirSync(join(ROOT, "tests", "e2e")).filter((f) => f.endsWith(".test.mjs"));
const e2eLane = (what, files) => ({
  what,
  cmd: process.execPath,
  args: ["--test", "--test-concurrency=1", ...files.map((f) => join("tests", "e2e", f))],
  retry: true,
});
const wtr = (env = {}, files = []) => ({
  what: "widget component tests",
  cmd: bin("wtr"),
  args: ["--config", "web-test-runner.config.mjs", ...files.flatMap((f) => ["--files", f])],
  env,
  retry: true,
});
// At the fixed instants: the files whose answers depend on the day, the hour or the zone (the
// message tables and the date grid's fixed months do not), to keep npm test near 10 minutes.
const TIMED_WIDGET_FILES = readdirSync(join(ROOT, "tests", "widget"))
  .filter((f) => f.endsWith(".test.ts") && !["locales.test.ts", "parts.test.ts"].includes(f))
  // of the console's, the day view (today in the restaurant's zone); its other views take their dates from the address
  .filter((f) => !f.startsWith("console-") || f === "console-day.test.ts")
  .map((f) => join("tests", "widget", f));
const e2eWidget = (env) => ({
  what: "end-to-end widget tests",
  cmd: process.execPath,
  args: ["--test", "--test-concurrency=1", join("tests", "e2e", "widget.test.mjs")],
  env,
  retry: true,
});
const one = (name, cmd, args) => ({ name, runs: [{ what: name, cmd, args }] });

const stages = [
  // The shape of the code (dependency rules, function lengths, no outside citations) and the docs' links.
  {
    name: "code and docs checks",
    runs: [
      {
        what: "code shape (dependency-cruiser, function lengths, citations)",
        cmd: process.execPath,
        args: [join(ROOT, "scripts", "check-code.mjs")],
      },
      { what: "docs links", cmd: process.execPath, args: [join(ROOT, "scripts", "check-docs.mjs")] },
      { what: "format and lint (Biome)", cmd: bin("biome"), args: ["ci", "."] },
    ],
  },
  // The build, as `npm run deploy -- --dry-run` makes it: the checks that need no account, the
  // assets, and the Worker bundled by wrangler within its budget.
  one("build (npm run deploy -- --dry-run)", process.execPath, [
    join(ROOT, "scripts", "deploy.mjs"),
    "--dry-run",
  ]),
  // The sizes the docs quote, against what that build measured (dist/figures.json).
  one("docs' figures against the build", process.execPath, [
    join(ROOT, "scripts", "check-docs.mjs"),
    "--figures",
  ]),
  // tsc is one thread and the browser suite mostly waits on wrangler and Chromium: side by side
  {
    name: "typecheck and widget component tests (web-test-runner, Chromium, wrangler dev)",
    runs: [
      { what: "typecheck", cmd: bin("tsc"), args: ["--noEmit"] },
      { what: "typecheck (widget)", cmd: bin("tsc"), args: ["--noEmit", "-p", "tsconfig.widget.json"] },
      wtr(),
    ],
  },
  one("worker tests (vitest in workerd, local D1)", bin("vitest"), ["run"]),
  {
    name: "end-to-end tests (wrangler dev, Chromium)",
    // npm start's secrets in .dev.vars first: wrangler dev reloads a running Worker when that file appears
    before: ensureLocalSecrets,
    runs: [
      e2eLane("npm start, search engine, OAuth", E2E_FIRST_LANE),
      e2eLane(
        "the rest",
        e2eFiles.filter((f) => !E2E_FIRST_LANE.includes(f)),
      ),
    ],
  },
  ...INSTANTS.map(({ clock, zone, what }) => {
    const env = { DEV_CLOCK: clock, BROWSER_ZONE: zone };
    return {
      name: `browser suites at ${clock}: ${what}`,
      runs: [wtr(env, TIMED_WIDGET_FILES), e2eWidget(env)],
    };
  }),
];

// TEST_STAGES=<text>: only the stages whose name contains it (e.g. "browser suites at 2026-12-31").
const chosen = stages.filter((s) => !process.env.TEST_STAGES || s.name.includes(process.env.TEST_STAGES));

/** Runs one command; a lone command streams its output, side-by-side ones keep it until they end. */
function run({ cmd, args, env = {} }, stream) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: stream ? "inherit" : ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let output = "";
    child.stdout?.on("data", (c) => (output += c));
    child.stderr?.on("data", (c) => (output += c));
    child.on("exit", (code, signal) => resolve({ code: code ?? signal, output }));
  });
}

/**
 * A browser run that failed beside others runs once more, alone: Chromium and wrangler dev on two
 * cores can lose a race with the neighbouring run's load. The retry is said out loud, and counted;
 * a run that fails alone fails the stage.
 */
async function retryAlone(stage, i, first) {
  const what = stage.runs[i].what;
  if (!stage.runs[i].retry) return first;
  console.error(`\n=== ${stage.name}: ${what} failed (exit ${first.code}); running it once more, alone`);
  const again = await run(stage.runs[i], true);
  if (again.code === 0) retried.push(`${stage.name}: ${what}`);
  return again;
}

async function runStage(stage) {
  stage.before?.();
  const results = await Promise.all(stage.runs.map((r) => run(r, stage.runs.length === 1)));
  let failed = false;
  for (const [i, first] of results.entries()) {
    if (stage.runs.length > 1) console.log(`--- ${stage.runs[i].what}\n${first.output.trimEnd()}`);
    const r = first.code === 0 ? first : await retryAlone(stage, i, first);
    if (r.code !== 0) {
      failed = true;
      console.error(`\n=== ${stage.name}: ${stage.runs[i].what} FAILED (exit ${r.code})`);
    }
  }
  return !failed;
}

const retried = [];
const total = Date.now();
let count = 0;
for (const stage of chosen) {
  console.log(`\n=== ${stage.name}`);
  const started = Date.now();
  if (!(await runStage(stage))) process.exit(1);
  count += stage.runs.length;
  // what comes after the build stage serves its output as it is (scripts/dev-server.mjs build())
  if (stage.name.startsWith("build")) process.env.BOOKING_ENGINE_BUILT = "1";
  console.log(`=== ${stage.name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
if (retried.length)
  console.log(
    `\n=== passed only on a second run, alone (watch these):\n${retried.map((r) => `  ${r}`).join("\n")}`,
  );
console.log(
  `\n=== all ${count} runs in ${chosen.length} stages passed in ${((Date.now() - total) / 1000).toFixed(0)} s`,
);
