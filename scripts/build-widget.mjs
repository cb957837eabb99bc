// The widget bundle: Vite in library mode, one ES module with Lit inside, at
// dist/public/widget/booking-engine.js, and one small chunk per translated locale under
// dist/public/widget/locales/ (served by the Worker's assets binding).
import { gzipSync } from "node:zlib";
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./dev-server.mjs";

export const WIDGET_OUT = join(ROOT, "dist", "public", "widget");
export const WIDGET_FILE = join(WIDGET_OUT, "booking-engine.js");
/** The size budget of a first load, gzipped, Lit included: the module and one locale's chunk. */
export const WIDGET_BUDGET_BYTES = 25 * 1024;
const LOCALE_DIR = join(WIDGET_OUT, "locales");

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
      rollupOptions: { preserveEntrySignatures: "allow-extension", output: { chunkFileNames: "locales/[name]-[hash].js" } },
    },
    esbuild: { legalComments: "none" },
  });
  // Vite leaves whitespace in ES library builds (to keep pure annotations for the user's bundler);
  // this file is loaded as is by browsers, so it gets esbuild's full minification.
  for (const file of [WIDGET_FILE, ...localeChunks()]) await minifyFile(file);
  // A module script from another origin needs CORS: the widget is embedded on restaurants' sites.
  // Workers Static Assets read these headers from _headers at the root of the assets folder.
  const headers = join(WIDGET_OUT, "..", "_headers");
  const rule = "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  Cache-Control: public, max-age=300\n";
  if (!existsSync(headers) || !readFileSync(headers, "utf8").includes("/widget/*")) appendFileSync(headers, rule);
  return widgetSize();
}

async function minifyFile(file) {
  const { transform } = await import("esbuild");
  const minified = await transform(readFileSync(file, "utf8"), { minify: true, format: "esm", target: "es2022", legalComments: "none" });
  // Minified code has line breaks only inside template literals, where they are the indentation
  // of Lit's html and css: one space renders the same (no <pre> or pre-wrap text in the templates).
  writeFileSync(file, minified.code.trimEnd().replace(/\n\s*/g, " ") + "\n");
}

function localeChunks() {
  return existsSync(LOCALE_DIR) ? readdirSync(LOCALE_DIR).filter((f) => f.endsWith(".js")).map((f) => join(LOCALE_DIR, f)) : [];
}

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/**
 * The module's size and gzipped size, and the largest first load: the module with the largest
 * locale chunk (English, the source locale, needs none).
 */
export function widgetSize() {
  const chunks = localeChunks().map(gz);
  const gzip = gz(WIDGET_FILE);
  return { bytes: readFileSync(WIDGET_FILE).length, gzip, firstLoad: gzip + Math.max(0, ...chunks), chunks: chunks.length, budget: WIDGET_BUDGET_BYTES };
}
