// Starts the Worker with `wrangler dev` on a local embedded D1, quietly and offline.
// Used by `npm start`, the end-to-end tests and the benchmark.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { constants as osConstants } from "node:os";
import { join } from "node:path";
import { migrateLocal } from "./migrate.mjs";
import { defaultPersistDir, QUIET_ENV, ROOT, WRANGLER, wrangler } from "./paths.mjs";

export { defaultPersistDir, QUIET_ENV, ROOT, wrangler };

export function build() {
  // npm test builds once, first, and says so to every stage after it (scripts/test.mjs).
  if (process.env.BOOKING_ENGINE_BUILT === "1") return;
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("build failed");
}

/** Applies the migrations of the control database and of every shard to the local D1s under `persistTo`. */
export function migrate(persistTo) {
  return migrateLocal(persistTo);
}

/**
 * Spawns `wrangler dev` and resolves once /healthz answers.
 * Returns { url, child, stop(), inspectorPort }. Output goes to `log` (a function) line by line.
 * `inspector`: with wrangler's devtools inspector (npm start); without it, as tests and the
 * bench run it, wrangler does not relay every event of the Worker to its Node process.
 * `clock` (default: the DEV_CLOCK environment variable) sets the Worker's clock to a fixed
 * instant ("2026-11-23T12:51:00Z") or shifts it ("+3600000" ms); see worker/lib/clock.ts.
 */
export async function startDev({
  port = 8787,
  persistTo,
  log = () => {},
  vars: extraVars = {},
  clock = process.env.DEV_CLOCK,
  logLevel = "warn",
  timeoutMs = 60_000,
  inspector = false,
} = {}) {
  const url = `http://127.0.0.1:${port}`;
  // ENVIRONMENT=development is what lets the Worker honour DEV_CLOCK; a deployed Worker lacks it.
  // PUBLIC_ORIGIN: the links the Worker writes (booking pages, manage links in emails) point here.
  const vars = {
    ENVIRONMENT: "development",
    PUBLIC_ORIGIN: url,
    ...(clock ? { DEV_CLOCK: clock } : {}),
    ...extraVars,
  };
  // Neither wrangler's API nor, when another workerd holds the port (both listening with
  // SO_REUSEPORT), its CLI fails on a taken port: it is tried here first.
  if (!(await canListen(port))) throw new PortTakenError(port, "");
  const assets = snapshotAssets(port);
  const { args, inspectorPort } = await devCommand({ port, persistTo, logLevel, vars, inspector, assets });
  // A process group of its own: wrangler's bin starts the CLI, which starts workerd and esbuild;
  // stopping the group stops them all (killing only the first would orphan the rest).
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_ENV },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // Whatever ends this process (a failed test, Ctrl+C), the group goes with it, and its assets.
  const onExit = () => {
    killGroup("SIGKILL");
    rmSync(assets, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  // SIGTERM or SIGHUP end a process without its "exit" handlers (a runner or spawnSync's timeout
  // stopping it): the group would outlive it, so it goes first.
  const onSignal = (signal) => {
    killGroup("SIGKILL");
    process.exit(128 + (osConstants.signals[signal] ?? 15));
  };
  for (const signal of ["SIGTERM", "SIGHUP"]) process.once(signal, onSignal);
  let output = "";
  const onData = (chunk) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split("\n")) if (line.trim()) log(line);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const stop = () =>
    new Promise((resolve) => {
      const hard = setTimeout(() => killGroup("SIGKILL"), 5000);
      const done = () => {
        clearTimeout(hard);
        killGroup("SIGKILL"); // whatever of the group outlived the CLI
        rmSync(assets, { recursive: true, force: true });
        process.off("exit", onExit);
        for (const signal of ["SIGTERM", "SIGHUP"]) process.off(signal, onSignal);
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", done);
      killGroup("SIGTERM");
    });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // wrangler's CLI says so, then exits: told apart from other exits, so another port can be tried.
    if (/Address already in use/.test(output)) {
      await stop();
      throw new PortTakenError(port, output);
    }
    if (child.exitCode !== null) {
      await stop(); // what the CLI started goes with it, and the handlers above
      throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    }
    try {
      // A bounded wait: whatever holds the port may never answer.
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return { url, child, stop, inspectorPort };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await stop();
  throw new Error(`wrangler dev did not answer within ${timeoutMs} ms:\n${output}`);
}

const SERVED = join(ROOT, ".wrangler", "served");

/**
 * The assets this server serves: a copy of dist/public of its own, which no later build reaches.
 * wrangler dev reads its assets' manifest once; a build that replaced the files under it left
 * every asset answering 500 until a restart. A build switching dist/public while the copy is
 * made fails the copy, which is made again. Copies of servers whose process is gone are removed.
 */
function snapshotAssets(port) {
  mkdirSync(SERVED, { recursive: true });
  for (const name of readdirSync(SERVED)) {
    const pid = Number(name.split("-")[0]);
    if (pid && pid !== process.pid && !alive(pid))
      rmSync(join(SERVED, name), { recursive: true, force: true });
  }
  const dir = join(SERVED, `${process.pid}-${port}`);
  const built = join(ROOT, "dist", "public");
  for (let attempt = 1; ; attempt++) {
    rmSync(dir, { recursive: true, force: true });
    try {
      // not built yet: an empty folder, and the Worker's own routes still answer
      if (existsSync(built)) cpSync(built, dir, { recursive: true });
      else mkdirSync(dir, { recursive: true });
      return dir;
    } catch (err) {
      if (err.code !== "ENOENT" || attempt >= 5) throw err;
    }
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** wrangler dev could not listen on its port: something else does. */
export class PortTakenError extends Error {
  constructor(port, output) {
    super(`port ${port} is already in use (Address already in use)${output ? `:\n${output}` : ""}`);
    this.port = port;
  }
}

/**
 * What startDev spawns with Node: wrangler's CLI with its devtools inspector on a free port, or,
 * without it, scripts/dev-worker.mjs (wrangler's API; the CLI cannot turn the inspector off).
 */
async function devCommand({ port, persistTo, logLevel, vars, inspector, assets }) {
  if (!inspector)
    return {
      args: [
        join(ROOT, "scripts", "dev-worker.mjs"),
        JSON.stringify({ port, persistTo, vars, logLevel, assets }),
      ],
    };
  const inspectorPort = await freePort();
  const args = [WRANGLER, "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo];
  args.push("--assets", assets);
  args.push(
    "--show-interactive-dev-session=false",
    "--test-scheduled",
    "--log-level",
    logLevel,
    "--inspector-port",
    String(inspectorPort),
  );
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  return { args, inspectorPort };
}

/**
 * startDev on a port the system hands out. Between freePort closing its socket and wrangler
 * binding the port, another process (workerd's own loopback ports, a test server beside it) can
 * take it: then wrangler exits "Address already in use", and a new port is tried.
 */
export async function startDevOnFreePort(options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDev({ ...options, port: await freePort() });
    } catch (err) {
      if (attempt >= 3 || !(err instanceof PortTakenError)) throw err;
      options.log?.(`wrangler dev: its port was taken meanwhile, trying another (attempt ${attempt + 1})`);
    }
  }
}

/** Whether this process could listen on 127.0.0.1:`port` (it does, then closes). */
function canListen(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A port nothing listens on, as the system hands it out (listen on 0, read it, close). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export { existsSync };
