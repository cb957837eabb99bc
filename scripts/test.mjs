// npm test: every test, in order of cost. Fails on the first failing stage.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./dev-server.mjs";
import { ensureChromium, ensureDeps } from "./setup.mjs";

ensureDeps();
ensureChromium();

const bin = (name) => join(ROOT, "node_modules", ".bin", name);
const e2e = readdirSync(join(ROOT, "tests", "e2e"))
  .filter((f) => f.endsWith(".test.mjs"))
  .map((f) => join("tests", "e2e", f));

const stages = [
  ["build", process.execPath, [join(ROOT, "scripts", "build.mjs")]],
  ["typecheck", bin("tsc"), ["--noEmit"]],
  ["typecheck (widget)", bin("tsc"), ["--noEmit", "-p", "tsconfig.widget.json"]],
  ["widget component tests (web-test-runner, Chromium, wrangler dev)", bin("wtr"), ["--config", "web-test-runner.config.mjs"]],
  ["worker tests (vitest in workerd, local D1)", bin("vitest"), ["run"]],
  ["end-to-end tests (wrangler dev, Chromium)", process.execPath, ["--test", "--test-concurrency=1", ...e2e]],
];

for (const [name, cmd, args] of stages) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`\n=== ${name}: FAILED (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
  console.log(`=== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
