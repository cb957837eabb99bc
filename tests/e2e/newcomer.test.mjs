// A newcomer's path past the README's quick start, with `npm start` running: the demo restaurant
// as its pages show it (an address, a map link); connecting it by OAuth with the client of
// docs/oauth.md and subscribing a local receiver with the lines of docs/webhooks.md (a production
// property: under npm start a loopback receiver works for every property); and a build run while
// the server runs, after which its assets and hosted pages still answer.
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
import { bannerField, npmStartOnFreePort, stopNpmStart } from "../support/npm-start.mjs";
import { run } from "../support/run.mjs";

const STATE = mkdtempSync(join(tmpdir(), "be-e2e-newcomer-"));
const ARTIFACTS = join(ROOT, "tests", "e2e", ".tmp");
mkdirSync(ARTIFACTS, { recursive: true });

/** The code between `<!-- name:begin -->` and `<!-- name:end -->` of a doc, without its fence. */
const block = (doc, name) =>
  readFileSync(join(ROOT, "docs", doc), "utf8")
    .split(`<!-- ${name}:begin -->`)[1]
    ?.split(`<!-- ${name}:end -->`)[0]
    ?.replace(/^\s*```\w*\n/, "")
    .replace(/```\s*$/, "");
const JSON_HELPER = `json() { node -e "const d = JSON.parse(require('fs').readFileSync(0)); console.log(String($1))"; }`;

