import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// wrangler.toml names dist/public as the assets folder; `npm run build` fills it.
mkdirSync(fileURLToPath(new URL("./dist/public", import.meta.url)), { recursive: true });
const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

export default defineConfig({
  plugins: [
    cloudflareTest({
      main: "./worker/index.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { TEST_MIGRATIONS: migrations },
        // A small limit so the 429 path is reachable in a test; keys are per client, so tests do not share it.
        ratelimits: {
          API_RATE_LIMITER: { simple: { limit: 150, period: 60 } },
          PUBLIC_RATE_LIMITER: { simple: { limit: 1000, period: 60 } },
        },
      },
    }),
  ],
  test: {
    include: ["tests/worker/**/*.test.ts"],
    setupFiles: ["./tests/worker/setup.ts"],
    testTimeout: 30_000,
  },
});
