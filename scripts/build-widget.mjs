// The widget bundle: Vite in library mode, one ES module with Lit inside, at
// dist/public/widget/booking-engine.js, and one small chunk per translated locale under
// dist/public/widget/locales/ (served by the Worker's assets binding).

import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./dev-server.mjs";

export const WIDGET_OUT = join(ROOT, "dist", "public", "widget");
export const WIDGET_FILE = join(WIDGET_OUT, "booking-engine.js");
/** The size budget of a first load, gzipped, Lit included: the module and one locale's chunk. */
// 26 KiB since the payment step: its texts are in every locale chunk (lit-localize has one table a locale).
export const WIDGET_BUDGET_BYTES = 26 * 1024;
const LOCALE_DIR = join(WIDGET_OUT, "locales");
export const CONSOLE_FILE = join(WIDGET_OUT, "booking-console.js");
/** The console's first load, gzipped: its module, the heavier of its first views (day, sign-in) and one locale. */
export const CONSOLE_BUDGET_BYTES = 60 * 1024;
const CONSOLE_DIR = join(WIDGET_OUT, "console");

export async function buildWidget() {
  const { build } = await import("vite");
  await build({
    root: ROOT,
    configFile: false,
    logLevel: "warn",
    publicDir: false,
    build: {
      outDir: WIDGET_OUT,
      emptyOutDir: true,
      target: "es2022",
      minify: "esbuild",
      sourcemap: false,
      reportCompressedSize: false,
      lib: { entry: join(ROOT, "widget", "index.ts"), formats: ["es"], fileName: () => "booking-engine.js" },
      // "allow-extension": the locale chunks import Lit's `str` from the module itself, not from a third file.
      // The services and manage pages (widget/pages/lazy.ts) are chunks under pages/.
      rollupOptions: {
        preserveEntrySignatures: "allow-extension",
        output: {
          chunkFileNames: (chunk) =>
            /^(it|fr|de|es)$/.test(chunk.name) ? "locales/[name]-[hash].js" : "pages/[name]-[hash].js",
        },
      },
    },
    esbuild: { legalComments: "none" },
    plugins: [minifyCss()],
  });
  // Vite leaves whitespace in ES library builds (to keep pure annotations for the user's bundler);
  // this file is loaded as is by browsers, so it gets esbuild's full minification.
  for (const file of [WIDGET_FILE, ...localeChunks(), ...pageChunks()]) await minifyFile(file);
  writePreloadMap();
  await buildConsole(build);
  // A module script from another origin needs CORS: the widget is embedded on restaurants' sites.
  // Workers Static Assets read these headers from _headers at the root of the assets folder.
  const headers = join(WIDGET_OUT, "..", "_headers");
  const rule =
    "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  Cache-Control: public, max-age=300\n";
  if (!existsSync(headers) || !readFileSync(headers, "utf8").includes("/widget/*"))
    appendFileSync(headers, rule);
  return widgetSize();
}

/**
 * The console (widget/console/index.ts): a second entry beside the widget's, its views and locale
 * tables as chunks under console/. Built apart, so no chunk is shared with the widget's bundle.
 */
async function buildConsole(build) {
  await build({
    root: ROOT,
    configFile: false,
    logLevel: "warn",
    publicDir: false,
    build: {
      outDir: WIDGET_OUT,
      emptyOutDir: false,
      target: "es2022",
      minify: "esbuild",
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: join(ROOT, "widget", "console", "index.ts"),
        formats: ["es"],
        fileName: () => "booking-console.js",
      },
      rollupOptions: {
        preserveEntrySignatures: "allow-extension",
        output: {
          chunkFileNames: (chunk) =>
            /^(it|fr|de|es)$/.test(chunk.name)
              ? "console/locales/[name]-[hash].js"
              : "console/[name]-[hash].js",
        },
      },
    },
    esbuild: { legalComments: "none" },
    plugins: [minifyCss()],
  });
  for (const file of [CONSOLE_FILE, ...jsIn(CONSOLE_DIR), ...jsIn(join(CONSOLE_DIR, "locales"))])
    await minifyFile(file);
}

/**
 * The console's sizes, gzipped: its module, each view with the chunks it imports, and the first
 * load (the module, the heavier of the two views a visit opens with, the largest locale chunk).
 */
