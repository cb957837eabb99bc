import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { ID_STRIDE, shardCount, shardD1 } from "../../worker/shards/shards";
import { seedIdRange } from "../../worker/shards/shards.repo";
import { setResolver } from "../../worker/webhooks/transport";
import { wire } from "../../worker/wiring";

// Setup files run before each test file; applying is idempotent. The control database and every
// shard of wrangler.toml (two), each shard with its own id range as the Worker would seed it.
await applyD1Migrations(env.DB, env.CONTROL_MIGRATIONS);
for (let k = 0; k < shardCount(env); k++) {
  await applyD1Migrations(shardD1(env, k), env.SHARD_MIGRATIONS);
  await seedIdRange(shardD1(env, k), k * ID_STRIDE);
}

// Tests that call the features directly find the reactions and senders the Worker registers.
wire();

// The tests run offline: a webhook endpoint's name resolves to nothing (a transient failure, as
// DNS over HTTPS would be), without an outbound fetch. A test may set a table of its own.
setResolver(async (name) => {
  throw new Error(`no DNS in the tests (${name})`);
});
