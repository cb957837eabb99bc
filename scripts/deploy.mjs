// npm run deploy: from a fresh clone to Cloudflare, idempotently, through wrangler. Each step says
// what it does; a failure says why and the command that fixes it (docs/operations.md, "Deploying").
//
//   npm run deploy                     check, provision what is missing, migrate, build, deploy
//   npm run deploy -- --dry-run        what needs no account: checks, build, the bundle and its size
//   --origin https://book.example.com  PUBLIC_ORIGIN, written to wrangler.toml [vars] (a dry run writes nothing)
//   --email-from bookings@example.com  EMAIL_FROM, written to wrangler.toml [vars] (likewise)
//   --no-provision                     create nothing: refuse placeholder database ids
//   --config <file>                    another wrangler.toml (default: the project's)
// OPS_TOKEN and LINK_SECRET (and any other secret the Worker reads) in the environment are
// uploaded with the Worker; those already set on Cloudflare are kept.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkWorkerBudget } from "./deploy/budget.mjs";
import * as cf from "./deploy/cloudflare.mjs";
import {
  configOf,
  isPlaceholderId,
  problems,
  REQUIRED_SECRETS,
  readConfig,
  withDatabaseId,
  withVar,
  writeConfig,
} from "./deploy/config.mjs";
import { ROOT } from "./paths.mjs";

const { values: opts } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    "no-provision": { type: "boolean", default: false },
    origin: { type: "string" },
    "email-from": { type: "string" },
    config: { type: "string", default: join(ROOT, "wrangler.toml") },
  },
});
const DRY = opts["dry-run"];
const SECRET_NAMES = [
  ...REQUIRED_SECRETS,
  "SEARCHENGINE_USER",
  "SEARCHENGINE_PASSWORD",
  "SEARCHENGINE_SERVICE_ACCOUNT",
];
const givenSecrets = SECRET_NAMES.filter((s) => process.env[s]);

let stepNo = 0;
const step = (what) => console.log(`\n[${++stepNo}] ${what}`);
const ok = (what) => console.log(`    ok: ${what}`);
const note = (what) => console.log(`    note: ${what}`);

/** Stops the deploy: what is wrong, and how to fix each. */
function refuse(list) {
  for (const p of list) console.error(`    refused: ${p.what}\n      fix: ${p.fix}`);
  console.error(
    `\nnot deployed: ${list.length} problem${list.length === 1 ? "" : "s"} above, each with its fix.`,
  );
  process.exit(1);
}

/**
 * --origin, --email-from: written to wrangler.toml first, so the next deploy keeps them. A dry run
 * checks them as if written and writes nothing.
 */
function applyVars(config) {
  let text = config.text;
  if (opts.origin) text = withVar(text, "PUBLIC_ORIGIN", opts.origin);
  if (opts["email-from"]) text = withVar(text, "EMAIL_FROM", opts["email-from"]);
  if (text === config.text) return config;
  return DRY ? configOf(config.path, text) : writeConfig(config, text);
}

/** Vars and, as far as the environment tells, secrets; placeholders are the provisioning's. */
function checkLocal(config) {
  step(`checking ${config.path} and the secrets given to this deploy`);
  const found = problems(config, { secrets: givenSecrets });
  const blocking = found.filter((p) => !p.placeholder && !p.secret);
  const placeholders = found.filter((p) => p.placeholder);
  if (DRY) {
    for (const p of blocking) note(`a deploy would refuse: ${p.what}\n      fix: ${p.fix}`);
    for (const p of found.filter((x) => x.secret))
      note(
        `${p.secret} is not in the environment: a deploy refuses unless it is set on Cloudflare\n      fix: ${p.fix}`,
      );
    for (const p of placeholders) note(`${p.what}: a deploy creates the database and writes its id`);
    if (opts.origin || opts["email-from"])
      ok(
        `PUBLIC_ORIGIN ${config.vars.PUBLIC_ORIGIN}, EMAIL_FROM ${config.vars.EMAIL_FROM} (checked, not written)`,
      );
    return;
  }
  if (opts["no-provision"]) blocking.push(...placeholders);
  if (blocking.length) refuse(blocking);
  ok(
    `PUBLIC_ORIGIN ${config.vars.PUBLIC_ORIGIN}, EMAIL_FROM ${config.vars.EMAIL_FROM}; given: ${givenSecrets.join(", ") || "no secret"}`,
  );
}

