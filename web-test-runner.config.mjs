// Component tests of <booking-engine> in Debian's Chromium, against a real Worker: wrangler dev on
// a fresh local D1 with the demo restaurant of `npm start`, its origin and public key handed to
// the tests in window.BE (see tests/widget/env.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { freePort, migrate, startDev } from "./scripts/dev-server.mjs";
import { ensureDemo } from "./scripts/demo.mjs";
import { CHROMIUM } from "./scripts/setup.mjs";

/** wrangler dev for the run: started before the first test file, stopped after the last. */
function realWorker() {
  const env = {};
  let server;
  let dir;
  return {
    env,
    plugin: {
      name: "real-worker",
      async serverStart() {
        dir = mkdtempSync(join(tmpdir(), "be-wtr-"));
        migrate(dir);
        const lines = [];
        try {
          server = await startDev({ port: await freePort(30000, 5000), persistTo: dir, log: (l) => lines.push(l) });
        } catch (err) {
          console.error(lines.join("\n"));
          throw err;
        }
        const demo = await ensureDemo(server.url, dir);
        Object.assign(env, { api: server.url, publicKey: demo.public_key, propertyId: demo.property_id, token: demo.token });
        console.log(`wrangler dev for the widget tests on ${server.url} (restaurant ${demo.public_key})`);
      },
      async serverStop() {
        await server?.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}

const worker = realWorker();
const BROWSER_ZONE = "Pacific/Kiritimati";

/**
 * The integrator API for the tests, as the restaurant's staff: `/staff/<path>` is
 * `<api>/api/v2/<path>` with the demo client's token. The integrator API answers no browser
 * (no CORS), and what the staff books does not spend the public API's small per-address budget
 * of bookings and cancellations (10 a minute), which the guests of the tests share.
 */
async function staff(ctx, next) {
  if (!ctx.path.startsWith("/staff/")) return next();
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  const res = await fetch(`${worker.env.api}/api/v2/${ctx.url.slice("/staff/".length)}`, {
    method: ctx.method,
    headers: { Authorization: `Bearer ${worker.env.token}`, Property: String(worker.env.propertyId), "Content-Type": "application/json" },
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  ctx.status = res.status;
  ctx.type = "application/json";
  ctx.body = await res.text();
}

export default {
  files: ["tests/widget/**/*.test.ts"],
  nodeResolve: true,
  // One browser page at a time: the tests share one restaurant and its tables.
  concurrency: 1,
  testsFinishTimeout: 180_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 20_000 } },
  middleware: [staff],
  plugins: [esbuildPlugin({ ts: true, tsconfig: "tsconfig.widget.json", target: "es2022" }), worker.plugin],
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: { executablePath: CHROMIUM, args: ["--no-sandbox", "--headless"] },
      // The browser lives 13 hours ahead of the restaurant (Europe/Rome): a time shifted into the
      // browser's zone, or a date read in it, shows up in the tests at once.
      createBrowserContext: ({ browser }) => browser.newContext({ timezoneId: BROWSER_ZONE, locale: "en-US" }),
    }),
  ],
  testRunnerHtml: (testFramework) => `<!doctype html>
    <html lang="en">
      <head><meta charset="utf-8"><title>booking-engine tests</title></head>
      <body>
        <script>window.BE = ${JSON.stringify({ ...worker.env, browserZone: BROWSER_ZONE })};</script>
        <script type="module" src="${testFramework}"></script>
      </body>
    </html>`,
};
