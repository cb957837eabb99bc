// Where the project, wrangler and the local state are, and how to run wrangler quietly.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

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

/** The local D1 of `npm start` and the ops commands. */
export function defaultPersistDir() {
  return process.env.STATE_DIR ?? join(ROOT, ".wrangler", "state");
}
