// Operator commands (not API routes, since production is enabled by the vendor, not by an API call).
//   npm run ops -- enable-production <client_id>      [--persist-to DIR | --url URL]
//   npm run ops -- disable-production <client_id>
//   npm run ops -- grant <client_id> <property_id>     authorise another client for a property
//   npm run ops -- revoke-grant <client_id> <property_id>   its tokens there end, its subscriptions there go
//   npm run ops -- sync-usernames                      copy sign-ins of older properties to the directory
//   npm run ops -- list-clients
//   npm run ops -- shards                              each shard's properties, rows and bytes
//   npm run ops -- move-property <property_id> <shard> move a property to another shard
//   npm run ops -- searchengine-feeds <dir>            the search engine's three feeds, as files
// Every command goes through the Worker's operator door (scripts/ops-door.mjs): locally the
// running `npm start` (so two processes never write one local database), or a Worker started on
// the local D1 for the command; --url names the deployed one.
import { parseArgs } from "node:util";
import { defaultPersistDir, startDevOnFreePort } from "./dev-server.mjs";
import { devVar, door, moveProperty, showShards } from "./ops-door.mjs";
import { withPartner, writeFeeds } from "./searchengine-feeds.mjs";

const USAGE = `usage: npm run ops -- <command> [args] [--persist-to DIR] [--url URL]
commands:
  enable-production <client_id>        let the client create production (non-sandbox) properties
  disable-production <client_id>       back to sandbox-only
  grant <client_id> <property_id>      authorise the client for an existing property
  revoke-grant <client_id> <property_id>
                                       the client's tokens for the property end and its webhook
                                       subscriptions there are deleted (as when the restaurant
                                       disconnects it on its connected-apps page)
  sync-usernames                       copy the sign-in (username, password hash) of properties made
                                       before the directory kept it; npm start runs it
  list-clients                         clients with their production flag and properties
  shards                               each shard: properties, rows per table, size
  move-property <property_id> <shard>  move a property to shard <shard>; its writes answer 503
                                       with Retry-After meanwhile, its reads go on
  searchengine-feeds <dir>             write the search engine's feeds (merchants, services,
                                       availability .json) to <dir>, for the partner portal
Every command talks to the Worker: locally the running npm start (PORT, default 8787) or one
started on the local D1 for the command (--persist-to names its folder); --url https://... for the
deployed one, with OPS_TOKEN (the feeds: SEARCHENGINE_USER and SEARCHENGINE_PASSWORD) in the
environment.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    url: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
const [command, ...args] = positionals;

function fail(message) {
  console.error(`ops: ${message}\n\n${USAGE}`);
  process.exit(2);
}

const clientIdArg = (v) =>
  /^ci_[A-Za-z0-9_-]{10,60}$/.test(v ?? "") ? v : fail(`"${v ?? ""}" is not a client_id (ci_...)`);
const intArg = (v, what) =>
  /^[1-9]\d{0,15}$/.test(v ?? "") ? Number(v) : fail(`"${v ?? ""}" is not a ${what}`);

async function setProduction(clientId, enabled) {
  await withDoor(async (request) => {
    const [r] = await request("POST", "/production", { client_id: clientId, enabled });
    console.log(
      `client ${clientId} (${r.username}): production ${r.production_enabled ? "enabled" : "disabled"}`,
    );
  });
}

if (values.help || !command) {
  console.log(USAGE);
  process.exit(command ? 0 : 2);
}

switch (command) {
  case "enable-production":
    await setProduction(clientIdArg(args[0]), true);
    break;
  case "disable-production":
    await setProduction(clientIdArg(args[0]), false);
    break;
  case "grant": {
    const clientId = clientIdArg(args[0]);
    const propertyId = intArg(args[1], "property id");
    await withDoor(async (request) => {
      const [r] = await request("POST", "/grant", { client_id: clientId, property_id: propertyId });
      console.log(
        r.added
          ? `client ${clientId} may now act on property ${propertyId}`
          : `client ${clientId} already had property ${propertyId}`,
      );
    });
    break;
  }
  case "revoke-grant": {
    const clientId = clientIdArg(args[0]);
    const propertyId = intArg(args[1], "property id");
    // Through the Worker: the client's subscriptions live in the property's shard.
    await withDoor(async (request) => {
      const [r] = await request("POST", "/revoke-grant", { client_id: clientId, property_id: propertyId });
      console.log(
        r.granted
          ? `client ${clientId} no longer acts on property ${propertyId}: ${r.access_tokens_revoked} access and ${r.refresh_tokens_revoked} refresh token(s) revoked, ${r.subscriptions_deleted} webhook subscription(s) deleted`
          : `client ${clientId} had no grant on property ${propertyId}${r.subscriptions_deleted ? `; ${r.subscriptions_deleted} leftover webhook subscription(s) deleted` : ""}`,
      );
    });
    break;
  }
  case "sync-usernames":
    await withDoor(async (request) => {
      const [r] = await request("POST", "/sync-usernames");
      console.log(`${r.copied} sign-in(s) copied to the directory`);
      for (const s of r.skipped)
        console.log(`  property ${s.id} ("${s.username}") left without a sign-in: ${s.why}`);
    });
    break;
  case "list-clients":
    await withDoor(async (request) => {
      const rows = await request("GET", "/clients");
      console.table(
        rows.map((r) => ({
          client_id: r.client_id,
          username: r.username,
          production: !!r.production_enabled,
          properties: r.properties ?? "",
        })),
      );
    });
    break;
  case "shards":
    await withDoor((request) => showShards(request));
    break;
  case "move-property": {
    const propertyId = intArg(args[0], "property id");
    const shard = /^\d{1,4}$/.test(args[1] ?? "")
      ? Number(args[1])
      : fail(`"${args[1] ?? ""}" is not a shard index`);
    await withDoor((request) => moveProperty(request, propertyId, shard));
    break;
  }
  case "searchengine-feeds": {
    const dir = args[0] ?? fail("name the folder to write the feeds to");
    if (values.remote && !values.url)
      fail(
        "the deployed Worker's feeds need --url https://... (and SEARCHENGINE_USER, SEARCHENGINE_PASSWORD)",
      );
    await run(() =>
      withPartner({ url: values.url, persistTo: values["persist-to"] }, (url, credentials) =>
        writeFeeds(url, credentials, dir),
      ),
    );
    break;
  }
  default:
    fail(`unknown command "${command}"`);
}

/**
 * Runs `work` against the operator door: --url (the deployed Worker, OPS_TOKEN from the
 * environment), else the local Worker on PORT when it answers, else a wrangler dev started on
 * the local D1 for this command and stopped after it.
 */
async function withDoor(work) {
  const token = process.env.OPS_TOKEN ?? devVar("OPS_TOKEN");
  if (values.url || values.remote) {
    if (!values.url || !token)
      fail(
        "the deployed Worker needs --url https://... and OPS_TOKEN in the environment (wrangler secret put OPS_TOKEN)",
      );
    return run(() => work(door(values.url.replace(/\/$/, ""), token)));
  }
  const local = `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  const running = await fetch(`${local}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (running) {
    if (!token) fail("npm start is running without OPS_TOKEN in .dev.vars: restart it (it creates one)");
    return run(() => work(door(local, token)));
  }
  const temporary = token ?? `ops-${Math.random().toString(36).slice(2)}`;
  console.log("no Worker answers locally: starting one on the local D1 for this command...");
  const server = await startDevOnFreePort({
    persistTo: values["persist-to"] ?? defaultPersistDir(),
    vars: { OPS_TOKEN: temporary },
  });
  try {
    await run(() => work(door(server.url, temporary)));
  } finally {
    await server.stop();
  }
}

async function run(work) {
  try {
    await work();
  } catch (err) {
    console.error(`ops: ${err.message}`);
    process.exit(1);
  }
}
