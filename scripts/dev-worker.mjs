// `wrangler dev` without its devtools relay, through wrangler's own API (startWorker with
// `dev.inspector: false`, which the CLI of wrangler 4.86 cannot ask for). Spawned by
// scripts/dev-server.mjs with `{ port, persistTo, vars, logLevel, assets }` as JSON in argv[2]
// (`assets`: the server's own copy of dist/public).
//
// Why: the CLI's inspector relay forwards every devtools event of the Worker (each subrequest
// and binding call raises several Network events) to Node as a debug log line, and wrangler
// appends each to a debug log file: under load that relay took more CPU than the Worker itself
// (measured: 80,000 events and a 67 MB log for 800 bookings). The bench runs without it.
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { ROOT } from "./paths.mjs";

const { port, persistTo, vars, logLevel, assets } = JSON.parse(process.argv[2]);

const worker = await unstable_startWorker({
  config: join(ROOT, "wrangler.toml"),
  ...(assets ? { assets } : {}),
  bindings: Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [name, { type: "plain_text", value: String(value) }]),
  ),
  dev: {
    inspector: false,
    remote: false,
    server: { hostname: "127.0.0.1", port },
    persist: persistTo,
    logLevel,
    testScheduled: true,
    watch: false,
    liveReload: false,
  },
});
await worker.ready;
console.log(`Ready on ${await worker.url}`);
const stop = async () => {
  await worker.dispose().catch(() => {});
  process.exit(0);
};
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.once(signal, stop);
