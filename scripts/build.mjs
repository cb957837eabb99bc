// Builds what the Worker serves as static assets: the docs UI and the widget bundle; with
// --worker (npm run build), also bundles the Worker as a deploy would and fails over its budget.
// Outside wrangler's own build, it first writes the console's API types from the Worker's OpenAPI
// document (widget/console/openapi.d.ts, scripts/api-types.mjs), which the widget's typecheck reads.
// --for-wrangler (wrangler.toml's [build] step): nothing under `wrangler dev` (npm start and the
// tests build before they start it) nor when the caller built already (BOOKING_ENGINE_BUILT=1).
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeApiTypes } from "./api-types.mjs";
import { buildWidget, consoleSize } from "./build-widget.mjs";
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
const out = join(root, "dist/public");

rmSync(out, { recursive: true, force: true });
const docsAssets = join(out, "docs/assets");
mkdirSync(docsAssets, { recursive: true });
const swagger = dirname(require.resolve("swagger-ui-dist/package.json"));
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"])
  cpSync(join(swagger, file), join(docsAssets, file));
cpSync(join(root, "widget", "favicon.svg"), join(out, "favicon.svg"));
writeFileSync(join(out, "favicon.ico"), faviconIco());
console.log(`built dist/public (docs assets from swagger-ui-dist, the favicon)`);

const size = await buildWidget();
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `built dist/public/widget/booking-engine.js: ${kib(size.bytes)}, ${kib(size.gzip)} gzipped, and ${size.chunks} locale chunks; ` +
    `pages ${Object.entries(size.pages)
      .map(([p, n]) => `${p} ${kib(n)}`)
      .join(", ")}; ` +
    `largest first load (module, locale, page) ${kib(size.firstLoad)} gzipped (budget ${kib(size.budget)})`,
);
if (size.firstLoad > size.budget) {
  console.error(`the widget's first load is over its budget of ${kib(size.budget)} gzipped`);
  process.exit(1);
}

const consoleLoad = consoleSize();
console.log(
  `built dist/public/widget/booking-console.js: ${kib(consoleLoad.gzip)} gzipped; views ${Object.entries(
    consoleLoad.views,
  )
    .map(([v, n]) => `${v} ${kib(n)}`)
    .join(", ")}; ` +
    `largest locale ${kib(consoleLoad.locale)}; first load (module, day or sign-in view, locale) ${kib(consoleLoad.firstLoad)} gzipped (budget ${kib(consoleLoad.budget)})`,
);
if (consoleLoad.firstLoad > consoleLoad.budget) {
  console.error(`the console's first load is over its budget of ${kib(consoleLoad.budget)} gzipped`);
  process.exit(1);
}

if (process.argv.includes("--worker") && !(await checkWorkerBudget(console.log))) process.exit(1);
