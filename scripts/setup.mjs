// What a fresh machine lacks, installed on demand: npm packages, and Debian's chromium for browser tests.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Headless, and offline: without the background-networking flags Chromium keeps reaching for
 * Google's services at start and after, and this machine's closed network refuses each try.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
];

function run(cmd, args, env = {}, cwd = ROOT) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status})`);
}

/** `npm ci` in `dir` (the project, or the bench's own package) when its node_modules is missing or older than its package-lock.json. */
export function ensureDeps(dir = ROOT) {
  const marker = join(dir, "node_modules", ".package-lock.json");
  const lock = join(dir, "package-lock.json");
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log(`installing npm packages in ${dir} (npm ci)...`);
  run("npm", ["ci", "--no-audit", "--no-fund"], {}, dir);
}

/** Debian's chromium (never a browser download): apt-get when root, else a clear instruction. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `browser tests need ${CHROMIUM}: install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  console.log("installing Debian's chromium for the browser tests (apt-get)...");
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], {
    DEBIAN_FRONTEND: "noninteractive",
  });
  return CHROMIUM;
}
