// End to end, the search engine's side: `npm start` prints the partner's credentials, the
// README's Reserve with Google session runs line by line against it on the demo restaurant, and
// `npm run ops -- searchengine-feeds DIR` writes the three feeds as files.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ROOT } from "../../scripts/dev-server.mjs";
import { bannerField, npmStartOnFreePort, stopNpmStart } from "../support/npm-start.mjs";
import { run } from "../support/run.mjs";

// Set once npm start is up, on a port of its own.
let PORT;
let BASE;
const STATE = mkdtempSync(join(tmpdir(), "be-e2e-se-"));
const JSON_HELPER = `json() { node -e "const d = JSON.parse(require('fs').readFileSync(0)); console.log(String($1))"; }`;

describe("Reserve with Google against npm start", () => {
  let server;
  let partner;
  let demo;
  before(async () => {
    server = await npmStartOnFreePort({ state: STATE });
    PORT = server.port;
    BASE = `http://127.0.0.1:${PORT}`;
    partner = {
      user: bannerField(server.out, "partner user"),
      password: bannerField(server.out, "partner password"),
    };
    const token = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: bannerField(server.out, "client_id"),
        client_secret: bannerField(server.out, "client_secret"),
      }),
    }).then((r) => r.json());
    demo = { token: token.access_token, property: bannerField(server.out, "property id") };
  });
  after(async () => {
    if (server) await stopNpmStart(server.child);
    rmSync(STATE, { recursive: true, force: true });
  });

  it("prints the booking server's URL and the partner's credentials, kept in its local secrets", async () => {
    assert.match(server.out, new RegExp(`booking server\\s+${BASE}/searchengine\\b`));
    assert.ok(partner.user && partner.password, server.out);
    // in the test's own file (tests/support/npm-start.mjs), as npm start keeps them in .dev.vars
    const vars = readFileSync(process.env.DEV_VARS_FILE, "utf8");
    assert.match(vars, new RegExp(`^SEARCHENGINE_USER=${partner.user}$`, "m"));
    assert.match(vars, new RegExp(`^SEARCHENGINE_PASSWORD=${partner.password}$`, "m"));
    const health = (auth) =>
      fetch(`${BASE}/searchengine/v3/HealthCheck`, {
        headers: auth ? { Authorization: `Basic ${btoa(auth)}` } : {},
      });
    assert.equal((await health(`${partner.user}:${partner.password}`)).status, 200);
    assert.equal((await health()).status, 401);
    assert.equal((await health(`${partner.user}:wrong`)).status, 401);
  });

  it("runs the README's session line by line: switch, feeds, lookup, booking, status, list, cancel", async () => {
    const readme = readFileSync(join(ROOT, "docs", "searchengine.md"), "utf8");
    const block = readme.split("<!-- searchengine:begin -->")[1]?.split("<!-- searchengine:end -->")[0];
    assert.ok(block, "README has the search-engine session");
    const script = block.replace(/^```sh\n/m, "").replace(/```\s*$/m, "");
    const cwd = mkdtempSync(join(tmpdir(), "be-se-session-"));
    const r = await run("bash", ["-euo", "pipefail", "-c", `${JSON_HELPER}\n${script}`], {
      cwd,
      env: {
        ...process.env,
        BASE,
        TOKEN: demo.token,
        PROPERTY: demo.property,
        SE_USER: partner.user,
        SE_PASSWORD: partner.password,
      },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, `the session failed:\n${r.stdout}\n${r.stderr}`);
    const lines = r.stdout.trim().split("\n");
    assert.deepEqual(JSON.parse(lines[0]), { status: "ACCEPTED" });
    assert.equal(lines[1], "200");
    assert.equal(JSON.parse(lines[2]).slot_time_availability[0].available, true);
    const status = JSON.parse(lines[3]);
    assert.equal(status.booking_status, "CONFIRMED");
    assert.ok(lines[4].split(" ").includes(status.booking_id), lines[4]);
    const cancelled = JSON.parse(lines[5]).booking;
    assert.equal(cancelled.status, "CANCELED");
    assert.equal(cancelled.user_information.given_name, "Grace");
    const reservation = await fetch(`${BASE}/api/v2/reservations/${status.booking_id}`, {
      headers: { Authorization: `Bearer ${demo.token}`, Property: demo.property },
    }).then((res) => res.json());
    assert.equal(reservation.data[0].channel, "SEARCHENGINE");
    assert.equal(reservation.data[0].status, "CANCELLED");
    assert.equal(reservation.data[0].customer.last_name, "Hopper");
    rmSync(cwd, { recursive: true, force: true });
  });

  it("writes the three feeds as files with npm run ops -- searchengine-feeds DIR", async () => {
    const dir = mkdtempSync(join(tmpdir(), "be-se-feeds-"));
    const r = await run(process.execPath, [join(ROOT, "scripts", "ops.mjs"), "searchengine-feeds", dir], {
      env: { ...process.env, PORT: String(PORT) },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    for (const name of ["merchants", "services", "availability"])
      assert.ok(existsSync(join(dir, `${name}.json`)), name);
    const merchants = JSON.parse(readFileSync(join(dir, "merchants.json"), "utf8"));
    assert.equal(merchants.metadata.processing_instruction, "PROCESS_AS_COMPLETE");
    const publicKey = bannerField(server.out, "Welcome page").split("/p/")[1];
    assert.ok(merchants.merchant.some((m) => m.merchant_id === publicKey && m.name === "Trattoria Demo"));
    const availability = JSON.parse(readFileSync(join(dir, "availability.json"), "utf8"));
    const slots = availability.service_availability
      .flatMap((s) => s.availability)
      .filter((a) => a.merchant_id === publicKey);
    assert.ok(slots.length > 100, `${slots.length} slots`);
    assert.match(r.stdout, /wrote .*availability\.json \([\d,]+ slots/);
    rmSync(dir, { recursive: true, force: true });
  });
});
