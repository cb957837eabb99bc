// End to end, the typed client of docs/api.md: against `npm start`, openapi-typescript turns the
// running Worker's OpenAPI document into api.d.ts, tsc (strict, with the docs' own flags) checks
// the docs' script and the README's lines against it and compiles them, and the script, run with
// node, books the demo restaurant. The code is taken from the docs between their markers.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ROOT } from "../../scripts/dev-server.mjs";
import { bannerField, npmStartOnFreePort, stopNpmStart } from "../support/npm-start.mjs";
import { run } from "../support/run.mjs";

// Set once npm start is up, on a port of its own.
let PORT;
let BASE;
const STATE = mkdtempSync(join(tmpdir(), "be-e2e-client-"));
// Inside the project, so that the script finds openapi-fetch and @types/node in its node_modules.
const WORK = join(ROOT, "tests", "e2e", ".tmp", `typed-client-${process.pid}`);
const bin = (name) => join(ROOT, "node_modules", ".bin", name);

const API_MD = readFileSync(join(ROOT, "docs", "api.md"), "utf8");
/** The code between `<!-- name:begin -->` and `<!-- name:end -->` of a document, without its fence. */
const block = (text, name) =>
  text
    .split(`<!-- ${name}:begin -->`)[1]
    ?.split(`<!-- ${name}:end -->`)[0]
    ?.replace(/^\s*```\w*\n/, "")
    .replace(/```\s*$/, "");
const SCRIPT = block(API_MD, "typed-client");
const README_LINES = block(readFileSync(join(ROOT, "README.md"), "utf8"), "typed-client-short");
// The commands the docs give: the document's path for openapi-typescript, the flags for tsc.
const DOCUMENT_PATH = API_MD.match(
  /npx openapi-typescript http:\/\/127\.0\.0\.1:8787(\S+) -o api\.d\.ts/,
)?.[1];
const TSC_FLAGS = API_MD.match(/npx tsc (.+) book\.mts/)?.[1].split(/\s+/);
// The property the docs' command names: the demo restaurant's, as a fresh npm start prints it.
const DOCS_PROPERTY = API_MD.match(/ PROPERTY=(\d+) node book\.mjs/)?.[1];

describe("a typed client generated from the OpenAPI document (openapi-typescript, openapi-fetch)", () => {
  let server;
  before(async () => {
    assert.ok(
      SCRIPT && README_LINES && DOCUMENT_PATH && TSC_FLAGS,
      "docs/api.md and README.md have the typed client's blocks and commands",
    );
    mkdirSync(WORK, { recursive: true });
    server = await npmStartOnFreePort({ state: STATE });
    PORT = server.port;
    BASE = `http://127.0.0.1:${PORT}`;
  });
  after(async () => {
    if (server) await stopNpmStart(server.child);
    rmSync(STATE, { recursive: true, force: true });
    rmSync(WORK, { recursive: true, force: true });
  });

  it("generates api.d.ts from the running Worker's document, the webhooks' deliveries included", async () => {
    const started = Date.now();
    const r = await run(
      bin("openapi-typescript"),
      [`${BASE}${DOCUMENT_PATH}`, "-o", join(WORK, "api.d.ts")],
      { cwd: WORK },
    );
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const types = readFileSync(join(WORK, "api.d.ts"), "utf8");
    console.log(
      `# api.d.ts: ${types.split("\n").length} lines, generated in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    assert.match(types, /^export interface paths \{/m);
    assert.match(types, /^export interface webhooks \{\n {4}RESERVATION_CREATED: \{/m);
    assert.match(types, /^ {8}ReservationCreatedEvent: \{/m);
    assert.match(types, /^ {8}ReservationUpdatedEvent: \{/m);
  });

  it("type-checks the docs' script and the README's lines strictly against it, and refuses a wrong field name", async () => {
    writeFileSync(join(WORK, "book.mts"), SCRIPT);
    writeFileSync(
      join(WORK, "readme.mts"),
      `declare const BASE: string, TOKEN: string, PROPERTY: string;\n${README_LINES}`,
    );
    // The same script with a field the request does not take and one the answer does not have.
    const wrong = SCRIPT.replace("start_hour: free[0].hour", "start_time: free[0].hour").replace(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own template literal, as text
      "${r.start_day}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: likewise
      "${r.start_date}",
    );
    assert.notEqual(wrong, SCRIPT);
    writeFileSync(join(WORK, "wrong.mts"), wrong);
    // One tsc program for the three (tsc still writes the JavaScript of the good ones).
    const started = Date.now();
    const r = await run(bin("tsc"), [...TSC_FLAGS, "book.mts", "readme.mts", "wrong.mts"], { cwd: WORK });
    console.log(
      `# tsc --strict over api.d.ts and the scripts: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const errors = r.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
    assert.notEqual(r.status, 0, "tsc accepted the misspelt fields");
    assert.deepEqual(
      errors.filter((line) => !line.startsWith("wrong.mts")),
      [],
      "api.d.ts, the docs' script and the README's lines compile without an error",
    );
    assert.ok(
      errors.some((line) => /'start_time' does not exist/.test(line)),
      r.stdout,
    );
    assert.ok(
      errors.some((line) => /'start_date' does not exist/.test(line)),
      r.stdout,
    );
  });

  it("names the demo restaurant's property id in the docs' command, as a fresh npm start prints it", () => {
    assert.equal(DOCS_PROPERTY, bannerField(server.out, "property id"));
  });

  it("runs the docs' script: it books the demo restaurant, reads the booking back and cancels it, and the API shows it cancelled", async () => {
    const env = {
      ...process.env,
      BASE,
      CLIENT_ID: bannerField(server.out, "client_id"),
      CLIENT_SECRET: bannerField(server.out, "client_secret"),
      PROPERTY: bannerField(server.out, "property id"),
    };
    const r = await run(process.execPath, [join(WORK, "book.mjs")], { cwd: WORK, env });
    assert.equal(r.status, 0, r.stderr);
    const [, id, day, hour] =
      r.stdout.match(/^reservation (\d+): ACCEPTED (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d), table \S+/m) ?? [];
    assert.ok(id, r.stdout);
    // DELETE answers the id alone, typed so: the script printed it
    assert.match(r.stdout, new RegExp(`^cancelled reservation ${id}$`, "m"));

    const token = await fetch(`${BASE}/auth/api/v2/api-account/oauth2/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: env.CLIENT_ID,
        client_secret: env.CLIENT_SECRET,
      }),
    }).then((res) => res.json());
    const headers = { Authorization: `Bearer ${token.access_token}`, Property: env.PROPERTY };
    const listed = await fetch(`${BASE}/api/v2/reservations?start_date=${day}&end_date=${day}`, {
      headers,
    }).then((res) => res.json());
    const mine = listed.data.find((x) => x.id === Number(id));
    assert.ok(mine, `reservation ${id} is among ${day}'s`);
    assert.equal(mine.start_hour, hour);
    assert.equal(mine.status, "CANCELLED");
    assert.deepEqual([mine.pax, mine.guest.first_name, mine.guest.last_name], [2, "Ada", "Lovelace"]);
  });
});
