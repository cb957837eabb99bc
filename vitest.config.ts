import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { startStripeStandin } from "./scripts/stripe-standin/server.mjs";
import { startReceiver } from "./tests/receiver.mjs";

/** The entry points of our npm dependencies (`hono`, `hono/cors`, ...) that the TypeScript files under `dirs` import. */
function packageImports(dirs: string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".ts"))
        for (const m of readFileSync(path, "utf8").matchAll(/\bfrom "([^".][^"]*)"/g)) found.add(m[1]!);
    }
  };
  dirs.forEach(walk);
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const installed = new Set(
    [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter(
      (n) => !/^(vitest|@cloudflare\/)/.test(n),
    ),
  );
  return [...found]
    .filter((s) =>
      installed.has(
        s
          .split("/")
          .slice(0, s.startsWith("@") ? 2 : 1)
          .join("/"),
      ),
    )
    .sort();
}

// wrangler.toml names dist/public as the assets folder; `npm run build` fills it.
mkdirSync(fileURLToPath(new URL("./dist/public", import.meta.url)), { recursive: true });
const migrations = {
  control: await readD1Migrations(fileURLToPath(new URL("./migrations/control", import.meta.url))),
  shard: await readD1Migrations(fileURLToPath(new URL("./migrations/shard", import.meta.url))),
};
// A real HTTP receiver for webhook deliveries, in this Node process (tests/receiver.mjs).
const receiver = await startReceiver();
// The local Stripe stand-in (scripts/stripe-standin/): the Worker's SDK calls it; its events wait
// for the tests to hand them to the Worker (tests/worker/payments.helpers.ts), which has no address.
const stripe = await startStripeStandin();
// DEV_CLOCK=<ISO instant> runs the suite from that instant on: the Worker's clock is shifted, not
// frozen, since webhook retries and expiry need time to pass (worker/lib/clock.ts).
const clock = process.env.DEV_CLOCK ?? "";
const devClock =
  clock && !/^[+-]/.test(clock)
    ? `${Date.parse(clock) >= Date.now() ? "+" : "-"}${Math.abs(Date.parse(clock) - Date.now())}`
    : clock;

export default defineConfig({
  plugins: [
    cloudflareTest({
      main: "./worker/index.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          CONTROL_MIGRATIONS: migrations.control,
          SHARD_MIGRATIONS: migrations.shard,
          // The Worker's clock (worker/lib/clock.ts), shared with the tests through its module.
          ENVIRONMENT: "development",
          DEV_CLOCK: devClock,
          RECEIVER_URL: receiver.url,
          // Links in answers and emails point here, whatever Host a request names (tests/worker/helpers.ts ORIGIN).
          PUBLIC_ORIGIN: "https://api.test",
          LINK_SECRET: "test-link-secret-0123456789",
          // the schedule (0, 5 s, 5 min, 30 min, ...) shrunk 10000-fold (0, 0.5 ms, 30 ms, 0.18 s, 0.72 s, 1.8 s, 3.6 s, 3.6 s); queue delays round up to whole seconds
          WEBHOOK_RETRY_SCALE: "0.0001",
          WEBHOOK_TIMEOUT_MS: "1000",
          // The operator's door (/__ops), for the tests of moves between shards.
          OPS_TOKEN: "test-ops-token",
          // The search engine's partner (worker/searchengine): its credentials, and its notification API
          // and token endpoint played by the receiver, which signed nothing it did not hand out the key for.
          SEARCHENGINE_USER: "partner-test",
          SEARCHENGINE_PASSWORD: "partner-test-password",
          SEARCHENGINE_PARTNER_ID: "20000001",
          SEARCHENGINE_NOTIFICATION_URL: `${receiver.url}/google`,
          SEARCHENGINE_SERVICE_ACCOUNT: JSON.stringify(receiver.serviceAccount),
          STRIPE_API_BASE: stripe.url,
          STRIPE_JS_URL: stripe.jsUrl,
          STRIPE_SECRET_KEY: stripe.keys.secretKey,
          STRIPE_PUBLISHABLE_KEY: stripe.keys.publishableKey,
          STRIPE_WEBHOOK_SECRET: stripe.keys.webhookSecret,
        },
        // Small limits so the 429 paths are reachable in a test (each request in a test file costs more than
        // the one before, so a flood of 1000 takes a minute). Keys are per client or per caller address, and
        // the helpers give each client and each guest an address of its own, so tests do not share them.
        ratelimits: {
          API_RATE_LIMITER: { simple: { limit: 150, period: 60 } },
          PUBLIC_RATE_LIMITER: { simple: { limit: 120, period: 60 } },
          PUBLIC_WRITE_RATE_LIMITER: { simple: { limit: 30, period: 60 } },
        },
      },
    }),
  ],
  test: {
    include: ["tests/worker/**/*.test.ts"],
    setupFiles: ["./tests/worker/setup.ts"],
    // Generous: a few tests walk every route or flood a limiter, and a busy machine slows them down.
    testTimeout: 60_000,
    // Three files at a time on two cores: much of a file's time is spent waiting on workerd and D1
    // (measured: the suite in 227 s, against 277 s two at a time).
    maxWorkers: 3,
    // Each test file starts a workerd of its own and loads the Worker's module graph again: bundled
    // once (Vite's SSR optimizer), the libraries load in a few requests instead of hundreds. Every
    // entry point the code imports is listed, so they share one copy of hono (its error classes).
    deps: {
      optimizer: { ssr: { enabled: true, include: packageImports(["worker", "shared", "tests/worker"]) } },
    },
  },
});
