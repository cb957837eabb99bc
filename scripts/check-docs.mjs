// node scripts/check-docs.mjs: the documents stand on their own.
//   - every markdown link of README.md and docs/*.md that is not http(s) or mailto names a file
//     of the repository, and its #anchor a heading of that file (GitHub's slugs);
//   - README.md is the front page: at most 200 lines;
//   - no line names the team's working documents or their numbered sections, nor an issue number;
//   - every size a document quotes as measured by the build is marked, `15.2 KiB<!-- figure: widget.module -->`,
//     and with --figures[=file] (npm test, after its build) each is within reach of what the build
//     measured (dist/figures.json, scripts/build.mjs): a budget exactly, a size within 0.5 KiB or 5%.
// Exits 1 with the list of problems, else prints one line. Plain Node, no dependency.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const figuresArg = process.argv.find((a) => a === "--figures" || a.startsWith("--figures="));
const FIGURES_FILE = figuresArg?.includes("=")
  ? resolve(figuresArg.split("=")[1])
  : join(ROOT, "dist", "figures.json");
/** A quoted size and the build's figure it stands for. */
const FIGURE = /(\d+(?:\.\d+)?) KiB<!-- figure: ([\w.-]+) -->/g;
const README_MAX_LINES = 200;
const FORBIDDEN = /\b(CONTRACT|SPEC)\b|\.\.\/shared|issue [0-9]+|#[0-9]+/;

const docs = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => join(ROOT, "docs", f));
const files = [join(ROOT, "README.md"), ...docs];
const problems = [];
const rel = (file) => relative(ROOT, file);

/** The file's lines, each with whether it sits inside a fenced code block. */
function lines(text) {
  let fence;
  return text.split("\n").map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && !fence) {
      fence = marker;
      return { line, code: true };
    }
    if (
      marker &&
      fence &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      line.trim() === marker
    ) {
      fence = undefined;
      return { line, code: true };
    }
    return { line, code: Boolean(fence) };
  });
}

/** GitHub's heading ids: the heading's text, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/`([^`]*)`/g, "$1") // inline code: its text
    .replace(/\*+/g, "") // emphasis
    .replace(/(^|[^\p{L}\p{N}])_+|_+(?=$|[^\p{L}\p{N}])/gu, "$1"); // emphasis with underscores, not snake_case
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const anchorCache = new Map();
/** Every id a link may name in a markdown file: its headings (duplicates numbered) and explicit HTML ids. */
function anchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const ids = new Set();
  const seen = new Map();
  for (const { line, code } of lines(readFileSync(file, "utf8"))) {
    if (code) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      ids.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) ids.add(m[1]);
  }
  anchorCache.set(file, ids);
  return ids;
}

/** The links of one line outside inline code: [text](target), ![alt](target), [ref]: target. */
function links(line) {
  const bare = line.replace(/`[^`]*`/g, (m) => " ".repeat(m.length));
  const found = [];
  for (const m of bare.matchAll(
    /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
  ))
    found.push(m[1].replace(/^<|>$/g, ""));
  const ref = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(bare);
  if (ref) found.push(ref[1].replace(/^<|>$/g, ""));
  return found;
}

function checkLink(file, lineNo, target) {
  const where = `${rel(file)}:${lineNo}`;
  if (/^(https?:|mailto:)/i.test(target)) return;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target))
    return problems.push(`${where}: link to ${target}: only relative links, http(s) and mailto are allowed`);
  const [pathPart, anchor] = target.split("#", 2);
  const path = decodeURIComponent(pathPart);
  const dest = path === "" ? file : resolve(dirname(file), path);
  if (!dest.startsWith(`${ROOT}/`) && dest !== ROOT)
    return problems.push(`${where}: link to ${target} leaves the repository`);
  if (!existsSync(dest)) return problems.push(`${where}: link to ${target}: ${rel(dest)} does not exist`);
  if (anchor === undefined) return;
  if (statSync(dest).isDirectory() || !dest.endsWith(".md"))
    return problems.push(`${where}: link to ${target}: an anchor needs a markdown file`);
  if (!anchors(dest).has(decodeURIComponent(anchor)))
    problems.push(`${where}: link to ${target}: no heading "#${anchor}" in ${rel(dest)}`);
}

let linkCount = 0;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const all = lines(text);
  all.forEach(({ line, code }, i) => {
    if (FORBIDDEN.test(line))
      problems.push(
        `${rel(file)}:${i + 1}: names a working document, its sections or an issue: ${line.trim().slice(0, 120)}`,
      );
    if (code) return;
    const prose = line.replace(/`[^`]*`/g, "");
    if ((prose.match(/<!-- figure:/g) ?? []).length !== [...prose.matchAll(FIGURE)].length)
      problems.push(`${rel(file)}:${i + 1}: a figure's marker follows no "<number> KiB"`);
    for (const target of links(line)) {
      linkCount++;
      checkLink(file, i + 1, target);
    }
  });
}

/** The sizes the documents quote, each against the build's figure of its name. */
function checkFigures() {
  if (!existsSync(FIGURES_FILE))
    return problems.push(`${rel(FIGURES_FILE)} is missing: build first (node scripts/build.mjs)`);
  const measured = JSON.parse(readFileSync(FIGURES_FILE, "utf8"));
  let count = 0;
  for (const file of files)
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        for (const [, quoted, key] of line.matchAll(FIGURE)) {
          count++;
          const where = `${rel(file)}:${i + 1}`;
          const actual = measured[key];
          if (typeof actual !== "number") {
            problems.push(`${where}: the build measures no figure "${key}"`);
            continue;
          }
          const q = Number(quoted);
          const near = key.endsWith(".budget")
            ? q === actual
            : Math.abs(q - actual) <= Math.max(0.5, actual * 0.05);
          if (!near)
            problems.push(`${where}: quotes ${quoted} KiB for ${key}; the build measured ${actual} KiB`);
        }
      });
  return count;
}
const figureCount = figuresArg ? checkFigures() : 0;

const readmeLines = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
if (readmeLines > README_MAX_LINES)
  problems.push(
    `README.md: ${readmeLines} lines; the front page holds at most ${README_MAX_LINES} (move the detail into a guide under docs/)`,
  );

if (problems.length) {
  console.error(`check-docs: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(
  `check-docs: OK (${files.length} files, ${linkCount} links checked, README.md ${readmeLines} lines` +
    `${figuresArg ? `, ${figureCount} quoted sizes within reach of ${rel(FIGURES_FILE)}` : ""})`,
);
