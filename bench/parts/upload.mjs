// The Worker's upload (gzipped, as wrangler counts it) and its start-up CPU, offline: the bundle
// of `wrangler deploy --dry-run` and the CPU profile of `wrangler check startup` of that bundle,
// three times or six (the least: the others carry more of this machine's other work).
import { rmSync } from "node:fs";
import {
  bundleWorker,
  kib,
  STARTUP_BUDGET_MS,
  startupCpu,
  UPLOAD_BUDGET_KIB,
} from "../../scripts/deploy/bundle.mjs";
import { fmt } from "./report.mjs";

export async function uploadPart() {
  const b = bundleWorker();
  try {
    if (!b.ok) throw new Error(`wrangler could not bundle the Worker:\n${b.output}`);
    const cpu = startupCpu(b.bundle);
    console.log(
      [
        "",
        `Worker upload: ${kib(b.kib)}, ${kib(b.gzipKib)} gzipped (budget ${kib(UPLOAD_BUDGET_KIB)} gzipped)`,
        `start-up CPU (wrangler check startup, least of ${cpu.runs.length}): ${fmt(cpu.ms)} ms (runs: ${cpu.runs.map((r) => fmt(r)).join(", ")}; budget ${STARTUP_BUDGET_MS} ms)`,
      ].join("\n"),
    );
    return {
      kib: b.kib,
      gzipKib: b.gzipKib,
      budgetKib: UPLOAD_BUDGET_KIB,
      startupMs: cpu.ms,
      startupRuns: cpu.runs,
      startupBudgetMs: STARTUP_BUDGET_MS,
    };
  } finally {
    rmSync(b.outdir, { recursive: true, force: true });
  }
}
