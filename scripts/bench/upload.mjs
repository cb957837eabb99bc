// The Worker's upload (gzipped, as wrangler counts it) and its startup CPU, offline: the bundle
// of `wrangler deploy --dry-run` and the CPU profile of `wrangler check startup`, three times
// (the least: the others are this machine's other work).
import { rmSync } from "node:fs";
import { bundleWorker, kib, startupCpuMs, WORKER_BUDGET_KIB } from "../deploy/bundle.mjs";
import { fmt } from "./report.mjs";

export async function uploadPart() {
  const b = bundleWorker();
  rmSync(b.outdir, { recursive: true, force: true });
  if (!b.ok) throw new Error(`wrangler could not bundle the Worker:\n${b.output}`);
  const runs = [startupCpuMs(), startupCpuMs(), startupCpuMs()];
  const startupMs = Math.min(...runs);
  console.log(
    [
      "",
      `Worker upload: ${kib(b.kib)}, ${kib(b.gzipKib)} gzipped (budget ${kib(WORKER_BUDGET_KIB)} gzipped)`,
      `startup CPU (wrangler check startup, least of 3): ${fmt(startupMs)} ms (runs: ${runs.map((r) => fmt(r)).join(", ")})`,
    ].join("\n"),
  );
  return { kib: b.kib, gzipKib: b.gzipKib, budgetKib: WORKER_BUDGET_KIB, startupMs, startupRuns: runs };
}
