// The shape of the code, checked by `npm test`: the dependency rules of .dependency-cruiser.cjs
// (no folder or module cycle, arrows pointing down), no function over 60 lines (those over 40
// are listed), no file over 400 lines of code listed, no comment, string or doc in the code,
// the tests, the scripts or the configuration citing documents outside the repository, no
// `as unknown as` or `as never` in worker/, widget/ or shared/ (a type that says what the value is
// instead: drizzle's, the route's, zod's, a type guard's), the Worker's binding types
// (worker-configuration.d.ts) as `npm run types` would write them now, and the schema files what
// the migrations make (scripts/db/schema.mjs).
//   node scripts/check-code.mjs            all checks
//   node scripts/check-code.mjs --lengths  only the function lengths, longest first
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import ts from "typescript";
import { QUIET_ENV, ROOT, WRANGLER } from "./paths.mjs";

const MAX_LINES = 60;
const WANTED_LINES = 40;
const SOURCES = ["worker", "widget", "shared"];
/** Working documents that live outside the repository, and issue numbers (imports of our own shared/ are fine). */
const OUTSIDE = /\b(CONTRACT|SPEC)\b|\bSTYLE\.md\b|\bissue #?\d+/;

function files(dir, pattern = /\.ts$/) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return ["locales", "xliff", "node_modules"].includes(name) ? [] : files(path, pattern);
    return pattern.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

/** Where citations are looked for: the sources, the tests, the scripts (but the two checks, which name what they refuse), the bench and the root's configuration. */
function citable(sources) {
  const code = /\.(ts|mjs|cjs|js|sh)$/;
  const checks = ["check-code.mjs", "check-docs.mjs"].map((f) => join(ROOT, "scripts", f));
  const extra = [
    ...files(join(ROOT, "tests"), code),
    ...files(join(ROOT, "scripts"), code).filter((f) => !checks.includes(f)),
    ...files(join(ROOT, "bench"), code),
  ];
  const root = readdirSync(ROOT)
    .filter((f) => /\.(toml|ts|mjs|cjs|json)$/.test(f) && f !== "package-lock.json")
    .map((f) => join(ROOT, f));
  return [...sources, ...extra, ...root, join(ROOT, ".ci", "run")];
}

/** Every function, method and arrow of a file with its length in lines. */
function functionLengths(path) {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ path: relative(ROOT, path), line: start + 1, lines: end - start + 1, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `(argument of ${parent.expression.getText().split("\n")[0].slice(-40)})`;
  return "(anonymous)";
}

function checkLengths(all) {
  const lengths = all.flatMap(functionLengths).sort((a, b) => b.lines - a.lines);
  const over = lengths.filter((f) => f.lines > MAX_LINES);
  const long = lengths.filter((f) => f.lines > WANTED_LINES && f.lines <= MAX_LINES);
  for (const f of long) console.log(`  ${f.lines} lines: ${f.name} (${f.path}:${f.line})`);
  for (const f of over)
    console.error(`  OVER ${MAX_LINES}: ${f.lines} lines: ${f.name} (${f.path}:${f.line})`);
  console.log(
    `functions: ${lengths.length}, over ${WANTED_LINES} lines: ${long.length + over.length}, over ${MAX_LINES}: ${over.length}`,
  );
  return over.length === 0;
}

function checkOutsideReferences(all) {
  const hits = all.flatMap((path) =>
    readFileSync(path, "utf8")
      .split("\n")
      .flatMap((line, i) =>
        OUTSIDE.test(line) ? [`${relative(ROOT, path)}:${i + 1}: ${line.trim().slice(0, 120)}`] : [],
      ),
  );
  for (const h of hits) console.error(`  cites a document outside the repository: ${h}`);
  console.log(`references to documents outside the repository: ${hits.length}`);
  return hits.length === 0;
}

/** A command's exit status and output, without blocking the other checks. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, ...options });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * The rules of .dependency-cruiser.cjs, and no cycle between the Worker's folders as dependency-
 * cruiser cannot see them: its folder rule leaves out a folder's edges to its own subfolders, and
 * worker/ holds both the composition (index, app, cron, wiring: above everything) and the
 * kernel's env.ts, config.ts and errors.ts (below everything), so an errors.ts that imported lib/
 * while lib/ imports errors.ts went unseen. Here those two are apart, and every folder of worker/
 * is one node. (The widget's folders are not held to it: each element's file sits in the folder
 * whose parts/ it imports, and those parts use the folder's own api and format modules.)
 */
async function checkDependencies() {
  const bin = join(ROOT, "node_modules", ".bin", "depcruise");
  const r = await run(bin, [...SOURCES, "--config", ".dependency-cruiser.cjs", "--output-type", "json"]);
  if (r.status !== 0 && !r.stdout.startsWith("{")) {
    process.stderr.write(r.stderr || r.stdout);
    return false;
  }
  const { modules, summary } = JSON.parse(r.stdout);
  for (const v of summary.violations)
    console.error(
      `  ${v.rule.severity} ${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name ?? c).join(" -> ")})` : ""}`,
    );
  const cycles = workerFolderCycles(modules);
  for (const { folders, edges } of cycles) {
    console.error(`  error worker-folder-cycle: ${folders.join(", ")}`);
    for (const e of edges) console.error(`    ${e}`);
  }
  console.log(
    `dependencies: ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} dependencies, ` +
      `${summary.violations.length} rule violations, ${cycles.length} cycles between the Worker's folders`,
  );
  return summary.error === 0 && cycles.length === 0;
}

