// Builds what the Worker serves as static assets: the docs UI and the widget bundle; with
// --worker (npm run build), also bundles the Worker as a deploy would and fails over its budget.
// Outside wrangler's own build, it first writes the console's API types from the Worker's OpenAPI
// document (widget/console/openapi.d.ts, scripts/api-types.mjs), which the widget's typecheck reads.
// --for-wrangler (wrangler.toml's [build] step): nothing under `wrangler dev` (npm start and the
// tests build before they start it) nor when the caller built already (BOOKING_ENGINE_BUILT=1).
//
// It builds into a folder of its own beside dist/public and switches it in with two renames, so a
// server never sees half a build, two builds at once never mix their files, and a build over its
// budget leaves the last good one in place. (Servers serve a copy of their own: dev-server.mjs.)
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeApiTypes } from "./api-types.mjs";
import { buildWidget, consoleSize, PUBLIC_DIR } from "./build-widget.mjs";
import { checkWorkerBudget } from "./deploy/budget.mjs";
import { faviconIco } from "./favicon.mjs";

if (
  process.argv.includes("--for-wrangler") &&
  (process.env.WRANGLER_COMMAND === "dev" || process.env.BOOKING_ENGINE_BUILT === "1")
)
  process.exit(0);

if (!process.argv.includes("--for-wrangler")) {
  const started = Date.now();
  const lines = await writeApiTypes();
  console.log(`wrote widget/console/openapi.d.ts (${lines} lines) in ${Date.now() - started} ms`);
}

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const dist = dirname(PUBLIC_DIR);
/** The figures the build measured, for the docs' check (scripts/check-docs.mjs --figures). */
const FIGURES_FILE = join(dist, "figures.json");

mkdirSync(dist, { recursive: true });
pruneLeftovers();
const staging = `${PUBLIC_DIR}.building-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
const docsAssets = join(staging, "docs/assets");
mkdirSync(docsAssets, { recursive: true });
const swagger = dirname(require.resolve("swagger-ui-dist/package.json"));
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"])
  cpSync(join(swagger, file), join(docsAssets, file));
cpSync(join(root, "widget", "favicon.svg"), join(staging, "favicon.svg"));
writeFileSync(join(staging, "favicon.ico"), faviconIco());
console.log(`built dist/public (docs assets from swagger-ui-dist, the favicon)`);

const size = await buildWidget(staging);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `built dist/public/widget/booking-engine.js: ${kib(size.bytes)}, ${kib(size.gzip)} gzipped, and ${size.chunks} locale chunks (largest ${kib(size.locale)}); ` +
    `first pages with what they import ${Object.entries(size.pages)
      .map(([p, n]) => `${p} ${kib(n)}`)
      .join(", ")}; ` +
    `largest first load (module, locale, page) ${kib(size.firstLoad)} gzipped (budget ${kib(size.budget)})`,
);
if (size.misplaced.length) fail(`chunks loaded later are part of a first load: ${size.misplaced.join(", ")}`);
if (size.firstLoad > size.budget)
  fail(`the widget's first load is over its budget of ${kib(size.budget)} gzipped`);

const consoleLoad = consoleSize(staging);
console.log(
  `built dist/public/widget/booking-console.js: ${kib(consoleLoad.gzip)} gzipped; views ${Object.entries(
    consoleLoad.views,
  )
    .map(([v, n]) => `${v} ${kib(n)}`)
    .join(", ")}; ` +
    `largest locale ${kib(consoleLoad.locale)}; first load (module, day or sign-in view, locale) ${kib(consoleLoad.firstLoad)} gzipped (budget ${kib(consoleLoad.budget)})`,
);
if (consoleLoad.firstLoad > consoleLoad.budget)
  fail(`the console's first load is over its budget of ${kib(consoleLoad.budget)} gzipped`);

switchIn(staging);
writeFigures({ widget: size, console: consoleLoad });

if (process.argv.includes("--worker") && !(await checkWorkerBudget(console.log))) process.exit(1);

/** Over budget or misbuilt: the build's folder goes, the last good dist/public stays. */
function fail(message) {
  console.error(message);
  rmSync(staging, { recursive: true, force: true });
  process.exit(1);
}

/**
 * dist/public becomes the new build: the old one is moved aside, the new one renamed in, the old
 * one removed. Another build switching at the same moment wins or loses the rename; the loser
 * moves the winner's aside in turn and tries again, so the last to finish is what stays.
 */
function switchIn(built) {
  const aside = [];
  for (let attempt = 0; ; attempt++) {
    const old = `${PUBLIC_DIR}.old-${process.pid}-${attempt}`;
    try {
      renameSync(PUBLIC_DIR, old);
      aside.push(old);
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
    try {
      renameSync(built, PUBLIC_DIR);
      break;
    } catch (err) {
      if (!["ENOTEMPTY", "EEXIST"].includes(err.code) || attempt >= 20) throw err;
    }
  }
  for (const old of aside) rmSync(old, { recursive: true, force: true });
}

/** Folders of builds whose process is gone (stopped halfway): removed. */
function pruneLeftovers() {
  for (const name of readdirSync(dist)) {
    const pid = Number(name.match(/^public\.(?:building|old)-(\d+)/)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(dist, name), { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** The sizes just measured, in KiB with one decimal as the build prints them: written whole, then renamed. */
function writeFigures({ widget, console: c }) {
  const k = (n) => Math.round((n / 1024) * 10) / 10;
  const figures = {
    "widget.module": k(widget.gzip),
    "widget.first-load": k(widget.firstLoad),
    "widget.budget": k(widget.budget),
    "widget.locale": k(widget.locale),
    ...Object.fromEntries(Object.entries(widget.pages).map(([p, n]) => [`widget.page.${p}`, k(n)])),
    "console.module": k(c.gzip),
    "console.first-load": k(c.firstLoad),
    "console.budget": k(c.budget),
  };
  const temporary = `${FIGURES_FILE}.${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(figures, null, 2)}\n`);
  renameSync(temporary, FIGURES_FILE);
}