/** Databases and queues: those missing are created, their ids written to wrangler.toml. */
function provision(config) {
  step("databases (the control database and the shards)");
  const existing = cf.listDatabases(config);
  let text = config.text;
  for (const d of config.databases) {
    const id = existing.get(d.name) ?? (opts["no-provision"] ? null : cf.createDatabase(config, d.name));
    if (!id)
      throw new cf.StepError(`the database ${d.name} does not exist`, `npx wrangler d1 create ${d.name}`);
    if (!existing.has(d.name)) ok(`created ${d.name} (${id})`);
    else if (!isPlaceholderId(d.id) && d.id !== id)
      throw new cf.StepError(
        `${d.binding}'s database_id ${d.id} is not the account's ${d.name} (${id})`,
        `put "${id}" as its database_id in wrangler.toml`,
      );
    else ok(`${d.name} (${id})`);
    text = withDatabaseId(text, d.name, id);
  }
  config = text === config.text ? config : writeConfig(config, text);
  step("queues");
  const queues = cf.listQueues(config);
  for (const q of config.queues) {
    if (queues.includes(q)) ok(q);
    else {
      cf.createQueue(config, q);
      ok(`created ${q}`);
    }
  }
  return config;
}

function migrate(config) {
  step("migrations, every database (remote)");
  for (const d of config.databases) {
    cf.migrateRemote(config, d.name);
    ok(`${d.name}: ${d.migrationsDir} applied`);
  }
}

/** The secrets: those set on Cloudflare and those given now; missing ones stop the deploy. */
function checkSecrets(config) {
  step("secrets");
  const set = cf.listSecrets(config);
  const missing = problems(config, { secrets: [...set, ...givenSecrets] }).filter((p) => p.secret);
  if (missing.length) refuse(missing);
  ok(`set on Cloudflare: ${set.join(", ") || "none"}; uploaded now: ${givenSecrets.join(", ") || "none"}`);
  if (!givenSecrets.length) return undefined;
  const file = join(mkdtempSync(join(tmpdir(), "deploy-secrets-")), "secrets.json");
  writeFileSync(file, JSON.stringify(Object.fromEntries(givenSecrets.map((s) => [s, process.env[s]]))), {
    mode: 0o600,
  });
  return file;
}

async function build(config) {
  step("build: the assets (docs UI, widget), then the Worker as wrangler bundles it");
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new cf.StepError("the build failed (above)", "npm run build");
  if (!(await checkWorkerBudget((line) => ok(line), { config: config.path, startup: true })))
    throw new cf.StepError("the Worker's bundle failed its checks (above)", "npm run build");
}

async function main() {
  console.log(DRY ? "deploy, dry run: no account, nothing uploaded" : "deploy to Cloudflare");
  let config = applyVars(readConfig(opts.config));
  checkLocal(config);
  if (DRY) {
    await build(config);
    console.log("\ndry run done: `npm run deploy` provisions, migrates and uploads this.");
    return;
  }
  step("the Cloudflare account");
  ok(`signed in as ${cf.whoami(config)}`);
  config = provision(config);
  migrate(config);
  const secretsFile = checkSecrets(config);
  await build(config);
  step("deploying");
  try {
    const out = cf.deploy(config, { secretsFile });
    ok(
      out
        .split("\n")
        .filter((l) => /https:\/\/|Current Version ID|Uploaded/.test(l))
        .join("\n        ") || "deployed",
    );
  } finally {
    if (secretsFile) rmSync(join(secretsFile, ".."), { recursive: true, force: true });
  }
  console.log(`\ndeployed ${config.name} to ${config.vars.PUBLIC_ORIGIN}`);
}

try {
  await main();
} catch (err) {
  if (!(err instanceof cf.StepError)) throw err;
  console.error(`    failed: ${err.message}\n      fix: ${err.fix}`);
  if (err.output)
    console.error(
      err.output
        .trim()
        .split("\n")
        .slice(-15)
        .map((l) => `      | ${l}`)
        .join("\n"),
    );
  process.exit(1);
}