const COMPOSITION = /^worker\/(index|app|cron|wiring)\.ts$/;
const workerFolder = (path) =>
  COMPOSITION.test(path)
    ? "worker/ (composition)"
    : /^worker\/[^/]+$/.test(path)
      ? "worker/ (env, config, errors)"
      : path.slice(0, path.lastIndexOf("/"));

/** The strongly connected sets of the Worker's folders (Tarjan), each with the imports that close it. */
function workerFolderCycles(modules) {
  const edges = new Map();
  for (const m of modules.filter((m) => m.source.startsWith("worker/")))
    for (const d of m.dependencies.filter((d) => d.resolved.startsWith("worker/"))) {
      const [from, to] = [workerFolder(m.source), workerFolder(d.resolved)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${m.source} -> ${d.resolved}`);
    }
  const order = new Map();
  const low = new Map();
  const stack = [];
  const cycles = [];
  const visit = (v) => {
    order.set(v, order.size);
    low.set(v, order.get(v));
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!order.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v), low.get(w)));
    }
    if (low.get(v) !== order.get(v)) return;
    const folders = stack.splice(stack.indexOf(v));
    if (folders.length > 1)
      cycles.push({
        folders,
        edges: folders.flatMap((a) =>
          [...(edges.get(a) ?? [])].filter(([b]) => folders.includes(b)).map(([, e]) => e),
        ),
      });
  };
  for (const v of edges.keys()) if (!order.has(v)) visit(v);
  return cycles;
}

const ENV_TYPES = "worker-configuration.d.ts";

/**
 * worker-configuration.d.ts against what `npm run types` writes now (into a scratch folder, so the
 * checkout is left alone): the same text but for the generating command's line and the relative
 * path of the Worker's entry. `wrangler types --check` is not enough: it reads .dev.vars, which
 * `npm start` fills with secrets, where `npm run types` reads none.
 */
async function checkEnvTypes() {
  const scratch = mkdtempSync(join(tmpdir(), "env-types-"));
  try {
    const command = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.types.split(/\s+/);
    const args = command.slice(1).map((a) => (a === ENV_TYPES ? join(scratch, ENV_TYPES) : a));
    const r = await run(process.execPath, [WRANGLER, ...args], { env: { ...process.env, ...QUIET_ENV } });
    if (r.status !== 0) {
      console.error(`  wrangler types failed:\n${r.stderr || r.stdout}`);
      return false;
    }
    const body = (text) =>
      text
        .replace(/^\/\/ Generated by Wrangler by running .*$/m, "")
        .replace(/import\("(?:\.\.?\/)+[^"]*?worker\/index"\)/g, 'import("./worker/index")');
    const fresh = body(readFileSync(join(scratch, ENV_TYPES), "utf8"));
    const current = (() => {
      try {
        return body(readFileSync(join(ROOT, ENV_TYPES), "utf8"));
      } catch {
        return "";
      }
    })();
    const ok = fresh === current;
    console[ok ? "log" : "error"](
      ok ? `${ENV_TYPES}: up to date` : `  ${ENV_TYPES} is not what wrangler.toml says: run npm run types`,
    );
    return ok;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Casts that tell the compiler to stop checking (`x as unknown as T`, `x as never`): each stands for a type the code could say. */
function silencingCast(node) {
  if (!ts.isAsExpression(node)) return false;
  const kind = node.type.kind;
  if (kind === ts.SyntaxKind.NeverKeyword) return true;
  return (
    kind === ts.SyntaxKind.UnknownKeyword && ts.isAsExpression(node.parent) && node.parent.expression === node
  );
}

function checkCasts(all) {
  const hits = all.flatMap((path) => {
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const out = [];
    const visit = (node) => {
      if (silencingCast(node)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        const whole = node.type.kind === ts.SyntaxKind.NeverKeyword ? node : node.parent;
        out.push(
          `${relative(ROOT, path)}:${line + 1}: ${whole.getText(source).split("\n")[0].slice(0, 100)}`,
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return out;
  });
  for (const h of hits) console.error(`  a cast that silences the compiler (as unknown as, as never): ${h}`);
  console.log(`casts through unknown or never: ${hits.length}`);
  return hits.length === 0;
}

/** The schema files are what the migrations make, and the shard's guards what scripts/db/triggers.mjs writes. */
async function checkSchema() {
  const { schemaProblems } = await import("./db/schema.mjs");
  const problems = await schemaProblems();
  for (const p of problems) console.error(`  ${p}`);
  console.log(`schema files and the shard's guards: ${problems.length} problem(s)`);
  return problems.length === 0;
}

const all = SOURCES.flatMap((dir) => files(join(ROOT, dir)));
if (process.argv.includes("--lengths")) {
  process.exit(checkLengths(all) ? 0 : 1);
}
const checks = [checkDependencies(), checkEnvTypes(), checkSchema()];
const results = [
  checkLengths(all),
  checkOutsideReferences(citable(all)),
  checkCasts(all),
  ...(await Promise.all(checks)),
];
if (results.includes(false)) {
  console.error("check-code: FAILED");
  process.exit(1);
}
console.log("check-code: OK");
