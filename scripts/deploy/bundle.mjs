// The Worker's upload, bundled by wrangler exactly as a deploy would (`wrangler deploy --dry-run`),
// and its start-up CPU: a CPU profile of that same bundle's start-up (`wrangler check startup`).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QUIET_ENV, ROOT, wrangler } from "../paths.mjs";

/** Cloudflare's own size limit is several times this; ours keeps an eye on what the libraries bring. */
export const UPLOAD_BUDGET_KIB = 1024;
/** Cloudflare refuses a Worker whose start-up takes over a second; ours keeps a cold start short. */
export const STARTUP_BUDGET_MS = 150;
export const kib = (n) => `${n.toFixed(1)} KiB`;

/**
 * Bundles the Worker as `wrangler deploy` would, without uploading: { ok, kib, gzipKib, outdir,
 * bundle } (bundle: the upload's multipart form, which `wrangler check startup` reads).
 * BOOKING_ENGINE_BUILT=1: wrangler.toml's [build] step is skipped, the caller built the assets.
 */
export function bundleWorker({
  config = join(ROOT, "wrangler.toml"),
  outdir = mkdtempSync(join(tmpdir(), "worker-bundle-")),
} = {}) {
  const bundle = join(outdir, "worker.bundle");
  const r = wrangler(
    ["deploy", "--dry-run", "--config", config, "--outdir", join(outdir, "dist"), "--outfile", bundle],
    { env: { ...process.env, ...QUIET_ENV, BOOKING_ENGINE_BUILT: "1" } },
  );
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const m = output.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
  if (r.status !== 0 || !m) return { ok: false, output, outdir };
  return { ok: true, kib: Number(m[1]), gzipKib: Number(m[2]), outdir, bundle, output };
}

/**
 * The start-up CPU of a bundle in ms: `wrangler check startup` loads it in a local workerd and
 * profiles the import of its main module (parsing, compiling and running every module's top
 * level); the figure is the profile's samples that are not idle, garbage collection included.
 * The profiler samples every millisecond or so, and a sample taken while this machine's other
 * work holds the CPU still counts: a busy machine reads high, never low.
 */
export function startupCpuMs(bundle) {
  const outfile = join(mkdtempSync(join(tmpdir(), "worker-startup-")), "startup.cpuprofile");
  try {
    const r = wrangler(["check", "startup", "--worker", bundle, "--outfile", outfile]);
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
    rmSync(join(outfile, ".."), { recursive: true, force: true });
  }
}

/**
 * The least of three profiles (the others carry more of this machine's other work), with every
 * run; three more when the least is not under `budget`, as a busy machine's figures are too high.
 */
export function startupCpu(bundle, budget = STARTUP_BUDGET_MS) {
  const runs = [startupCpuMs(bundle), startupCpuMs(bundle), startupCpuMs(bundle)];
  if (Math.min(...runs) >= budget)
    runs.push(startupCpuMs(bundle), startupCpuMs(bundle), startupCpuMs(bundle));
  return { ms: Math.min(...runs), runs };
}
