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
  STRIPE_SECRET_KEY: "",
  STRIPE_PUBLISHABLE_KEY: "",
  STRIPE_WEBHOOK_SECRET: "",
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
    assert.match(out, /refused: PUBLIC_ORIGIN is a loopback address \(http:\/\/127\.0\.0\.1:8787\)/);
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
    const stripe = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"];
    assert.deepEqual(problems(config, { secrets: ["OPS_TOKEN", "LINK_SECRET", ...stripe] }), []);
    const [missing, ...rest] = problems(config, { secrets: ["OPS_TOKEN", ...stripe] });
    assert.deepEqual(rest, []);
    assert.equal(missing.what, "the secret LINK_SECRET is not set");
    assert.match(
      missing.fix,
      /LINK_SECRET=\$\(openssl rand -base64 32\) npm run deploy .* or: npx wrangler secret put LINK_SECRET/,
    );
  });

  it("refuses Stripe placeholders, the stand-in's keys and a stand-in address", () => {
    const config = readConfig(configWith(deployable));
    const secrets = [
      "OPS_TOKEN",
      "LINK_SECRET",
      "STRIPE_SECRET_KEY",
      "STRIPE_PUBLISHABLE_KEY",
      "STRIPE_WEBHOOK_SECRET",
    ];
    const real = {
      STRIPE_SECRET_KEY: "sk_live_51Hq3b2Kx9Yz8Wv7Ut6Sr5Qp4",
      STRIPE_PUBLISHABLE_KEY: "pk_live_51Hq3b2Kx9Yz8Wv7Ut6Sr5Qp4",
      STRIPE_WEBHOOK_SECRET: "whsec_Zq8Yx7Wv6Ut5Sr4Qp3On2Ml1Kj0",
    };
    assert.deepEqual(problems(config, { secrets, values: real }), []);
    const standin = problems(config, {
      secrets,
      values: {
        ...real,
        STRIPE_SECRET_KEY: "sk_test_standin_0000000000000000",
        STRIPE_API_BASE: "http://127.0.0.1:4242",
      },
    });
    assert.deepEqual(
      standin.map((p) => p.what),
      [
        "the secret STRIPE_SECRET_KEY is a placeholder or not a Stripe key",
        "STRIPE_API_BASE is set: the local Stripe stand-in must not reach production (the Worker talks to api.stripe.com)",
      ],
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
