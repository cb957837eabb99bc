import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { setClock } from "../../worker/lib/clock";
import { interceptMail } from "../../worker/messages/transport";
import { ID_STRIDE, shardCount, shardD1 } from "../../worker/shards/shards";
import { seedIdRange } from "../../worker/shards/shards.repo";
import { setResolver } from "../../worker/webhooks/transport";
import { wire } from "../../worker/wiring";

// The setup file runs before each test file, and the files of one pool worker share its runtime
// (isolate: false): its databases, Durable Objects and modules. The control database and every
// shard of wrangler.toml (two), each shard with its own id range as the Worker would seed it,
// are migrated once per runtime.
const migrated = globalThis as { __migrated?: Promise<void> };
migrated.__migrated ??= (async () => {
  await applyD1Migrations(env.DB, env.CONTROL_MIGRATIONS);
  for (let k = 0; k < shardCount(env); k++) {
    await applyD1Migrations(shardD1(env, k), env.SHARD_MIGRATIONS);
    await seedIdRange(shardD1(env, k), k * ID_STRIDE);
  }
})();
await migrated.__migrated;

// Tests that call the features directly find the reactions and senders the Worker registers.
wire();

/** The module seams a test may set, back to what every file starts from. */
function resetSeams() {
  setClock(undefined);
  interceptMail(undefined);
  // The tests run offline: a webhook endpoint's name resolves to nothing (a transient failure, as
  // DNS over HTTPS would be), without an outbound fetch. A test may set a table of its own.
  setResolver(async (name) => {
    throw new Error(`no DNS in the tests (${name})`);
  });
}
// Whatever a file before it pinned, each file starts from the run's clock and seams.
resetSeams();
