// npm run deploy refuses what would ship broken, before it asks anything of an account: run
// against a temporary copy of wrangler.toml, with wrangler's API pointed at a closed port so
// that nothing could reach Cloudflare even if a check let a deploy through. (The dry run of the
// project's own wrangler.toml is a stage of npm test.)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { problems, readConfig, withDatabaseId, withVar } from "../../scripts/deploy/config.mjs";
import { ROOT } from "../../scripts/paths.mjs";

const DIR = mkdtempSync(join(tmpdir(), "be-deploy-"));
after(() => rmSync(DIR, { recursive: true, force: true }));

const OFFLINE = {
  CLOUDFLARE_API_BASE_URL: "http://127.0.0.1:9/client/v4",
  CLOUDFLARE_API_TOKEN: "not-a-token",
  CLOUDFLARE_ACCOUNT_ID: "0",
  OPS_TOKEN: "",
  LINK_SECRET: "",
};
const REAL_IDS = {
  "booking-engine": "6f1c0c9e-1d2a-4b7e-9a51-3c0d2b1e0a01",
  "booking-engine-shard-0": "6f1c0c9e-1d2a-4b7e-9a51-3c0d2b1e0a02",
  "booking-engine-shard-1": "6f1c0c9e-1d2a-4b7e-9a51-3c0d2b1e0a03",
};

/** A copy of the project's wrangler.toml with `edit` applied to its text; returns its path. */
function configWith(edit, name = `wrangler-${Math.random().toString(36).slice(2)}.toml`) {
  const path = join(DIR, name);
  copyFileSync(join(ROOT, "wrangler.toml"), path);
  writeFileSync(path, edit(readFileSync(path, "utf8")));
  return path;
}

const deployable = (text) =>
  Object.entries(REAL_IDS).reduce(
    (t, [n, id]) => withDatabaseId(t, n, id),
    withVar(
      withVar(text, "PUBLIC_ORIGIN", "https://book.example.com"),
      "EMAIL_FROM",
      "bookings@trattoria.it",
    ),
  );

