// The widget bundle: Vite in library mode, one ES module with Lit inside, at
// dist/public/widget/booking-engine.js, and one small chunk per translated locale under
// dist/public/widget/locales/ (served by the Worker's assets binding).

import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./dev-server.mjs";

/** Where `npm run build` leaves the assets the Worker serves (scripts/build.mjs builds beside it, then switches). */
export const PUBLIC_DIR = join(ROOT, "dist", "public");
export const WIDGET_OUT = join(PUBLIC_DIR, "widget");
/** The size budget of a first load, gzipped, Lit included: the module, one locale's chunk and the heaviest first page. */
export const WIDGET_BUDGET_BYTES = 28 * 1024;
/** The console's first load, gzipped: its module, the heavier of its first views (day, sign-in) and one locale. */
export const CONSOLE_BUDGET_BYTES = 60 * 1024;

/** The widget's and the console's files under an assets folder (`dist/public`, or the build's own before it switches). */
function widgetPaths(publicDir = PUBLIC_DIR) {
  const out = join(publicDir, "widget");
  return {
    out,
    file: join(out, "booking-engine.js"),
    locales: join(out, "locales"),
    pages: join(out, "pages"),
    consoleFile: join(out, "booking-console.js"),
    consoleDir: join(out, "console"),
  };
}

/**
 * The pages a visit can open with, and the chunks each loads when it is shown (widget/pages/lazy.ts):
 * a first load is the module, one locale's table and the heaviest of these with every chunk they
 * import. Any other chunk (the booking's details, "next available", a payment step) is imported
 * later, when the guest gets there, and must stay out of these pages' static imports.
 */
export const FIRST_PAGES = {
  welcome: ["welcome-page"],
  book: ["book-page"],
  services: ["services-page"],
  manage: ["manage-page", "manage-change"],
  offer: ["offer-page"],
  // the pay link opens on the payment step (Stripe.js itself comes from Stripe, on that step only)
  pay: ["pay-page"],
};
/** Chunks that come after the first screen: the build fails if a first page imports one statically. */
export const LATER_CHUNKS = ["book-later", "next-available"];
/** The placeholder in widget/preload.ts that the build replaces with the chunk map. */
const CHUNK_MAP_PLACEHOLDER = '"__BOOKING_ENGINE_CHUNKS__"';

