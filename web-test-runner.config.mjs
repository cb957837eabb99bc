// Component tests of <booking-engine> and <booking-console> in Debian's Chromium, against a real
// Worker: the shared Worker of the browser suites (tests/support/shared-worker.mjs; one started
// for this run when npm test gives none). Each test file builds a restaurant of its own through
// `/fixture/restaurant` (see tests/widget/env.ts), so no file depends on another's bookings or on
// their order, and holds the Worker at its run's clock while its page is open.
//
// DEV_CLOCK (an ISO instant) runs the Worker and the browser at that instant; BROWSER_ZONE puts
// the browser in another time zone than the restaurant's (Europe/Rome). With TEST_INSTANTS=1 (as
// npm test runs it) the files whose answers depend on the time run again at each fixed instant of
// scripts/instants.mjs, a group each, one group after the other, on the same Worker and Chromium.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { ROOT } from "./scripts/dev-server.mjs";
import { INSTANTS, TIMED_WIDGET_FILES } from "./scripts/instants.mjs";
import { createRestaurant, request, token } from "./scripts/restaurant.mjs";
import { TEST_CATALOG } from "./tests/support/catalog.mjs";
import { ClockedLauncher, closeChromium, open } from "./tests/support/clocked-launcher.mjs";
import { consoleRelay } from "./tests/support/console-relay.mjs";
import { startSharedWorker } from "./tests/support/shared-worker.mjs";

/** The run of every file: at DEV_CLOCK, or on the real clock, the browser in BROWSER_ZONE. */
const MAIN_RUN = {
  clock: process.env.DEV_CLOCK || null,
  zone: process.env.BROWSER_ZONE || "Pacific/Kiritimati",
};
/** With TEST_INSTANTS: the timed files again, at each fixed instant. */
const INSTANT_RUNS = process.env.TEST_INSTANTS ? INSTANTS.map(({ clock, zone }) => ({ clock, zone })) : [];
const ALL_FILES = readdirSync(join(ROOT, "tests", "widget"))
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => join("tests", "widget", f));
/**
 * The files that run one at a time, in a group of their own at each clock: those that move the
 * Worker's clock themselves (pinWorkerClock, atWorkerTime: each holds the Worker alone meanwhile),
 * and those that say `// wtr: alone` (keys typed into another origin's frame need the browser's
 * focus, which two pages share). The other files of a clock run two at a time.
 */
const movesClock = (file) =>
  /\b(pinWorkerClock|atWorkerTime)\(|^\/\/ wtr: alone\b/m.test(readFileSync(join(ROOT, file), "utf8"));
/** `npx wtr --files <file>`: only those files, at MAIN_RUN's clock, one at a time. */
const CHOSEN = process.argv.includes("--files");
/** web-test-runner's groups: each clock's files in two groups (see movesClock), one group after the other. */
function groups() {
  if (CHOSEN) return [];
  const at = (run) => (run.clock ? `at ${run.clock}` : "on the real clock");
  // two pages at a time; the files that move the Worker's clock one at a time, each holding it alone
  const still = (run, files) => ({
    name: at(run),
    files: files.filter((f) => !movesClock(f)),
    browsers: [new ClockedLauncher(run, 2)],
    testRunnerHtml: runnerHtml(run),
  });
  const moving = (run, files) => ({
    name: `${at(run)}, moving the clock`,
    files: files.filter(movesClock),
    browsers: [new ClockedLauncher(run, 1, true)],
    testRunnerHtml: runnerHtml(run),
  });
  return [
    moving(MAIN_RUN, ALL_FILES),
    ...INSTANT_RUNS.flatMap((run) => [still(run, TIMED_WIDGET_FILES), moving(run, TIMED_WIDGET_FILES)]),
  ];
}

/** The shared Worker: npm test's (BE_SHARED_WORKER), or one of this run's own. */
function sharedWorker() {
  const env = {};
  let own;
  return {
    env,
    plugin: {
      name: "shared-worker",
      async serverStart() {
        if (!process.env.BE_SHARED_WORKER) {
          own = await startSharedWorker({ log: (line) => console.error(line) });
          process.env.BE_SHARED_WORKER = own.lease;
        }
        env.lease = process.env.BE_SHARED_WORKER;
        const shared = await (await fetch(`${env.lease}/worker`)).json();
        env.api = shared.url;
        env.stripe = shared.stripe;
        open.worker = env.api;
        const runs = [MAIN_RUN, ...INSTANT_RUNS].map((r) => r.clock ?? "the real clock").join(", ");
        console.log(`the widget tests on the Worker at ${env.api}: ${runs}`);
      },
      async serverStop() {
        await closeChromium();
        await own?.stop();
      },
    },
  };
}

const worker = sharedWorker();
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
 * - POST /fixture/clock {at}: pins the Worker's clock at an instant (null: back to the file's run's clock);
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
    const to = String(ctx.query.to ?? "");
    ctx.type = "application/json";
    ctx.body = await (await fetch(`${worker.env.lease}/mail?to=${encodeURIComponent(to)}`)).text();
    return;
  }
  // The Worker's clock moved by the open file (its hold has the Worker alone meanwhile); null gives
  // it back to the file's run.
  if (ctx.path === "/fixture/clock" && ctx.method === "POST") {
    const { at } = JSON.parse((await readBody(ctx.req)) || "{}");
    if (!open.hold) throw new Error("/fixture/clock: no test file holds the Worker");
    await open.hold.pin(at ?? null);
    ctx.type = "application/json";
    ctx.body = JSON.stringify({ at: at ?? null });
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

/** The page of a test file: the Worker's origin, and the zone and clock of the file's run. */
const runnerHtml = (run) => (testFramework) =>
  `<!doctype html>
    <html lang="en">
      <head><meta charset="utf-8"><title>booking-engine tests</title></head>
      <body>
        <script>window.BE = ${JSON.stringify({ api: worker.env.api, stripe: worker.env.stripe, browserZone: run.zone, clock: run.clock })};</script>
        <script type="module" src="${testFramework}"></script>
      </body>
    </html>`;

export default {
  files: CHOSEN ? ["tests/widget/**/*.test.ts"] : ALL_FILES.filter((f) => !movesClock(f)),
  nodeResolve: true,
  // One group of files after the other (each file holds the Worker at its group's clock), their
  // pages one or two at a time (ClockedLauncher): two cores, and the Worker shares them.
  concurrentBrowsers: 1,
  testsFinishTimeout: 180_000,
  // Opening a file's page waits for the Worker's clock while files at another clock finish.
  browserStartTimeout: 600_000,
  testFramework: { config: { timeout: 60_000 } },
  middleware: [fixtures],
  plugins: [esbuildPlugin({ ts: true, tsconfig: "tsconfig.widget.json", target: "es2022" }), worker.plugin],
  // The browser lives in another zone than the restaurant (Europe/Rome): a time shifted into the
  // browser's zone, or a date read in it, shows up in the tests at once.
  browsers: [new ClockedLauncher(MAIN_RUN, CHOSEN ? 1 : 2)],
  testRunnerHtml: runnerHtml(MAIN_RUN),
  groups: groups(),
};
