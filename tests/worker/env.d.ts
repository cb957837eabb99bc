// The `env` of cloudflare:test: wrangler.toml's bindings, those the Worker expects beyond them
// (the test pool sets its secrets too), and what the pool adds for the tests (vitest.config.ts).
import type { Unlisted } from "../../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends Unlisted {
      CONTROL_MIGRATIONS: import("cloudflare:test").D1Migration[];
      SHARD_MIGRATIONS: import("cloudflare:test").D1Migration[];
      /** the Node webhook receiver of tests/receiver.mjs */
      RECEIVER_URL: string;
    }
  }
}