export async function buildWidget(publicDir = PUBLIC_DIR) {
  const p = widgetPaths(publicDir);
  const { build } = await import("vite");
  await build({
    root: ROOT,
    configFile: false,
    logLevel: "warn",
    publicDir: false,
    build: {
      outDir: p.out,
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
  for (const file of [p.file, ...jsIn(p.locales), ...jsIn(p.pages)]) await minifyFile(file);
  writeChunkMaps(p);
  await buildConsole(build, p);
  // A module script from another origin needs CORS: the widget is embedded on restaurants' sites.
  // Workers Static Assets read these headers from _headers at the root of the assets folder.
  const headers = join(publicDir, "_headers");
  const rule =
    "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  Cache-Control: public, max-age=300\n";
  if (!existsSync(headers) || !readFileSync(headers, "utf8").includes("/widget/*"))
    appendFileSync(headers, rule);
  return widgetSize(publicDir);
}

/**
 * The console (widget/console/index.ts): a second entry beside the widget's, its views and locale
 * tables as chunks under console/. Built apart, so no chunk is shared with the widget's bundle.
 */
async function buildConsole(build, p) {
  await build({
    root: ROOT,
    configFile: false,
    logLevel: "warn",
    publicDir: false,
    build: {
      outDir: p.out,
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
  for (const file of [p.consoleFile, ...jsIn(p.consoleDir), ...jsIn(join(p.consoleDir, "locales"))])
    await minifyFile(file);
}

/**
 * The console's sizes, gzipped: its module, each view with the chunks it imports, and the first
 * load (the module, the heavier of the two views a visit opens with, the largest locale chunk).
 */
export function consoleSize(publicDir = PUBLIC_DIR) {
  const p = widgetPaths(publicDir);
  const views = {};
  for (const file of jsIn(p.consoleDir)) {
    const name = file.match(/\/([a-z-]+?)(?:-view)?-[\w-]{8}\.js$/)?.[1];
    if (
      !name ||
      !/^(day|timeline|new|reservation|guest|restaurant|sign-in|waitlist|floor|sheet|reports)$/.test(name)
    )
      continue;
    views[name] = [...staticClosure(file, p.consoleFile)].reduce((n, f) => n + gz(f), 0);
  }
  const gzip = gz(p.consoleFile);
  const locale = Math.max(0, ...jsIn(join(p.consoleDir, "locales")).map(gz));
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

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The chunks a file imports statically, and theirs (a page's chunk and the shared chunks it needs), itself included. */
function staticClosure(file, entry, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const target of staticImports(file)) if (target !== entry) staticClosure(target, entry, seen);
  return seen;
}

/** Minified: `import{a as b}from"./x.js"` or `import"./x.js"`; dynamic import("...") is not followed. */
const staticImports = (file) =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)].map((m) =>
    join(dirname(file), m[1]),
  );

/** The chunk of that name (`book-page` for pages/book-page-<hash>.js), if the build made one. */
const chunkNamed = (p, name) => jsIn(p.pages).find((f) => new RegExp(`/${name}-[\\w-]{8}\\.js$`).test(f));

/** Each first page's files: the chunks it loads when shown and every chunk they import. */
function firstPageFiles(p) {
  const pages = {};
  for (const [page, names] of Object.entries(FIRST_PAGES)) {
    const files = new Set();
    for (const name of names) {
      const chunk = chunkNamed(p, name);
      if (chunk) staticClosure(chunk, p.file, files);
    }
    pages[page] = [...files];
  }
  return pages;
}

/**
 * The chunk map, by hashed name: widget/preload.json for the hosted pages (their modulepreload
 * links, by absolute path), and the same map, relative to the module, written into the module
 * itself in place of widget/preload.ts's placeholder, so that an embedded widget asks for its
 * page's and language's chunks beside its first request instead of one after another.
 */
function writeChunkMaps(p) {
  const relative = (file) => file.slice(p.out.length + 1);
  const pages = Object.fromEntries(
    Object.entries(firstPageFiles(p)).map(([page, files]) => [page, files.map(relative)]),
  );
  const locales = Object.fromEntries(
    jsIn(p.locales).map((f) => [f.match(/\/(it|fr|de|es)-/)[1], relative(f)]),
  );
  const absolute = (file) => `/widget/${file}`;
  writeFileSync(
    join(p.out, "preload.json"),
    JSON.stringify({
      pages: Object.fromEntries(Object.entries(pages).map(([page, files]) => [page, files.map(absolute)])),
      locales: Object.fromEntries(Object.entries(locales).map(([l, file]) => [l, absolute(file)])),
    }),
  );
  const module = readFileSync(p.file, "utf8");
  if (!module.includes(CHUNK_MAP_PLACEHOLDER))
    throw new Error(
      `${p.file} lacks the chunk map's placeholder ${CHUNK_MAP_PLACEHOLDER} (widget/preload.ts)`,
    );
  const literal = JSON.stringify(JSON.stringify({ pages, locales }));
  writeFileSync(p.file, module.replaceAll(CHUNK_MAP_PLACEHOLDER, literal));
}

/**
 * The module's size and gzipped size, each first page with the chunks it imports, and the largest
 * first load: the module, the largest locale chunk (English, the source locale, needs none) and
 * the heaviest first page. `misplaced`: chunks the module imports statically (every visit would
 * load them) and later chunks a first page imports statically; the build fails on any.
 */
export function widgetSize(publicDir = PUBLIC_DIR) {
  const p = widgetPaths(publicDir);
  const chunks = jsIn(p.locales).map(gz);
  const files = firstPageFiles(p);
  const pages = Object.fromEntries(
    Object.entries(files).map(([page, list]) => [page, list.reduce((n, f) => n + gz(f), 0)]),
  );
  const later = LATER_CHUNKS.map((name) => chunkNamed(p, name)).filter(Boolean);
  const misplaced = [
    ...staticImports(p.file),
    ...Object.values(files).flatMap((list) => list.filter((f) => later.includes(f))),
  ].map((f) => f.slice(p.out.length + 1));
  const gzip = gz(p.file);
  return {
    bytes: readFileSync(p.file).length,
    gzip,
    pages,
    firstLoad: gzip + Math.max(0, ...chunks) + Math.max(0, ...Object.values(pages)),
    chunks: chunks.length,
    locale: Math.max(0, ...chunks),
    budget: WIDGET_BUDGET_BYTES,
    misplaced: [...new Set(misplaced)],
  };
}
