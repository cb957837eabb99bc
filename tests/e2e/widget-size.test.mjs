// How the build counts the widget's first load (scripts/build-widget.mjs), on a folder of chunks
// made here, so each rule is seen to bite: a first page counts with every chunk it imports
// statically, a chunk imported later counts in none, and a later chunk pulled into a first page's
// static imports, or any chunk into the module's, is named as misplaced (the build then fails).
// Then the real build's figures, which npm test's build stage has just made, and the check that
// keeps the sizes the docs quote within reach of them (scripts/check-docs.mjs --figures).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import {
  FIRST_PAGES,
  LATER_CHUNKS,
  PUBLIC_DIR,
  WIDGET_BUDGET_BYTES,
  widgetSize,
} from "../../scripts/build-widget.mjs";
import { ROOT } from "../../scripts/dev-server.mjs";
import { run } from "../support/run.mjs";

const dirs = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An assets folder whose widget/ holds `files` ({path: text}). */
function fixture(files) {
  const dir = mkdtempSync(join(tmpdir(), "widget-size-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, "widget", path);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}
const gz = (text) => gzipSync(text, { level: 9 }).length;
// minified chunks as the build writes them: static imports `import{..}from"./x.js"`, later ones `import("./x.js")`
const BOOK =
  'import{a}from"../booking-engine.js";import{s}from"./shared-AAAAAAAA.js";import("./book-later-BBBBBBBB.js");';
const SHARED = "export const s=1;".repeat(20);
const LATER = "export const later=2;".repeat(200);

describe("the widget's first load, as the build counts it", () => {
  it("counts a first page with the chunks it imports, and a chunk imported later in none", () => {
    const dir = fixture({
      "booking-engine.js": 'export const a=1;import("./pages/book-page-CCCCCCCC.js");',
      "pages/book-page-CCCCCCCC.js": BOOK,
      "pages/shared-AAAAAAAA.js": SHARED,
      "pages/book-later-BBBBBBBB.js": LATER,
      "pages/payment-step-DDDDDDDD.js": LATER,
      "locales/fr-EEEEEEEE.js": "export const templates={};",
    });
    const size = widgetSize(dir);
    assert.equal(size.pages.book, gz(BOOK) + gz(SHARED));
    assert.equal(size.firstLoad, size.gzip + gz("export const templates={};") + size.pages.book);
    assert.deepEqual(size.misplaced, []);
    assert.equal(size.budget, 28 * 1024);
  });

  it("names a later chunk a first page imports statically, and any chunk the module imports", () => {
    const dir = fixture({
      "booking-engine.js": 'import{x}from"./pages/shared-AAAAAAAA.js";export const a=1;',
      "pages/book-page-CCCCCCCC.js": 'import{l}from"./book-later-BBBBBBBB.js";',
      "pages/shared-AAAAAAAA.js": SHARED,
      "pages/book-later-BBBBBBBB.js": LATER,
    });
    assert.deepEqual(widgetSize(dir).misplaced.sort(), [
      "pages/book-later-BBBBBBBB.js",
      "pages/shared-AAAAAAAA.js",
    ]);
  });

  it("opens every page the element can show with, and keeps the booking's later steps out of them", () => {
    assert.deepEqual(Object.keys(FIRST_PAGES).sort(), [
      "book",
      "manage",
      "offer",
      "pay",
      "services",
      "welcome",
    ]);
    assert.ok(LATER_CHUNKS.includes("book-later"));
  });

  it("keeps the real build's first load within 28 KiB, with nothing misplaced", {
    skip: !existsSync(PUBLIC_DIR),
  }, () => {
    const size = widgetSize();
    assert.equal(WIDGET_BUDGET_BYTES, 28 * 1024);
    assert.deepEqual(size.misplaced, []);
    assert.ok(size.firstLoad <= size.budget, `${size.firstLoad} bytes over ${size.budget}`);
  });
});

const FIGURES = join(ROOT, "dist", "figures.json");

describe("the sizes the docs quote", { skip: !existsSync(FIGURES) && "no build yet" }, () => {
  const check = (file) =>
    run(process.execPath, [join(ROOT, "scripts", "check-docs.mjs"), `--figures=${file}`]);

  it("are within reach of what the build measured", async () => {
    const r = await check(FIGURES);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\d+ quoted sizes within reach/);
  });

  it("fail the check when the build measures otherwise: a size out of reach, a budget changed", async () => {
    const figures = JSON.parse(readFileSync(FIGURES, "utf8"));
    const file = join(mkdtempSync(join(tmpdir(), "figures-")), "figures.json");
    dirs.push(join(file, ".."));
    writeFileSync(
      file,
      JSON.stringify({ ...figures, "widget.module": figures["widget.module"] + 2, "widget.budget": 25 }),
    );
    const r = await check(file);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /docs\/widget\.md:\d+: quotes [\d.]+ KiB for widget\.module; the build measured/);
    assert.match(
      r.stderr,
      /docs\/testing\.md:\d+: quotes 28\.0 KiB for widget\.budget; the build measured 25 KiB/,
    );
  });
});
