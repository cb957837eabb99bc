// `npm start` (scripts/start.mjs) for the end-to-end tests: on a port and state folder of the
// test's own, resolved with its banner once it says Ready; and stopped again. Its local secrets
// are the test's own too: the first npm start of a test file keeps them in its state folder
// (DEV_VARS_FILE, which the commands the test runs after it inherit), never in the developer's
// .dev.vars.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { freePort, ROOT } from "../../scripts/dev-server.mjs";

export function npmStart({ port, state, timeoutMs = 90_000 }) {
  const started = Date.now();
  process.env.DEV_VARS_FILE ??= join(state, "dev.vars");
  const child = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), STATE_DIR: state },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopNpmStart(child); // not left running behind the failed test
      reject(new Error(`npm start not ready in ${timeoutMs / 1000} s:\n${out}`));
    }, timeoutMs);
    const onData = (chunk) => {
      out += chunk;
      if (out.includes("Press Ctrl+C to stop.")) {
        clearTimeout(timer);
        resolve({ child, out, seconds: (Date.now() - started) / 1000 });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited ${code}:\n${out}`));
    });
  });
}

/**
 * npmStart on `port`, or on one the system hands out. Between freePort closing its socket and
 * wrangler binding the port, another process (the other lane's workerd) can take it: then npm
 * start says so and exits, and another free port is tried. Answers the port used.
 */
export async function npmStartOnFreePort({ port, ...options }) {
  for (let attempt = 1; ; attempt++) {
    const tried = port ?? (await freePort());
    try {
      return { ...(await npmStart({ ...options, port: tried })), port: tried };
    } catch (err) {
      if (attempt >= 3 || !/npm start: port \d+ is already in use/.test(String(err?.message))) throw err;
      port = undefined;
    }
  }
}

export function stopNpmStart(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners("exit");
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
}

/** The value after `label` in the banner ("client_id     ci_..."). */
export const bannerField = (out, label) => out.match(new RegExp(`${label}\\s+(\\S+)`))?.[1];
