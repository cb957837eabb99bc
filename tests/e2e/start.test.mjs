// End to end, as a newcomer would: `npm start` on an empty state folder, the README's quick
// start line by line, /docs in Chromium with every non-local request cut off, the ops command,
// and a second `npm start` that finds the demo already there.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { freePort, ROOT } from "../../scripts/dev-server.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { npmStart as npmStartOn, npmStartOnFreePort, stopNpmStart } from "../support/npm-start.mjs";
import { run } from "../support/run.mjs";

// Both change if npm start finds its port taken and starts on another.
let PORT = await freePort();
let BASE = `http://127.0.0.1:${PORT}`;
const STATE = mkdtempSync(join(tmpdir(), "be-e2e-"));
const ARTIFACTS = join(ROOT, "tests", "e2e", ".tmp");
mkdirSync(ARTIFACTS, { recursive: true });

async function npmStart() {
  const started = await npmStartOnFreePort({ port: PORT, state: STATE });
  PORT = started.port;
  BASE = `http://127.0.0.1:${PORT}`;
  return started;
}

/** Resolves once something listens on the port (the README's receiver has started). */
async function waitForPort(port, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const field = (out, label) => out.match(new RegExp(`${label}\\s+(\\S+)`))?.[1];

describe("npm start and the README quick start", () => {
  let server;
  before(async () => {
    server = await npmStart();
    console.log(
      `# cold start of npm start (build, migrations, wrangler dev, demo seed): ${server.seconds.toFixed(1)} s`,
    );
  });
  after(async () => {
    if (server) await stopNpmStart(server.child);
    rmSync(STATE, { recursive: true, force: true });
  });

  it("prints the docs, the demo's hosted pages and the demo client's credentials", async () => {
    for (const label of ["API docs", "Welcome page", "Services page", "Booking page"])
      assert.match(server.out, new RegExp(`${label}\\s+${BASE}/`));
    const clientId = field(server.out, "client_id");
    const secret = field(server.out, "client_secret");
    assert.match(clientId, /^ci_/);
    assert.match(secret, /^cs_/);
    const token = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: clientId,
        client_secret: secret,
      }),
    }).then((r) => r.json());
    const rooms = await fetch(`${BASE}/api/v2/rooms`, {
      headers: { Authorization: `Bearer ${token.access_token}`, Property: field(server.out, "property id") },
    }).then((r) => r.json());
    assert.deepEqual(
      rooms.data.map((r) => r.name),
      ["Sala", "Terrazza"],
    );
    assert.equal(rooms.data.flatMap((r) => r.tables).length, 9);
  });

  it("prints the console's address and the demo restaurant's sign-in, which opens a console session", async () => {
    assert.match(server.out, new RegExp(`Restaurant console\\s+${BASE}/console\\n`));
    const username = field(server.out, "username");
    const password = field(server.out, "password");
    assert.ok(username && password, server.out);
    const res = await fetch(`${BASE}/console/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal((await res.json()).data[0].property.id, Number(field(server.out, "property id")));
  });

  it("the demo restaurant is bookable at once from its hosted booking page", async () => {
    const bookingPage = field(server.out, "Booking page");
    const page = await fetch(bookingPage);
    assert.equal(page.status, 200);
    const publicKey = new URL(bookingPage).pathname.split("/")[2];
    assert.match(await page.text(), new RegExp(`<booking-engine property="${publicKey}" page="book"`));
    const api = `${BASE}/api/v2/public/${publicKey}`;
    const profile = (await fetch(api).then((r) => r.json())).data[0];
    const days = (await fetch(`${api}/slots?date=${profile.first_date}&pax=2&days=3`).then((r) => r.json()))
      .data;
    // a service that asks no payment (the demo's tasting menu asks a deposit: docs/payments.md)
    const offer = days.flatMap((d) =>
      d.services
        .filter((s) => !s.payment)
        .flatMap((s) => s.times.map((hour) => ({ date: d.date, service_id: s.service_id, hour }))),
    )[0];
    assert.ok(offer, "the demo offers a time for two within three days");
    const booked = await fetch(`${api}/reservations`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        ...offer,
        pax: 2,
        guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
      }),
    });
    assert.equal(booked.status, 201);
    const { manage_url: manageUrl, status } = (await booked.json()).data[0];
    assert.equal(status, "ACCEPTED");
    assert.equal((await fetch(manageUrl)).status, 200);
  });

  it("runs the README quick start line by line", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = readme.split("<!-- quickstart:begin -->")[1]?.split("<!-- quickstart:end -->")[0];
    assert.ok(block, "README has a quick start block");
    const script = block.replace(/^```sh\n/m, "").replace(/```\s*$/m, "");
    const cwd = mkdtempSync(join(tmpdir(), "be-quickstart-"));
    const r = await run("bash", ["-xeuo", "pipefail", "-c", script], {
      cwd,
      env: { ...process.env, BASE },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, `quick start failed:\n${r.stdout}\n${r.stderr}`);
    const lines = r.stdout.trim().split("\n");
    const properties = JSON.parse(lines[0]);
    assert.equal(properties.data.length, 1);
    assert.equal(properties.data[0].sandbox, true);
    const table = JSON.parse(lines[1]);
    assert.equal(table.data[0].name, "T1");
    assert.equal(table.data[0].guests_max, 4);
    assert.match(lines[2], /^\d{4}-\d{2}-\d{2} Dinner: 19:00:00 19:15:00 .* 22:00:00$/);
    const confirmed = JSON.parse(lines[3]).data[0];
    assert.equal(confirmed.status, "CONFIRMED");
    assert.equal(confirmed.start_hour, "20:00:00");
    assert.deepEqual(
      confirmed.tables.map((t) => t.name),
      ["T1"],
    );
    // a week ahead, check-in is not open yet, as the README says
    const client = JSON.parse(readFileSync(join(cwd, "client.json"), "utf8")).data[0];
    const quick = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    }).then((res) => res.json());
    const early = await fetch(`${BASE}/api/v2/reservations/${confirmed.id}/checkin`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${quick.access_token}`, Property: String(properties.data[0].id) },
    });
    assert.equal(early.status, 409);
    assert.equal((await early.json()).code, "checkin_too_early");
    rmSync(cwd, { recursive: true, force: true });
  });

  it("renders /docs in Chromium with the network cut off, under its Content-Security-Policy", async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const blocked = [];
      await page.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === "127.0.0.1") return route.continue();
        blocked.push(url.href);
        return route.abort("internetdisconnected");
      });
      // The page's CSP must not have to refuse anything the docs UI does.
      const violations = [];
      await page.exposeFunction("reportViolation", (v) => violations.push(v));
      await page.addInitScript(() =>
        document.addEventListener("securitypolicyviolation", (e) =>
          window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
        ),
      );
      const answer = await page.goto(`${BASE}/docs`);
      assert.match(
        answer.headers()["content-security-policy"] ?? "",
        /default-src 'none'.*script-src 'self' 'nonce-/,
      );
      await page.waitForSelector(".opblock", { timeout: 30_000 });
      assert.match(await page.locator(".info .title").innerText(), /Restaurant reservation API/);
      const operations = await page.locator(".opblock").count();
      assert.ok(operations >= 20, `only ${operations} operations rendered`);
      await page.screenshot({ path: join(ARTIFACTS, "docs.png") });
      assert.deepEqual(blocked, [], "the docs page asked for something outside this server");
      // "Try it out" calls this origin's API with a bearer token, as this fetch from the page does.
      const status = await page.evaluate(() =>
        fetch("/api/v2/properties", { headers: { Authorization: "Bearer not-a-token" } }).then(
          (r) => r.status,
        ),
      );
      assert.equal(status, 401);
      assert.deepEqual(violations, [], "the docs page broke its own Content-Security-Policy");
    } finally {
      await browser.close();
    }
  });

  it("enables production with the operator command", async () => {
    const clientId = field(server.out, "client_id");
    const r = await run(
      process.execPath,
      [join(ROOT, "scripts", "ops.mjs"), "enable-production", clientId, "--persist-to", STATE],
      { env: { ...process.env, PORT: String(PORT) }, encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /production enabled/);
    const token = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${btoa(`${clientId}:${field(server.out, "client_secret")}`)}` },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    }).then((res) => res.json());
    const created = await fetch(`${BASE}/api/v2/properties`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token.access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Real Restaurant" }),
    }).then((res) => res.json());
    assert.equal(created.data[0].sandbox, false);
    const bad = await run(process.execPath, [join(ROOT, "scripts", "ops.mjs"), "enable-production", "nope"], {
      encoding: "utf8",
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /not a client_id/);
  });

  it("grants a client a property with the operator command while the running Worker answers token requests", async () => {
    const clientId = field(server.out, "client_id");
    const basic = `Basic ${btoa(`${clientId}:${field(server.out, "client_secret")}`)}`;
    const tokenStatus = () =>
      fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
        method: "POST",
        headers: { Authorization: basic },
        body: new URLSearchParams({ grant_type: "client_credentials" }),
      }).then((r) => r.status);
    const partner = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/client`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Partner POS",
        email: "partner@example.com",
        username: `partner-${Date.now()}`,
        password: "partner-password-1",
        redirect_uri: "https://partner.example/cb",
      }),
    }).then((r) => r.json());
    const grant = new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(ROOT, "scripts", "ops.mjs"),
          "grant",
          partner.data[0].client_id,
          field(server.out, "property id"),
        ],
        { env: { ...process.env, PORT: String(PORT) } },
      );
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("close", (code) => resolve({ code, out }));
    });
    const statuses = [];
    let done = false;
    grant.then(() => (done = true));
    while (!done) statuses.push(...(await Promise.all([tokenStatus(), tokenStatus()])));
    const { code, out } = await grant;
    assert.equal(code, 0, out);
    assert.match(out, /may now act on property/);
    assert.ok(statuses.length >= 2);
    assert.deepEqual(
      statuses.filter((s) => s !== 200),
      [],
      "a token request failed beside the ops command",
    );
  });

  it("shows the shards and moves the demo restaurant to another shard with the ops commands, losing nothing", async () => {
    const ops = (...args) =>
      run(process.execPath, [join(ROOT, "scripts", "ops.mjs"), ...args], {
        env: { ...process.env, PORT: String(PORT) },
        encoding: "utf8",
      });
    const shards = await ops("shards");
    assert.equal(shards.status, 0, shards.stderr);
    assert.match(shards.stdout, /ids from/);
    const property = field(server.out, "property id");
    const api = `${BASE}/api/v2/public/${field(server.out, "Booking page").split("/p/")[1].split("/")[0]}`;
    const profile = (await fetch(api).then((r) => r.json())).data[0];
    const day = (
      await fetch(`${api}/slots?date=${profile.first_date}&pax=2&days=7`).then((r) => r.json())
    ).data.find((d) => d.services.some((x) => x.times.length));
    const booked = await fetch(`${api}/reservations`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        date: day.date,
        hour: day.services.find((x) => x.times.length).times.at(-1),
        pax: 2,
        guest: { first_name: "Moved", last_name: "Guest", email: "moved@example.com" },
      }),
    }).then((r) => r.json());
    // Whichever shard the demo is on, the other one.
    let moved = await ops("move-property", property, "1");
    if (/already/.test(moved.stderr)) moved = await ops("move-property", property, "0");
    assert.equal(moved.status, 0, moved.stderr);
    assert.match(moved.stdout, /switched: property \d+ lives on shard \d/);
    assert.match(moved.stdout, /copied +\d+ rows of reservations/);
    // The guest's manage link and a new booking work on the new shard.
    const manage = await fetch(`${api}/manage/${booked.data[0].manage_token}`).then((r) => r.json());
    assert.equal(manage.data[0].guest.first_name, "Moved");
    const bad = await ops("move-property", property, "7");
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /there is no shard 7/);
  });

  it("delivers both event types of one endpoint to the docs' Node receiver, verified with its one secret, through wrangler dev's queue", async () => {
    const readme = readFileSync(join(ROOT, "docs", "webhooks.md"), "utf8");
    const block = (name) =>
      readme
        .split(`<!-- ${name}:begin -->`)[1]
        ?.split(`<!-- ${name}:end -->`)[0]
        ?.replace(/^```\w*\n/m, "")
        .replace(/```\s*$/m, "");
    const [subscribeSh, receiverJs] = [block("webhooks"), block("receiver")];
    assert.ok(subscribeSh && receiverJs, "README has the webhook blocks");
    // webhooks to http://localhost are for sandboxes: the demo client's sandbox property
    const property = server.out.match(/Sandbox property\s+property id\s+(\d+)/)[1];
    const auth = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: field(server.out, "client_id"),
        client_secret: field(server.out, "client_secret"),
      }),
    }).then((r) => r.json());
    const api = (path, init = {}) =>
      fetch(`${BASE}${path}`, {
        ...init,
        headers: {
          Authorization: `Bearer ${auth.access_token}`,
          Property: property,
          "Content-Type": "application/json",
          ...init.headers,
        },
      }).then(async (r) => ({ status: r.status, json: await r.json() }));

    // The README's subscription lines, as a reader would run them after the quick start.
    const port = await freePort();
    const json = `json() { node -e "const d = JSON.parse(require('fs').readFileSync(0)); console.log(String($1))"; }`;
    const sub = await run("bash", ["-euo", "pipefail", "-c", `${json}\n${subscribeSh}`], {
      env: {
        ...process.env,
        BASE,
        TOKEN: auth.access_token,
        PROPERTY: property,
        HOOK: `http://localhost:${port}/`,
      },
      encoding: "utf8",
    });
    assert.equal(sub.status, 0, sub.stderr);
    const secret = sub.stdout.match(/WEBHOOK_SECRET=(whsec_\S+)/)?.[1];
    assert.ok(secret, sub.stdout);

    // The README's receiver, from a file inside the project so it finds standardwebhooks.
    const file = join(ARTIFACTS, `receiver-${port}.mjs`);
    writeFileSync(file, receiverJs);
    const receiver = spawn(process.execPath, [file], {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    receiver.stdout.on("data", (c) => (out += c));
    receiver.stderr.on("data", (c) => (out += c));
    try {
      // A forged delivery is refused by the receiver's verification.
      await waitForPort(port);
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: {
          "webhook-id": "msg_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA",
        },
        body: "{}",
      });
      assert.equal(forged.status, 400);

      // Book the demo restaurant's first free time for two.
      const day = new Date(Date.now() + 3 * 864e5).toISOString().slice(0, 10);
      const slots = await api(`/api/v2/bookings/slots?start_date=${day}&pax=2&out_of_order=true`);
      const first = slots.json.data
        .flatMap((d) =>
          d.available_services.map((s) => ({ day: d.day, service: s.id, hour: s.available_slots[0] })),
        )
        .find((x) => x.hour);
      assert.ok(first, "the demo restaurant has a free time");
      const booked = await api("/api/v2/reservations", {
        method: "POST",
        body: JSON.stringify({
          start_date: first.day,
          start_hour: first.hour,
          pax: 2,
          service_id: first.service,
          customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
        }),
      });
      assert.equal(booked.status, 201, JSON.stringify(booked.json));
      const id = booked.json.data[0].id;
      const line = `RESERVATION_CREATED ${id} ACCEPTED ${first.day} ${first.hour}`;
      const deadline = Date.now() + 20_000;
      while (!out.includes(line) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.ok(out.includes(line), `the receiver printed:\n${out}`);

      // The same receiver, with the same secret, verifies the other event type: the cancellation.
      const cancelled = await api(`/api/v2/reservations/${id}`, { method: "DELETE" });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.json));
      const updated = `RESERVATION_UPDATED ${id} CANCELLED`;
      const until = Date.now() + 20_000;
      while (!out.includes(updated) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      assert.ok(out.includes(updated), `the receiver printed:\n${out}`);

      const subscriptions = await api("/api/v2/webhooks/subscriptions");
      const mine = subscriptions.json.data.filter((s) => s.endpoint === `http://localhost:${port}/`);
      assert.deepEqual(mine.map((s) => s.webhook_type).sort(), [
        "RESERVATION_CREATED",
        "RESERVATION_UPDATED",
      ]);
      for (const s of mine) {
        const log = await api(`/api/v2/webhooks/subscription/${s.id}/deliveries`);
        assert.deepEqual(
          log.json.data[0].attempts.map((a) => a.status),
          [200],
        );
      }
    } finally {
      receiver.kill();
      rmSync(file, { force: true });
    }
  });

  it("says so and exits when its port is taken (here by the first npm start)", async () => {
    const state = mkdtempSync(join(tmpdir(), "be-e2e-taken-"));
    try {
      await assert.rejects(npmStartOn({ port: PORT, state }), (err) => {
        assert.match(err.message, /^npm start exited 1:/);
        assert.match(
          err.message,
          new RegExp(`npm start: port ${PORT} is already in use\\. .*PORT=8788 npm start`),
        );
        return true;
      });
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
    assert.equal((await fetch(`${BASE}/healthz`)).status, 200, "the first npm start still serves");
  });

  it("finds the demo already there on a second start", async () => {
    const first = {
      clientId: field(server.out, "client_id"),
      publicKey: server.out.match(/\/p\/(pk_[\w-]+)/)[1],
    };
    await stopNpmStart(server.child);
    server = await npmStart();
    assert.equal(field(server.out, "client_id"), first.clientId);
    assert.match(server.out, new RegExp(`/p/${first.publicKey}`));
    assert.match(server.out, /local D1 is up to date/);
  });
});
