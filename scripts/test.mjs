// npm test: every test. The checks and the build first; then three lanes side by side: the
// typechecks and the Worker's tests, the browser suites on one shared Worker, and the end-to-end
// files that run `npm start` (each with servers of its own). Fails at the first failing stage,
// and a failing run fails its stage: nothing runs twice.
//
// The browser suites (the widget's and console's component tests, the end-to-end files that need
// only a Worker) run once on the real clock and again at each fixed instant of
// scripts/instants.mjs (TEST_INSTANTS=1), all on one wrangler dev whose clock each test file leases
// (tests/support/shared-worker.mjs): files at one clock side by side, another clock after them.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./dev-server.mjs";
import { ensureChromium, ensureDeps } from "./setup.mjs";

ensureDeps();
ensureChromium();
// imported once the packages are there (a fresh clone has none before ensureDeps)
const { startSharedWorker } = await import("../tests/support/shared-worker.mjs");

const bin = (name) => join(ROOT, "node_modules", ".bin", name);
const e2e = (files) => ["--test", "--test-concurrency=1", ...files.map((f) => join("tests", "e2e", f))];
/**
 * The end-to-end files on the shared Worker, in the order of the component tests' clocks (node
 * --test runs a command's files in the order of their names): the real clock's files, the widget's
 * on the real clock and then at each instant; last the console's, at a clock shifted to lunchtime.
 */
const SHARED_E2E = [
  ["body-limit.test.mjs", "embed.test.mjs", "hosted-language.test.mjs", "offers.test.mjs", "widget.test.mjs"],
  ["console.test.mjs"],
];
/**
 * Every other end-to-end file: each brings the servers it needs (npm start, the OAuth flow's, a
 * Stripe stand-in) or none. Read from the folder, so a new file runs even if named nowhere here.
 */
const OWN_E2E = readdirSync(join(ROOT, "tests", "e2e"))
  .filter((f) => f.endsWith(".test.mjs") && !SHARED_E2E.flat().includes(f))
  .sort();
const one = (what, cmd, args) => ({ what, steps: [{ cmd, args }] });

/** The browser suites' Worker: started before their stage, named to its runs, stopped after. */
let shared;
const browserSuites = {
  name: "browser suites (component tests and end-to-end, one Worker; real clock and fixed instants)",
  async before() {
    shared = await startSharedWorker({ log: (line) => console.error(`[shared worker] ${line}`) });
    return { BE_SHARED_WORKER: shared.lease, TEST_INSTANTS: "1" };
  },
  after: () => shared?.stop(),
  runs: [
    one("widget and console component tests (web-test-runner, Chromium)", bin("wtr"), [
      "--config",
      "web-test-runner.config.mjs",
    ]),
    {
      what: "end-to-end tests on the shared Worker",
      steps: SHARED_E2E.map((files) => ({ cmd: process.execPath, args: e2e(files) })),
    },
  ],
};

const stages = [
  // The shape of the code (dependency rules, function lengths, no outside citations), the docs'
  // links, the format and the lint.
  {
    name: "code and docs checks",
    runs: [
      one("code shape (dependency-cruiser, function lengths, citations)", process.execPath, [
        join(ROOT, "scripts", "check-code.mjs"),
      ]),
      one("docs links", process.execPath, [join(ROOT, "scripts", "check-docs.mjs")]),
      one("format and lint (Biome)", bin("biome"), ["ci", "."]),
    ],
  },
  // The build, as `npm run deploy -- --dry-run` makes it: the checks that need no account, the
  // assets, and the Worker bundled by wrangler within its budget; then the sizes the docs quote,
  // against what that build measured. Later stages serve it as it is.
  {
    name: "build (npm run deploy -- --dry-run)",
    runs: [
      {
        what: "build, then the docs' figures against it (dist/figures.json)",
        steps: [
          { cmd: process.execPath, args: [join(ROOT, "scripts", "deploy.mjs"), "--dry-run"] },
          { cmd: process.execPath, args: [join(ROOT, "scripts", "check-docs.mjs"), "--figures"] },
        ],
      },
    ],
    after: () => {
      process.env.BOOKING_ENGINE_BUILT = "1";
    },
  },
  {
    together: [
      {
        name: "typechecks and worker tests (vitest in workerd, local D1)",
        runs: [
          {
            what: "typechecks, then the worker tests",
            steps: [
              { cmd: bin("tsc"), args: ["--noEmit"] },
              { cmd: bin("tsc"), args: ["--noEmit", "-p", "tsconfig.widget.json"] },
              { cmd: bin("vitest"), args: ["run"] },
            ],
          },
        ],
      },
      browserSuites,
      {
        name: "end-to-end tests with servers of their own (npm start, wrangler dev, Chromium)",
        runs: [one(OWN_E2E.join(", "), process.execPath, e2e(OWN_E2E))],
      },
    ],
  },
];

