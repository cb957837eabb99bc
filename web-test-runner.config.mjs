// Component tests of <booking-engine> in Debian's Chromium, against a real Worker: wrangler dev on
// a fresh local D1. Each test file builds a restaurant of its own through `/fixture/restaurant`
// (see tests/widget/env.ts), so no file depends on another's bookings or on their order.
//
// DEV_CLOCK (an ISO instant) runs the Worker and the browser at that instant; BROWSER_ZONE puts
// the browser in another time zone than the restaurant's (Europe/Rome). `npm test` runs the
// suite once on the real clock and then at the fixed instants of scripts/instants.mjs.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { migrate, ROOT, startDevOnFreePort } from "./scripts/dev-server.mjs";
import { createRestaurant, request, token } from "./scripts/restaurant.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./scripts/setup.mjs";
import { TEST_CATALOG } from "./tests/support/catalog.mjs";
import { consoleRelay } from "./tests/support/console-relay.mjs";

const CLOCK = process.env.DEV_CLOCK || undefined;
/** The operator's token of this run's Worker: /fixture/clock pins its clock through the operator door. */
const OPS_TOKEN = randomBytes(24).toString("base64url");
const BROWSER_ZONE = process.env.BROWSER_ZONE || "Pacific/Kiritimati";

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
        await migrate(dir);
        const lines = [];
        try {
          // wrangler logs the .eml file of every email its local send_email keeps (info level).
          const log = (l) => {
            const eml = /(\/\S+\.eml)\b/.exec(l);
            if (eml) emails.push(eml[1]);
            else if (!/\[wrangler:info\]/.test(l)) lines.push(l);
          };
          server = await startDevOnFreePort({
            persistTo: dir,
            clock: CLOCK,
            log,
            logLevel: "info",
            vars: { OPS_TOKEN },
          });
        } catch (err) {
          console.error(lines.join("\n"));
          throw err;
        }
        env.api = server.url;
        console.log(
          `wrangler dev for the widget tests on ${server.url}${CLOCK ? ` at ${CLOCK}` : ""}, browser in ${BROWSER_ZONE}`,
        );
      },
      async serverStop() {
        await server?.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}

/** The .eml files of the emails the Worker sent (wrangler's local send_email), in order. */
const emails = [];
const worker = realWorker();
/** property id -> its client's token, for the staff relay */
const tokens = new Map();
/** property id -> its client's id and secret: a new token when the Worker's clock, pinned by a test, outran the old one */
const credentials = new Map();
const relayConsole = consoleRelay(() => worker.env.api);
/** stalled connections' key -> the requests seen (/console/stall/...) */
const stalls = new Map();
/** addresses handed to other guests' look-ups (10.0.0.0/8) */
let lookups = 1;

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
}

/** Every msg() id in the widget's own sources, or the console's (not the generated locale tables). */
function messageIds(app = "widget") {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) name !== "locales" && name !== "console" && walk(path);
      else if (name.endsWith(".ts")) files.push(path);
    }
  };
  walk(app === "console" ? join(ROOT, "widget", "console") : join(ROOT, "widget"));
  const ids = new Set();
  let calls = 0;
  let named = 0;
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    calls += (source.match(/\bmsg\(/g) ?? []).length;
    for (const m of source.matchAll(/\bmsg\((?:[^()]|\([^()]*\))*?\{\s*id:\s*"([^"]+)"/gs)) {
      ids.add(m[1]);
      named++;
    }
  }
  return { ids: [...ids].sort(), calls, named };
}

/**
 * The test files' back door, in this Node process (never in the Worker):
 * - POST /fixture/restaurant {settings?}: a new restaurant of TEST_CATALOG; answers its public key and ids;
 * - /other-guest/<public_key>/<path>: the public API's reads as another guest, from an address of its own;
 * - /staff/<property_id>/<path>: the integrator API as that restaurant's staff (the integrator
 *   API answers no browser, and staff bookings do not spend the guests' public write budget);
 * - GET /fixture/msg-ids: the message ids the widget's code uses;
 * - POST /fixture/clock {at}: pins the Worker's clock at an instant (null: back to the run's clock);
 * - /as-guest/<n>/api/v2/public/...: the public API from an address of its own, for a widget mounted with that `api`;
 * - /slow/<ms>/api/v2/public/...: the same, each answer of the day's times held <ms> (a slow network);
 * - GET /fixture/mail?to=<address>: the raw emails sent to that address so far, oldest first;
 * - POST /guest/<public_key>/<path>: the public API as a guest of an address of its own, so the
 *   bookings a test makes to set the scene do not spend the public write budget (10 a minute per
 *   address) that the widget's own bookings from the browser need.
 */