function deploy(config, ...args) {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "deploy.mjs"), "--config", config, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...OFFLINE },
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm run deploy", () => {
  it("refuses a loopback PUBLIC_ORIGIN, saying how to set the real one", () => {
    const { code, out } = deploy(
      configWith((t) => withVar(deployable(t), "PUBLIC_ORIGIN", "http://127.0.0.1:8787")),
    );
    assert.equal(code, 1, out);
    assert.match(
      out,
      /refused: PUBLIC_ORIGIN is a loopback, private or reserved address \(http:\/\/127\.0\.0\.1:8787\)/,
    );
    assert.match(out, /fix: npm run deploy -- --origin https:\/\//);
    assert.doesNotMatch(out, /the Cloudflare account/, "refused before asking the account");
  });

  it("refuses a missing PUBLIC_ORIGIN and a placeholder EMAIL_FROM", () => {
    const path = configWith((t) =>
      withVar(deployable(t), "EMAIL_FROM", "bookings@booking-engine.example").replace(
        /^PUBLIC_ORIGIN = .*$/m,
        "",
      ),
    );
    const { code, out } = deploy(path);
    assert.equal(code, 1, out);
    assert.match(out, /refused: PUBLIC_ORIGIN is missing/);
    assert.match(out, /refused: EMAIL_FROM is a placeholder \(bookings@booking-engine\.example\)/);
  });

  it("refuses placeholder database ids when it may not create the databases (--no-provision)", () => {
    const { code, out } = deploy(
      configWith((t) =>
        withVar(
          withVar(t, "PUBLIC_ORIGIN", "https://book.example.com"),
          "EMAIL_FROM",
          "bookings@trattoria.it",
        ),
      ),
      "--no-provision",
    );
    assert.equal(code, 1, out);
    for (const binding of ["DB", "SHARD_0", "SHARD_1"])
      assert.match(out, new RegExp(`refused: ${binding}'s database_id is a placeholder`));
    assert.match(
      out,
      /fix: npm run deploy \(creates "booking-engine-shard-1" and writes its id\), or: npx wrangler d1 create booking-engine-shard-1/,
    );
  });

  it("refuses a missing secret that is neither set on Cloudflare nor given to the deploy", () => {
    const config = readConfig(configWith(deployable));
    assert.deepEqual(problems(config, { secrets: ["OPS_TOKEN", "LINK_SECRET"] }), []);
    const [missing, ...rest] = problems(config, { secrets: ["OPS_TOKEN"] });
    assert.deepEqual(rest, []);
    assert.equal(missing.what, "the secret LINK_SECRET is not set");
    assert.match(
      missing.fix,
      /LINK_SECRET=\$\(openssl rand -base64 32\) npm run deploy .* or: npx wrangler secret put LINK_SECRET/,
    );
  });

  it("writes --origin and --email-from into wrangler.toml, so the next deploy keeps them", () => {
    const path = configWith((t) => t);
    deploy(
      path,
      "--origin",
      "http://localhost:8787",
      "--email-from",
      "bookings@trattoria.it",
      "--no-provision",
    );
    const written = readConfig(path);
    assert.equal(written.vars.PUBLIC_ORIGIN, "http://localhost:8787");
    assert.equal(written.vars.EMAIL_FROM, "bookings@trattoria.it");
  });

  it("refuses a PUBLIC_ORIGIN that is not a public https origin, saying why", () => {
    const why = (origin) =>
      problems(readConfig(configWith((t) => withVar(deployable(t), "PUBLIC_ORIGIN", origin))), {
        secrets: ["OPS_TOKEN", "LINK_SECRET"],
      }).map((p) => p.what);
    const refused = {
      "https://localhost.": /loopback or internal name/,
      "https://LOCALHOST": /loopback or internal name/,
      "https://book.localhost.": /loopback or internal name/,
      "https://intranet": /loopback or internal name/,
      "https://printer.local": /loopback or internal name/,
      "https://[::ffff:127.0.0.1]": /loopback, private or reserved address/,
      "https://[::]": /loopback, private or reserved address/,
      "https://[::1]": /loopback, private or reserved address/,
      "https://0x7f.1": /loopback, private or reserved address/,
      "https://10.1.2.3": /loopback, private or reserved address/,
      "https://172.16.5.4": /loopback, private or reserved address/,
      "https://192.168.1.10": /loopback, private or reserved address/,
      "https://169.254.169.254": /loopback, private or reserved address/,
      "https://100.64.0.1": /loopback, private or reserved address/,
      "https://[fe80::1]": /loopback, private or reserved address/,
      "https://[fd12:3456::1]": /loopback, private or reserved address/,
      "https://owner:secret@book.example.com": /user or password/,
      "https://book.example.com/booking": /only an origin/,
      "https://book.example.com/?from=mail": /only an origin/,
      "https://book.example.com/#top": /only an origin/,
      "http://book.example.com": /must be https/,
    };
    for (const [origin, reason] of Object.entries(refused)) {
      const found = why(origin);
      assert.equal(found.length, 1, `${origin}: ${found.join("; ") || "accepted"}`);
      assert.match(found[0], reason, origin);
    }
    for (const origin of [
      "https://book.example.com",
      "https://book.example.com:8443",
      "https://203.0.114.7",
      "https://[2606:4700::6810:84e5]",
    ])
      assert.deepEqual(why(origin), [], origin);
  });

  it("writes nothing on a dry run: --origin and --email-from are checked, wrangler.toml and the checkout stay as they were", () => {
    const git = (...args) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout;
    const toml = join(ROOT, "wrangler.toml");
    const [before, status] = [readFileSync(toml), git("status", "--porcelain", "--untracked-files=all")];
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, "scripts", "deploy.mjs"),
        "--dry-run",
        "--origin",
        "https://book.example.com",
        "--email-from",
        "bookings@trattoria.it",
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...OFFLINE }, timeout: 240_000 },
    );
    const out = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 0, out);
    assert.match(out, /dry run done/);
    assert.match(
      out,
      /PUBLIC_ORIGIN https:\/\/book\.example\.com, EMAIL_FROM bookings@trattoria\.it \(checked, not written\)/,
    );
    assert.deepEqual(readFileSync(toml), before, "wrangler.toml unchanged");
    assert.equal(git("status", "--porcelain", "--untracked-files=all"), status, "git status unchanged");
  });

  it("takes a database id for the one named, leaving the others and the comments as they were", () => {
    const before = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    const after = withDatabaseId(before, "booking-engine-shard-0", REAL_IDS["booking-engine-shard-0"]);
    const ids = readConfig(configWith(() => after)).databases.map((d) => d.id);
    assert.deepEqual(ids, [
      "00000000-0000-0000-0000-000000000000",
      REAL_IDS["booking-engine-shard-0"],
      "00000000-0000-0000-0000-000000000011",
    ]);
    assert.equal(
      after.split("\n").filter((l) => l.startsWith("#")).length,
      before.split("\n").filter((l) => l.startsWith("#")).length,
    );
  });
});
