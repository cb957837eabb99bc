// The operator commands that act on shards go through the Worker's operator door (/__ops,
// worker/ops/ops.routes.ts), which holds every binding and runs each step as one bounded piece
// of work: locally the running `npm start` (or a wrangler dev started for the command), remotely
// the deployed Worker (--url, with OPS_TOKEN in the environment).
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.mjs";

/**
 * npm start's local secrets, which its wrangler dev reads: .dev.vars, or the file DEV_VARS_FILE
 * names (the end-to-end tests that run npm start give it one of their own, so the developer's
 * .dev.vars never reaches a test).
 */
export const DEV_VARS = process.env.DEV_VARS_FILE ?? join(ROOT, ".dev.vars");

/** The value of KEY in npm start's secrets (DEV_VARS), if any. */
export function devVar(key) {
  if (!existsSync(DEV_VARS)) return undefined;
  const line = readFileSync(DEV_VARS, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${key}=`));
  return line?.slice(key.length + 1).replace(/^"(.*)"$/, "$1");
}

/** Makes sure npm start's secrets (DEV_VARS) give KEY a value (a new random one when they have none); answers it. */
export function ensureDevVar(key, make = () => randomBytes(24).toString("base64url")) {
  const known = devVar(key);
  if (known) return known;
  const value = make();
  if (existsSync(DEV_VARS))
    appendFileSync(
      DEV_VARS,
      `${readFileSync(DEV_VARS, "utf8").endsWith("\n") || readFileSync(DEV_VARS, "utf8") === "" ? "" : "\n"}${key}=${value}\n`,
    );
  else
    writeFileSync(
      DEV_VARS,
      `# Local secrets for wrangler dev (npm start creates what is missing). Never committed.\n${key}=${value}\n`,
    );
  return value;
}

/**
 * The local secrets npm start keeps in .dev.vars: the operator's token, the key of the links in
 * emails, the search engine partner's credentials. Created once; answers the partner's.
 */
export function ensureLocalSecrets() {
  ensureDevVar("OPS_TOKEN");
  ensureDevVar("LINK_SECRET");
  return {
    user: ensureDevVar("SEARCHENGINE_USER", () => `partner-${randomBytes(4).toString("hex")}`),
    password: ensureDevVar("SEARCHENGINE_PASSWORD"),
  };
}

/** A client of the operator door at `url` with `token`. */
export function door(url, token) {
  return async function request(method, path, body) {
    const res = await fetch(`${url}/__ops${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json().catch(() => undefined);
    if (!res.ok)
      throw new Error(`${method} /__ops${path}: ${res.status} ${json?.detail ?? json?.title ?? ""}`);
    return json.data;
  };
}

const kib = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`);

/** `ops shards`: each shard's properties, rows and bytes. */
export async function showShards(request) {
  const shards = await request("GET", "/shards");
  console.table(
    shards.map((s) => ({
      shard: s.index,
      "ids from": s.ids_from,
      properties: s.properties,
      reservations: s.rows.reservations,
      "webhook events": s.rows.webhook_events,
      "all rows": Object.values(s.rows).reduce((a, b) => a + b, 0),
      size: kib(s.bytes),
    })),
  );
}

/** `ops move-property`: begin, every table page by page, switch, cleanup; progress on stdout. */
export async function moveProperty(request, propertyId, shard, log = console.log) {
  const step = (body) =>
    request("POST", "/move-property", { property_id: propertyId, shard, ...body }).then((d) => d[0]);
  const begun = await step({ step: "begin" });
  log(
    `property ${propertyId}: moving from shard ${begun.from} to shard ${begun.to}; its writes answer 503 until the switch, reads go on`,
  );
  try {
    for (const table of begun.tables) {
      let copied = 0;
      for (let after = 0, done = false; !done; ) {
        const page = await step({ step: "copy", table, after });
        ({ after, done } = page);
        copied += page.copied;
      }
      if (copied) log(`  copied ${String(copied).padStart(7)} rows of ${table}`);
    }
    const switched = await step({ step: "switch" });
    log(
      `  switched: property ${propertyId} lives on shard ${switched.to} (${Object.values(switched.rows).reduce((a, b) => a + b, 0)} rows checked on both sides)`,
    );
  } catch (err) {
    log(`  the move stopped (${err.message}); giving it up: shard ${begun.from} takes writes again`);
    await step({ step: "abort" });
    throw err;
  }
  // Requests that read the directory just before the switch may still read the old copy: let them finish.
  await new Promise((r) => setTimeout(r, 2000));
  let removed = 0;
  for (let done = false; !done; ) {
    const page = await request("POST", "/move-property", {
      step: "cleanup",
      property_id: propertyId,
      shard: begun.from,
    }).then((d) => d[0]);
    removed += page.deleted;
    done = page.done;
  }
  log(`  removed ${removed} rows from shard ${begun.from}; done`);
}