export function consoleSize() {
  const views = {};
  for (const file of jsIn(CONSOLE_DIR)) {
    const name = file.match(/\/([a-z-]+?)(?:-view)?-[\w-]{8}\.js$/)?.[1];
    if (!name || !/^(day|timeline|new|reservation|guest|restaurant|sign-in)$/.test(name)) continue;
    views[name] = [...staticClosure(file, new Set(), CONSOLE_FILE)].reduce((n, f) => n + gz(f), 0);
  }
  const gzip = gz(CONSOLE_FILE);
  const locale = Math.max(0, ...jsIn(join(CONSOLE_DIR, "locales")).map(gz));
  const first = Math.max(views.day ?? 0, views["sign-in"] ?? 0);
  return { gzip, views, locale, firstLoad: gzip + first + locale, budget: CONSOLE_BUDGET_BYTES };
}

/**
 * Lit's css`` templates are plain strings to the minifier: this drops their comments and the
 * blanks around punctuation (`a { b: c; }` -> `a{b:c;}`), about a tenth of the module. Only
 * templates without interpolations, and never a blank inside a selector (`td .day`, `> *`).
 */
function minifyCss() {
  return {
    name: "minify-lit-css",
    transform(code, id) {
      if (!/\/widget\/.*\.ts$/.test(id) || !code.includes("css`")) return null;
      return code.replace(/css`([^`$]*)`/g, (_, body) => {
        const min = body
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .replace(/\s+/g, " ")
          .replace(/\s*([{};,])\s*/g, "$1")
          .replace(/([{;]\s*[\w-]+)\s*:\s*/g, "$1:")
          .replace(/;}/g, "}")
          .replace(/([:\s,(])0\.(\d)/g, "$1.$2")
          .trim();
        return `css\`${min}\``;
      });
    },
  };
}

async function minifyFile(file) {
  const { transform } = await import("esbuild");
  const minified = await transform(readFileSync(file, "utf8"), {
    minify: true,
    format: "esm",
    target: "es2022",
    legalComments: "none",
  });
  // Minified code has line breaks only inside template literals, where they are the indentation
  // of Lit's html and css: one space renders the same (no <pre> or pre-wrap text in the templates).
  writeFileSync(file, `${minified.code.trimEnd().replace(/\n\s*/g, " ")}\n`);
}

const jsIn = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".js"))
        .map((f) => join(dir, f))
    : [];
const localeChunks = () => jsIn(LOCALE_DIR);
const pageChunks = () => jsIn(join(WIDGET_OUT, "pages"));

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The chunks a file imports statically, and theirs (a page's chunk and the shared chunks it needs). */
function staticClosure(file, seen = new Set(), entry = WIDGET_FILE) {
  if (seen.has(file)) return seen;
  seen.add(file);
  // Minified: `import{a as b}from"./x.js"` or `import"./x.js"`; dynamic import("...") is not followed.
  for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
    const target = join(dirname(file), m[1]);
    if (target !== entry) staticClosure(target, seen, entry);
  }
  return seen;
}

/**
 * widget/preload.json: each page's chunks (its own and those it imports) and each locale's chunk,
 * by their hashed addresses, so the hosted pages can ask for them beside the module
 * (modulepreload) instead of one after another.
 */
function writePreloadMap() {
  const url = (file) => `/widget/${file.slice(WIDGET_OUT.length + 1)}`;
  const pages = {};
  for (const file of pageChunks()) {
    const name = file.match(/\/(welcome|book|services|manage|offer|pay)-page-/)?.[1];
    if (name) pages[name] = [...staticClosure(file)].map(url);
  }
  const locales = Object.fromEntries(localeChunks().map((f) => [f.match(/\/(it|fr|de|es)-/)[1], url(f)]));
  writeFileSync(join(WIDGET_OUT, "preload.json"), JSON.stringify({ pages, locales }));
}

/**
 * The module's size and gzipped size, and the largest first load: the module, the largest
 * locale chunk (English, the source locale, needs none) and the heaviest page with the chunks
 * it imports (each page is a chunk loaded when shown, widget/pages/lazy.ts).
 */
export function widgetSize() {
  const chunks = localeChunks().map(gz);
  const pages = {};
  for (const file of pageChunks().filter((f) => /\/(welcome|book|services|manage|offer|pay)-page-/.test(f))) {
    const name = file.match(/(welcome|book|services|manage|offer|pay)-page-/)[1];
    const files = staticClosure(file);
    pages[name] = [...files].reduce((n, f) => n + gz(f), 0);
  }
  const gzip = gz(WIDGET_FILE);
  const page = Math.max(0, ...Object.values(pages));
  return {
    bytes: readFileSync(WIDGET_FILE).length,
    gzip,
    pages,
    firstLoad: gzip + Math.max(0, ...chunks) + page,
    chunks: chunks.length,
    budget: WIDGET_BUDGET_BYTES,
  };
}
