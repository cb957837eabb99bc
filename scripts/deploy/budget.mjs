// The Worker's upload against its budgets: at most UPLOAD_BUDGET_KIB gzipped and, when asked
// (the deploy and its dry run), a start-up CPU under STARTUP_BUDGET_MS.
import { rmSync } from "node:fs";
import { bundleWorker, kib, STARTUP_BUDGET_MS, startupCpu, UPLOAD_BUDGET_KIB } from "./bundle.mjs";

const ms = (n) => `${n.toFixed(1)} ms`;

/** Bundles the Worker and prints its figures; false (with the reason printed) when over a budget or broken. */
export async function checkWorkerBudget(say, { config, startup = false } = {}) {
  const b = bundleWorker(config ? { config } : {});
  try {
    if (!b.ok) {
      console.error(`wrangler could not bundle the Worker:\n${b.output}`);
      return false;
    }
    say(
      `bundled the Worker: upload ${kib(b.kib)}, ${kib(b.gzipKib)} gzipped (budget ${kib(UPLOAD_BUDGET_KIB)} gzipped)`,
    );
    if (b.gzipKib > UPLOAD_BUDGET_KIB) {
      console.error(
        `the Worker's upload is over its budget of ${kib(UPLOAD_BUDGET_KIB)} gzipped: bundle it with --metafile and look at what grew (docs/operations.md, "The Worker's size")`,
      );
      return false;
    }
    if (!startup) return true;
    const cpu = startupCpu(b.bundle);
    say(
      `start-up CPU: ${ms(cpu.ms)} (least of ${cpu.runs.length} profiles on this machine: ${cpu.runs.map(ms).join(", ")}; budget ${ms(STARTUP_BUDGET_MS)})`,
    );
    if (cpu.ms >= STARTUP_BUDGET_MS) {
      console.error(
        `the Worker's start-up CPU is over its budget of ${ms(STARTUP_BUDGET_MS)}: profile it with \`npx wrangler check startup\` and look at what runs at the top level (docs/operations.md, "The Worker's size")`,
      );
      return false;
    }
    return true;
  } finally {
    rmSync(b.outdir, { recursive: true, force: true });
  }
}
