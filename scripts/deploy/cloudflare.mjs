// What a deploy asks of the Cloudflare account, each through wrangler (its login or
// CLOUDFLARE_API_TOKEN): who we are, which databases and queues exist, creating the missing ones,
// the remote migrations, the secrets already set, and the deploy itself.
import { wrangler } from "../paths.mjs";

/** A failed step: what went wrong, and the command that fixes it. */
export class StepError extends Error {
  constructor(message, fix, output = "") {
    super(message);
    this.fix = fix;
    this.output = output;
  }
}

function run(config, args, { fix, what, env } = {}) {
  const r = wrangler([...args, "--config", config.path], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.replace(/\x1b\[[0-9;]*m/g, "");
  if (r.status !== 0)
    throw new StepError(
      `${what ?? `wrangler ${args.join(" ")}`} failed`,
      fix ?? `npx wrangler ${args.join(" ")}`,
      output,
    );
  return r.stdout ?? "";
}

export function whoami(config) {
  const out = run(config, ["whoami", "--json"], {
    what: "asking Cloudflare who we are (wrangler whoami)",
    fix: "npx wrangler login (or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID); if it is the network, the lines below say so",
  });
  const me = JSON.parse(out);
  return me.email ?? me.accounts?.[0]?.name ?? "the account";
}

/** The account's D1 databases: Map name -> uuid. */
export function listDatabases(config) {
  const list = JSON.parse(run(config, ["d1", "list", "--json"]));
  return new Map(list.map((d) => [d.name, d.uuid]));
}

export function createDatabase(config, name) {
  const out = run(config, ["d1", "create", name], { fix: `npx wrangler d1 create ${name}` });
  const id = out.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0];
  if (!id)
    throw new StepError(
      `wrangler d1 create ${name} printed no id`,
      `npx wrangler d1 list, and the id of "${name}" into wrangler.toml`,
      out,
    );
  return id;
}

/** The names of the account's queues (wrangler prints a table). */
export function listQueues(config) {
  return run(config, ["queues", "list"])
    .split("\n")
    .flatMap((l) => l.split("│").map((c) => c.trim()))
    .filter(Boolean);
}

export function createQueue(config, name) {
  run(config, ["queues", "create", name], { fix: `npx wrangler queues create ${name}` });
}

export function migrateRemote(config, name) {
  run(config, ["d1", "migrations", "apply", name, "--remote"], {
    fix: `npx wrangler d1 migrations apply ${name} --remote`,
  });
}

/** The names of the secrets set on the Worker (none before its first deploy). */
export function listSecrets(config) {
  const r = wrangler(["secret", "list", "--format", "json", "--config", config.path], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.status !== 0) return [];
  try {
    return JSON.parse(r.stdout).map((s) => s.name);
  } catch {
    return [];
  }
}

/** `wrangler deploy` (the assets are built: its [build] step is skipped). */
export function deploy(config, { secretsFile } = {}) {
  const args = ["deploy", ...(secretsFile ? ["--secrets-file", secretsFile] : [])];
  return run(config, args, { env: { BOOKING_ENGINE_BUILT: "1" }, fix: "npx wrangler deploy" });
}
