// The Worker's upload: bundled by wrangler exactly as a deploy would (`wrangler deploy --dry-run`),
// measured against its budget; and its startup CPU (`wrangler check startup`, offline).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { QUIET_ENV, ROOT, wrangler } from "../paths.mjs";

/** Cloudflare's limit for a paid plan: 1 MiB gzipped after the Stripe SDK joined (start-up CPU is what is measured, docs/operations.md). */
export const WORKER_BUDGET_KIB = 1024;
export const kib = (n) => `${n.toFixed(1)} KiB`;

/**
 * Bundles the Worker as `wrangler deploy` would, without uploading: { kib, gzipKib, outdir }.
 * BOOKING_ENGINE_BUILT=1: wrangler.toml's [build] step is skipped, the caller built the assets.
 */
export function bundleWorker({
  config = join(ROOT, "wrangler.toml"),
  outdir = mkdtempSync(join(tmpdir(), "worker-bundle-")),
} = {}) {
  const r = wrangler(["deploy", "--dry-run", "--config", config, "--outdir", outdir], {
    env: { ...process.env, ...QUIET_ENV, BOOKING_ENGINE_BUILT: "1" },
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const m = output.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
  if (r.status !== 0 || !m) return { ok: false, output, outdir };
  return { ok: true, kib: Number(m[1]), gzipKib: Number(m[2]), outdir, output };
}

/** Where the Worker's bundle meets zod's `z`, and how each names it (`z.string()`, `zod.ZodType`). */
const Z_USERS = [
  { dir: "worker", pattern: /\bz\.([A-Za-z_$][\w$]*)/g },
  { dir: "shared", pattern: /\bz\.([A-Za-z_$][\w$]*)/g },
  {
    file: "node_modules/@asteasolutions/zod-to-openapi/dist/index.mjs",
    pattern: /\bzod\.([A-Za-z_$][\w$]*)/g,
  },
];

const sources = (dir) =>
  readdirSync(join(ROOT, dir), { recursive: true })
    .filter((f) => /\.(ts|js|mjs)$/.test(f))
    .map((f) => join(dir, f));

/**
 * bundle/zod.js's `z` names only the members of zod's own that the Worker uses (so that the rest
 * tree-shakes away): the members of zod's `z` that worker/, shared/ or zod-to-openapi name and it
 * does not, with where each is used first. Types (`z.infer<...>`) are no members and never count.
 */
export async function zodAliasGaps() {
  const zod = await import(pathToFileURL(join(ROOT, "node_modules", "zod", "index.js")).href);
  const lean = await import(pathToFileURL(join(ROOT, "bundle", "zod.js")).href);
  const gaps = new Map();
  for (const { dir, file, pattern } of Z_USERS) {
    for (const path of file ? [file] : sources(dir)) {
      for (const [, name] of readFileSync(join(ROOT, path), "utf8").matchAll(pattern)) {
        if (Object.hasOwn(zod.z, name) && !Object.hasOwn(lean.z, name) && !gaps.has(name))
          gaps.set(name, path);
      }
    }
  }
  return [...gaps].map(([name, path]) => `${name} (${path})`);
}

/**
 * The Worker's startup CPU in ms, measured by `wrangler check startup` on this machine (a CPU
 * profile of the script's evaluation in a local workerd): the profile's samples that are not idle.
 */
export function startupCpuMs() {
  const dir = mkdtempSync(join(tmpdir(), "worker-startup-"));
  const outfile = join(dir, "startup.cpuprofile");
  try {
    const r = wrangler(["check", "startup", "--outfile", outfile], {
      env: { ...process.env, ...QUIET_ENV, BOOKING_ENGINE_BUILT: "1" },
    });
    if (r.status !== 0) throw new Error(`wrangler check startup failed:\n${r.stdout}${r.stderr}`);
    const profile = JSON.parse(readFileSync(outfile, "utf8"));
    const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    let us = 0;
    // DevTools' convention: a sample stands for the interval up to the next one
    profile.samples.forEach((id, i) => {
      if (!idle.has(id)) us += profile.timeDeltas[i + 1] ?? 0;
    });
    return us / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
