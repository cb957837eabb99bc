// The shape of the code, checked by `npm test`: the dependency rules of .dependency-cruiser.cjs
// (no folder or module cycle, arrows pointing down), no function over 60 lines (those over 40
// are listed), no file over 400 lines of code listed, no comment, string or doc in the code,
// the tests, the scripts or the configuration citing documents outside the repository, and the
// schema files what the migrations make (scripts/db/schema.mjs).
//   node scripts/check-code.mjs            all checks
//   node scripts/check-code.mjs --lengths  only the function lengths, longest first
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { ROOT } from "./paths.mjs";

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

function checkDependencies() {
  const bin = join(ROOT, "node_modules", ".bin", "depcruise");
  const r = spawnSync(bin, [...SOURCES, "--config", ".dependency-cruiser.cjs", "--output-type", "err"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  return r.status === 0;
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
const results = [
  checkDependencies(),
  checkLengths(all),
  checkOutsideReferences(citable(all)),
  await checkSchema(),
];
if (results.includes(false)) {
  console.error("check-code: FAILED");
  process.exit(1);
}
console.log("check-code: OK");
