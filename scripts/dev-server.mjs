// Starts the Worker with `wrangler dev` on a local embedded D1, quietly and offline.
// Used by `npm start`, the end-to-end tests and the benchmark.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/** No telemetry, no Request.cf fetch from Cloudflare, no update checks, no prompts. */
export const QUIET_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  NO_UPDATE_NOTIFIER: "1",
  CI: process.env.CI ?? "true",
};

export function wrangler(args, options = {}) {
  return spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_ENV },
    encoding: "utf8",
    ...options,
  });
}

export function build() {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("build failed");
}

/** Applies the migrations in migrations/ to the local D1 under `persistTo`. */
export function migrate(persistTo) {
  const r = wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo]);
  if (r.status !== 0) throw new Error(`migrations failed:\n${r.stdout}\n${r.stderr}`);
  const applied = (r.stdout.match(/│\s*(\d{4}_[\w-]+\.sql)\s*│\s*✅/g) ?? []).length;
  return applied;
}

/**
 * Spawns `wrangler dev` and resolves once /healthz answers.
 * Returns { url, child, stop() }. Output goes to `log` (a function) line by line.
 */
export async function startDev({ port = 8787, persistTo, log = () => {}, vars = {}, timeoutMs = 60_000 } = {}) {
  const args = [
    WRANGLER,
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
    "--test-scheduled",
    "--log-level",
    "warn",
    "--inspector-port",
    String(port + 10000 > 65535 ? 0 : port + 10000),
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const onData = (chunk) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split("\n")) if (line.trim()) log(line);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { url, child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await stop();
  throw new Error(`wrangler dev did not answer within ${timeoutMs} ms:\n${output}`);
}

function portFree(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A free port in [from, from + span) whose inspector port (port + 10000, see startDev) is free too. */
export async function freePort(from = 20000, span = 10000) {
  for (let i = 0; i < 200; i++) {
    const port = from + Math.floor(Math.random() * span);
    if ((await portFree(port)) && (await portFree(port + 10000))) return port;
  }
  throw new Error("no free port for wrangler dev");
}

export function defaultPersistDir() {
  return process.env.STATE_DIR ?? join(ROOT, ".wrangler", "state");
}

export { existsSync };