/** Waits until `test()` holds (polling), or fails saying what it waited for. */
async function until(test, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/** A script of the docs, from a file inside the project (so it finds its packages), with its output kept. */
function runDocScript(name, code, env) {
  const file = join(ARTIFACTS, `${name}-${process.pid}.mjs`);
  writeFileSync(file, code);
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const script = { out: "", exited: new Promise((resolve) => child.on("exit", resolve)) };
  child.stdout.on("data", (c) => (script.out += c));
  child.stderr.on("data", (c) => (script.out += c));
  script.stop = () => {
    child.kill();
    rmSync(file, { force: true });
  };
  return script;
}

describe("a newcomer with npm start running", () => {
  let server;
  let BASE;
  let browser;
  before(async () => {
    server = await npmStartOnFreePort({ state: STATE });
    BASE = `http://127.0.0.1:${server.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    if (server) await stopNpmStart(server.child);
    rmSync(STATE, { recursive: true, force: true });
  });
  const demo = () => ({
    property: bannerField(server.out, "property id"),
    publicKey: server.out.match(/Welcome page\s+\S+\/p\/(\S+)/)[1],
  });

  it("finds the demo restaurant's address on its public profile, which its pages show with a map link", async () => {
    const profile = await fetch(`${BASE}/api/v2/public/${demo().publicKey}`).then((r) => r.json());
    const { address, position } = profile.data[0];
    assert.equal(address.city, "Milano");
    assert.match(address.street, /\S/);
    assert.equal(typeof position.latitude, "number");
    assert.equal(typeof position.longitude, "number");
  });

  it("connects the demo restaurant with docs/oauth.md's client, then subscribes a local receiver with docs/webhooks.md's lines", async () => {
    const oauthPort = await freePort();
    const redirectUri = `http://127.0.0.1:${oauthPort}/callback`;
    const created = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/client`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "My POS",
        email: "dev@mypos.example",
        username: `mypos-oauth-${process.pid}`,
        password: "a-long-password",
        redirect_uri: redirectUri,
      }),
    }).then((r) => r.json());
    const { client_id, client_secret } = created.data[0];

    // docs/oauth.md's client, the demo restaurant signing in with what npm start printed
    const client = runDocScript("oauth-client", block("oauth.md", "oauth-client"), {
      BASE,
      PORT: String(oauthPort),
      CLIENT_ID: client_id,
      CLIENT_SECRET: client_secret,
    });
    try {
      await until(() => /http\S+\/authorize\?\S+/.test(client.out), "the authorize address");
      const page = await browser.newPage();
      await page.goto(client.out.match(/http\S+\/authorize\?\S+/)[0]);
      await page.locator('input[name="username"]').fill(bannerField(server.out, "username"));
      await page.locator('input[name="password"]').fill(bannerField(server.out, "password"));
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/authorize\/consent$/);
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL(`${redirectUri}?**`);
      await page.close();
      assert.equal(await client.exited, 0, client.out);
    } finally {
      client.stop();
    }
    const property = client.out.match(/connected to property (\d+)/)?.[1];
    assert.equal(property, demo().property, client.out);

    // docs/webhooks.md: the subscription lines, with the client's token, for the connected restaurant
    const token = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id, client_secret }),
    }).then((r) => r.json());
    const hookPort = await freePort();
    const sub = await run(
      "bash",
      ["-euo", "pipefail", "-c", `${JSON_HELPER}\n${block("webhooks.md", "webhooks")}`],
      {
        env: {
          ...process.env,
          BASE,
          TOKEN: token.access_token,
          PROPERTY: property,
          HOOK: `http://localhost:${hookPort}/`,
        },
      },
    );
    assert.equal(sub.status, 0, sub.stderr);
    const secret = sub.stdout.match(/WEBHOOK_SECRET=(whsec_\S+)/)?.[1];
    assert.ok(secret, `the subscription answered no secret:\n${sub.stdout}`);

    // ... and its receiver hears of a booking at the demo restaurant
    const receiver = runDocScript("receiver", block("webhooks.md", "receiver"), {
      WEBHOOK_SECRET: secret,
      PORT: String(hookPort),
    });
    try {
      await until(() => listening(hookPort), "the receiver to listen");
      const headers = {
        Authorization: `Bearer ${token.access_token}`,
        Property: property,
        "Content-Type": "application/json",
      };
      const day = new Date(Date.now() + 3 * 864e5).toISOString().slice(0, 10);
      const slots = await fetch(`${BASE}/api/v2/bookings/slots?start_date=${day}&pax=2`, { headers }).then(
        (r) => r.json(),
      );
      const free = slots.data
        .flatMap((d) =>
          d.available_services.map((s) => ({ day: d.day, service: s.id, hour: s.available_slots[0] })),
        )
        .find((x) => x.hour);
      const booked = await fetch(`${BASE}/api/v2/reservations`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          start_date: free.day,
          start_hour: free.hour,
          pax: 2,
          service_id: free.service,
          customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
        }),
      }).then((r) => r.json());
      const line = `RESERVATION_CREATED ${booked.data[0].id} ACCEPTED`;
      await until(() => receiver.out.includes(line), `"${line}" from the receiver`);
    } finally {
      receiver.stop();
    }
  });

  it("keeps serving its assets and hosted pages while builds run beside it", async () => {
    const bookPage = `${BASE}/p/${demo().publicKey}/book`;
    /** The booking page's script and every chunk it preloads: each answers 200 with a body. */
    const assetsAnswer = async () => {
      const html = await fetch(bookPage).then((r) => r.text());
      const urls = [
        ...html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="([^"]+)"/g),
      ];
      assert.ok(urls.length >= 2, html);
      for (const path of [...urls.map((m) => m[1]), "/docs/assets/swagger-ui.css", "/favicon.svg"]) {
        const res = await fetch(new URL(path, BASE));
        const body = await res.text();
        assert.equal(res.status, 200, `${path} answered ${res.status}`);
        assert.ok(body.length > 0, `${path} answered an empty body`);
      }
    };
    await assetsAnswer();
    // two builds at once, as `npm test` and a second `npm start` would run them
    const builds = await Promise.all(
      [1, 2].map(() => run(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT })),
    );
    for (const b of builds) assert.equal(b.status, 0, b.stderr);
    await assetsAnswer();
    // and the hosted page gets past its placeholder to the day's times
    const page = await browser.newPage();
    await page.goto(bookPage);
    await page.locator("booking-engine").locator('input[name="time"]').first().waitFor({ timeout: 30_000 });
    await page.close();
  });
});
