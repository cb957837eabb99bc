// The Worker's upload against its budget, as `npm run build` and the deploy's dry run print it.
import { rmSync } from "node:fs";
import { bundleWorker, kib, WORKER_BUDGET_KIB, zodAliasGaps } from "./bundle.mjs";

/** Bundles the Worker, prints its upload; false (with the reason printed) when over budget or broken. */
export async function checkWorkerBudget(say, { config } = {}) {
  const gaps = await zodAliasGaps();
  if (gaps.length) {
    console.error(
      `bundle/zod.js does not name zod's ${gaps.join(", ")}: add them to its z (the Worker's bundle would have them undefined)`,
    );
    return false;
  }
  const b = bundleWorker(config ? { config } : {});
  rmSync(b.outdir, { recursive: true, force: true });
  if (!b.ok) {
    console.error(`wrangler could not bundle the Worker:\\n${b.output}`);
    return false;
  }
  say(
    `bundled the Worker: upload ${kib(b.kib)}, ${kib(b.gzipKib)} gzipped (budget ${kib(WORKER_BUDGET_KIB)} gzipped)`,
  );
  if (b.gzipKib > WORKER_BUDGET_KIB) {
    console.error(
      `the Worker's upload is over its budget of ${kib(WORKER_BUDGET_KIB)} gzipped: bundle it with --metafile and look at what grew (docs/operations.md, "The Worker's size")`,
    );
    return false;
  }
  return true;
}
