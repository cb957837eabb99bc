// The widget bundle: Vite in library mode, one ES module with Lit inside, at
// dist/public/widget/booking-engine.js (served by the Worker's assets binding).
import { gzipSync } from "node:zlib";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./dev-server.mjs";

export const WIDGET_OUT = join(ROOT, "dist", "public", "widget");
export const WIDGET_FILE = join(WIDGET_OUT, "booking-engine.js");
/** The size budget of the bundle, gzipped, Lit included. */
export const WIDGET_BUDGET_BYTES = 25 * 1024;

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
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
    esbuild: { legalComments: "none" },
  });
  // Vite leaves whitespace in ES library builds (to keep pure annotations for the user's bundler);
  // this file is loaded as is by browsers, so it gets esbuild's full minification.
  const { transform } = await import("esbuild");
  const minified = await transform(readFileSync(WIDGET_FILE, "utf8"), { minify: true, format: "esm", target: "es2022", legalComments: "none" });
  // Minified code has line breaks only inside template literals, where they are the indentation
  // of Lit's html and css: one space renders the same (no <pre> or pre-wrap text in the templates).
  writeFileSync(WIDGET_FILE, minified.code.trimEnd().replace(/\n\s*/g, " ") + "\n");
  // A module script from another origin needs CORS: the widget is embedded on restaurants' sites.
  // Workers Static Assets read these headers from _headers at the root of the assets folder.
  const headers = join(WIDGET_OUT, "..", "_headers");
  const rule = "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  Cache-Control: public, max-age=300\n";
  if (!existsSync(headers) || !readFileSync(headers, "utf8").includes("/widget/*")) appendFileSync(headers, rule);
  return widgetSize();
}

export function widgetSize() {
  const code = readFileSync(WIDGET_FILE);
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length, budget: WIDGET_BUDGET_BYTES };
}