async function fixtures(ctx, next) {
  if (ctx.path === "/fixture/restaurant" && ctx.method === "POST") {
    const options = JSON.parse((await readBody(ctx.req)) || "{}");
    const catalog = { ...TEST_CATALOG, settings: { ...TEST_CATALOG.settings, ...options.settings } };
    const r = await createRestaurant(worker.env.api, { catalog, name: options.name ?? TEST_CATALOG.name });
    tokens.set(r.property_id, r.token);
    credentials.set(r.property_id, [r.client_id, r.client_secret]);
    ctx.type = "application/json";
    ctx.body = JSON.stringify({
      publicKey: r.public_key,
      propertyId: r.property_id,
      services: r.services,
      tables: r.tables,
      name: r.name,
      username: r.username,
    });
    return;
  }
  // A stalled connection for the console's client: /console/stall/<n>/<key>/<rest> leaves the
  // first n requests of <key> unanswered until the page gives up on them, then relays
  // /console/<rest>; GET /fixture/stall/<key> answers how many requests it saw.
  const stall = ctx.path.match(/^\/console\/stall\/(\d)\/([\w-]{1,64})\/(.*)$/);
  if (stall) {
    const seen = (stalls.get(stall[2]) ?? 0) + 1;
    stalls.set(stall[2], seen);
    if (seen > Number(stall[1]))
      return relayConsole(Object.assign(ctx, { path: `/console/${stall[3]}` }), await readBody(ctx.req));
    await new Promise((r) => {
      ctx.req.once("close", r);
      setTimeout(r, 30_000);
    });
    ctx.status = 504;
    return;
  }
  const stallCount = ctx.path.match(/^\/fixture\/stall\/([\w-]{1,64})$/);
  if (stallCount) {
    ctx.type = "application/json";
    ctx.body = JSON.stringify({ seen: stalls.get(stallCount[1]) ?? 0 });
    return;
  }
  // The console's routes, on the test page's origin (tests/support/console-relay.mjs).
  if (/^\/console\/(session|api\/|password|invite\/|link\/|passkey)/.test(ctx.path))
    return relayConsole(ctx, await readBody(ctx.req));
  if (ctx.path === "/fixture/mail") {
    const to = String(ctx.query.to ?? "").toLowerCase();
    const raw = emails
      .map((file) => readFileSync(file, "utf8"))
      .filter((text) => new RegExp(`^To:.*<${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}>`, "mi").test(text));
    ctx.type = "application/json";
    ctx.body = JSON.stringify(raw);
    return;
  }
  if (ctx.path === "/fixture/clock" && ctx.method === "POST") {
    const res = await fetch(`${worker.env.api}/__ops/clock`, {
      method: "POST",
      headers: { Authorization: `Bearer ${OPS_TOKEN}`, "Content-Type": "application/json" },
      body: await readBody(ctx.req),
    });
    ctx.status = res.status;
    ctx.type = "application/json";
    ctx.body = await res.text();
    return;
  }
  if (ctx.path === "/fixture/msg-ids") {
    ctx.type = "application/json";
    ctx.body = JSON.stringify(messageIds(ctx.query.app === "console" ? "console" : "widget"));
    return;
  }
  // The tests' own look-ups (profile, slots), from an address of their own: the browser's read
  // budget (120 a minute per address) stays for the widget under test, as /guest/ does for writes.
  const other = ctx.path.match(/^\/other-guest\/(.*)$/);
  if (other) {
    const body = await readBody(ctx.req);
    const ip = `10.${(lookups >> 16) & 255}.${(lookups >> 8) & 255}.${lookups++ & 255}`;
    const query = ctx.querystring ? `?${ctx.querystring}` : "";
    const res = await request(worker.env.api, `/api/v2/public/${other[1]}${query}`, {
      method: ctx.method,
      headers: { "CF-Connecting-IP": ip },
      body: body === undefined ? undefined : JSON.parse(body),
    });
    ctx.status = res.status;
    ctx.type = "application/json";
    ctx.body = JSON.stringify(res.json ?? null);
    return;
  }
  // A widget under test that is a guest of its own address: mounted with api="<this origin>/as-guest/<n>",
  // its calls reach the Worker from an address of that n and the file's restaurant, so no two mounts,
  // of one file or of two, share a budget (10 writes a minute). The local limiter counts by the
  // clock's minute, so a shared budget fails a run or not by where the minute falls.
  const as = ctx.path.match(/^\/as-guest\/(\d{1,3})(\/api\/v2\/public\/([^/?]+).*)$/);
  if (as) return relayPublic(ctx, as[2], guestAddress(as[1], as[3]));
  // A slow network for the day's times: /slow/<ms>/api/v2/public/... holds each /slots answer <ms> (at most 10 s).
  const slow = ctx.path.match(/^\/slow\/(\d{1,5})(\/api\/v2\/public\/.*)$/);
  if (slow) {
    if (/\/slots$/.test(slow[2])) await new Promise((r) => setTimeout(r, Math.min(Number(slow[1]), 10_000)));
    return relayPublic(ctx, slow[2], "203.0.113.251");
  }
  const guest = ctx.path.match(/^\/guest\/([^/]+)\/(.*)$/);
  if (guest && ctx.method === "POST") return asGuest(ctx, guest[1], guest[2]);
  const staff = ctx.path.match(/^\/staff\/(\d+)\/(.*)$/);
  if (!staff) return next();
  const property = Number(staff[1]);
  const body = await readBody(ctx.req);
  const send = () =>
    request(worker.env.api, `/api/v2/${staff[2]}${ctx.querystring ? `?${ctx.querystring}` : ""}`, {
      method: ctx.method,
      token: tokens.get(property),
      property,
      body: body === undefined ? undefined : JSON.parse(body),
    });
  let res = await send();
  if (res.status === 401 && credentials.has(property)) {
    tokens.set(property, await token(worker.env.api, ...credentials.get(property)));
    res = await send();
  }
  ctx.status = res.status;
  ctx.type = "application/json";
  ctx.body = JSON.stringify(res.json ?? null);
}

