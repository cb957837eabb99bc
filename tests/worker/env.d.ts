import type { Bindings } from "../../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      CONTROL_MIGRATIONS: import("cloudflare:test").D1Migration[];
      SHARD_MIGRATIONS: import("cloudflare:test").D1Migration[];
      /** the Node webhook receiver of tests/receiver.mjs */
      RECEIVER_URL: string;
    }
  }
}