// TEST_STAGES=<text>: only the stages whose name contains it (e.g. "worker tests", "browser suites").
const wanted = (stage) => !process.env.TEST_STAGES || stage.name.includes(process.env.TEST_STAGES);
const chosen = stages
  .map((s) => (s.together ? { together: s.together.filter(wanted) } : s))
  .filter((s) => (s.together ? s.together.length : wanted(s)));
// Without the build stage the stages serve the build that is there (`npm run build` first): no end-to-end
// file rebuilds it under the shared Worker, which would then answer its assets with errors.
if (!chosen.some((s) => s.name?.startsWith("build"))) process.env.BOOKING_ENGINE_BUILT = "1";

/** Runs one command; a lone command streams its output, side-by-side ones keep it until they end. */
function run({ cmd, args }, env, stream) {
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

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** A run's commands one after the other, until one fails. */
async function runSteps(r, env, stream) {
  const started = Date.now();
  let output = "";
  for (const step of r.steps) {
    const done = await run(step, env, stream);
    output += done.output;
    if (done.code !== 0) return { code: done.code, output, took: seconds(started) };
  }
  return { code: 0, output, took: seconds(started) };
}

/** What failed, gathered for the end of the log (CI keeps only the log's tail). */
const failures = [];
/** The lines of a failed run that name what failed, each with what follows it; at most 300. */
function failureLines(output) {
  const lines = output
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((line) => !/workerd@|^uncaught exception|^exception = /.test(line));
  const marks = /^\s*(not ok\b|FAIL\b|\u274c|\u2717|\u00d7 )|\bAssertionError\b|\bTimed out\b/;
  const keep = new Set();
  lines.forEach((line, i) => {
    if (marks.test(line)) for (let j = i; j < Math.min(lines.length, i + 20); j++) keep.add(j);
  });
  const picked = [...keep].sort((a, b) => a - b).map((i) => lines[i]);
  return (picked.length ? picked : lines.slice(-120)).slice(0, 300).join("\n");
}

/** One stage: its runs side by side; `stream` when it is the only run going. */
async function runStage(stage, stream) {
  const started = Date.now();
  console.log(`\n=== ${stage.name}`);
  let failed = false;
  try {
    const env = (await stage.before?.()) ?? {};
    const lone = stream && stage.runs.length === 1;
    const results = await Promise.all(stage.runs.map((r) => runSteps(r, env, lone)));
    for (const [i, r] of results.entries()) {
      if (!lone) console.log(`--- ${stage.name}: ${stage.runs[i].what}\n${r.output.trimEnd()}`);
      console.log(
        `--- ${stage.runs[i].what}: ${r.code === 0 ? "ok" : `FAILED (exit ${r.code})`} in ${r.took}`,
      );
      if (r.code !== 0) {
        failed = true;
        failures.push(`--- ${stage.runs[i].what} (${stage.name})\n${failureLines(r.output)}`);
      }
    }
  } finally {
    await stage.after?.();
  }
  console.log(`=== ${stage.name}: ${failed ? "FAILED" : "ok"} in ${seconds(started)}`);
  return !failed;
}

const total = Date.now();
let count = 0;
for (const stage of chosen) {
  const group = stage.together ?? [stage];
  const passed = await Promise.all(group.map((s) => runStage(s, group.length === 1)));
  if (passed.includes(false)) {
    console.log(`\n=== what failed (repeated from above)\n${failures.join("\n")}`);
    process.exit(1);
  }
  count += group.reduce((n, s) => n + s.runs.length, 0);
}
console.log(`\n=== all ${count} runs of ${chosen.length} stages passed in ${seconds(total)}`);