/** An address of the shared range (100.64.0.0/10) for the n-th widget mounted for a restaurant. */
function guestAddress(n, publicKey) {
  const h = createHash("sha256").update(`${n}/${publicKey}`).digest();
  return `100.${64 + (h[0] & 63)}.${h[1]}.${h[2]}`;
}

/** The public API at `path` from the address `ip`, as the widget under test asked it. */
async function relayPublic(ctx, path, ip) {
  const body = await readBody(ctx.req);
  const headers = { "CF-Connecting-IP": ip };
  for (const h of ["content-type", "idempotency-key", "accept"]) if (ctx.get(h)) headers[h] = ctx.get(h);
  const res = await fetch(`${worker.env.api}${path}${ctx.querystring ? `?${ctx.querystring}` : ""}`, {
    method: ctx.method,
    headers,
    body,
  });
  ctx.status = res.status;
  ctx.type = res.headers.get("content-type") ?? "application/json";
  ctx.body = await res.text();
}

let guests = 0;
/** Relays a guest's POST from an address of its own (TEST-NET-2, RFC 5737). */
async function asGuest(ctx, publicKey, path) {
  guests++;
  const res = await fetch(`${worker.env.api}/api/v2/public/${publicKey}/${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": `198.51.${(guests >> 8) & 255}.${guests & 255}`,
    },
    body: await readBody(ctx.req),
  });
  ctx.status = res.status;
  ctx.type = "application/json";
  ctx.body = await res.text();
}

export default {
  files: ["tests/widget/**/*.test.ts"],
  nodeResolve: true,
  // One browser page at a time: two cores, and wrangler dev shares them.
  concurrency: 1,
  testsFinishTimeout: 180_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 60_000 } },
  middleware: [fixtures],
  plugins: [esbuildPlugin({ ts: true, tsconfig: "tsconfig.widget.json", target: "es2022" }), worker.plugin],
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
      // The browser lives in another zone than the restaurant (Europe/Rome): a time shifted into the
      // browser's zone, or a date read in it, shows up in the tests at once. At a fixed instant the
      // browser's clock shows it too (timers keep running).
      async createBrowserContext({ browser }) {
        const context = await browser.newContext({ timezoneId: BROWSER_ZONE, locale: "en-US" });
        if (CLOCK) await context.clock.setFixedTime(new Date(CLOCK));
        return context;
      },
    }),
  ],
  testRunnerHtml: (testFramework) => `<!doctype html>
    <html lang="en">
      <head><meta charset="utf-8"><title>booking-engine tests</title></head>
      <body>
        <script>window.BE = ${JSON.stringify({ api: worker.env.api, browserZone: BROWSER_ZONE, clock: CLOCK ?? null })};</script>
        <script type="module" src="${testFramework}"></script>
      </body>
    </html>`,
};
