// A restaurant connects an integrator, end to end: a real Worker (wrangler dev, local
// D1), the hosted pages driven in Chromium with the keyboard, a real OAuth client library
// (oauth4webapi) on the integrator's side, the README's example client run as written, axe on
// every page of the flow in two languages, and the sign-in page's screenshot for the README.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import * as oauth from "oauth4webapi";
import { chromium } from "playwright-core";
import { build, freePort, migrate, ROOT, startDevOnFreePort } from "../../scripts/dev-server.mjs";
import { AUTH, createRestaurant, RESTAURANT_PASSWORD, request } from "../../scripts/restaurant.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { axeViolations } from "../support/axe.mjs";
import { run } from "../support/run.mjs";

const STATE = mkdtempSync(join(tmpdir(), "be-oauth-e2e-"));
const ARTIFACTS = join(ROOT, "tests", "e2e", ".tmp");
const SCREENSHOT = join(ROOT, "docs", "oauth-sign-in.png");
const OPS_TOKEN = `ops-e2e-${Math.random().toString(36).slice(2)}`;
mkdirSync(ARTIFACTS, { recursive: true });

/** What the focused element is, as a keyboard user's screen reader would name it. */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return {
      tag: a?.tagName.toLowerCase(),
      name: a?.getAttribute("name"),
      aria: a?.getAttribute("aria-label"),
      label: (a?.labels?.[0]?.textContent ?? a?.textContent ?? "").trim(),
    };
  });

async function tabTo(page, match, what, max = 15) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    if (match(f)) return f;
  }
  throw new Error(`Tab never reached ${what}; focus is on ${JSON.stringify(await focused(page))}`);
}

describe("a restaurant connects an integrator (OAuth authorization code with PKCE)", () => {
  let server, browser, restaurant, as, local;

  /** An integrator client whose redirect_uri is a local address of its own. */
  async function integrator(name = "Acme POS") {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const username = `acme-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
    const created = await request(server.url, `${AUTH}/client`, {
      body: {
        name,
        email: "dev@acme.example",
        username,
        password: "a-long-password",
        redirect_uri: redirectUri,
      },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const c = created.json.data[0];
    return {
      port,
      redirectUri,
      client: { client_id: c.client_id },
      auth: oauth.ClientSecretBasic(c.client_secret),
      secret: c.client_secret,
    };
  }

  /** An authorization URL with PKCE and a state, as oauth4webapi's docs build it. */
  async function authorizeUrl(app, extra = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: app.client.client_id,
      redirect_uri: app.redirectUri,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ...extra,
    });
    return { url, verifier, state };
  }

  /**
   * A browser context of its own address (the sign-in limits count per address; wrangler dev
   * keeps a CF-Connecting-IP the request brings).
   */
  let addresses = 0;
  const newContext = (options = {}, address = `192.0.2.${++addresses}`) =>
    browser.newContext({ ...options, extraHTTPHeaders: { "CF-Connecting-IP": address } });

  /**
   * A page, and the integrator's redirect_uri as a real server recording what this page's browser
   * sends it (Playwright's page.route does not see the target of a redirect). The browser sends its
   * context's address header to every origin, so only its own requests count: the port came free
   * from the machine, and a request another process meant for whoever held it before (a webhook's
   * retry, a page's reconnect) is none of this flow's callbacks.
   */
  async function pageFor(app, options = {}) {
    const address = `192.0.2.${++addresses}`;
    const callbacks = [];
    const others = [];
    const receiver = createServer((req, res) => {
      if (req.headers["cf-connecting-ip"] !== address)
        others.push(`${req.method} ${req.url} (${req.headers["cf-connecting-ip"] ?? "no address"})`);
      // The browser asks this origin for its favicon too.
      else if (!req.url.startsWith("/favicon")) callbacks.push(new URL(req.url, app.redirectUri));
      res.writeHead(200, { "Content-Type": "text/plain" }).end("back at the integrator");
    });
    await new Promise((resolve) => receiver.listen(app.port, "127.0.0.1", resolve));
    const context = await newContext({ viewport: { width: 800, height: 760 }, ...options }, address);
    const page = await context.newPage();
    const close = async () => {
      await context.close();
      await new Promise((resolve) => receiver.close(resolve));
    };
    return { page, callbacks, others, close };
  }

  /** Signs in with the keyboard alone: Tab to each field, type, Enter. */
  async function signInByKeyboard(page, username, password) {
    await tabTo(page, (f) => f.name === "username", "the username field");
    await page.keyboard.type(username);
    await tabTo(page, (f) => f.name === "password", "the password field");
    await page.keyboard.type(password);
    await page.keyboard.press("Enter");
  }

  /** The whole flow in the browser; answers the callback URL the browser was sent to. */
  async function connect(app, { decision = "Allow", extra = {} } = {}) {
    const { url, verifier, state } = await authorizeUrl(app, extra);
    const { page, callbacks, others, close } = await pageFor(app);
    await page.goto(url.href);
    await signInByKeyboard(page, restaurant.username, RESTAURANT_PASSWORD);
    await page.waitForURL(/\/authorize\/consent$/);
    await tabTo(page, (f) => f.tag === "button" && f.label === decision, `the ${decision} button`);
    await page.keyboard.press("Enter");
    await page.waitForURL(`http://127.0.0.1:${app.port}/**`);
    await close();
    // One consent, one visit of the redirect_uri, with this flow's state.
    const seen = { callbacks: callbacks.map(String), others };
    if (others.length) console.log(`not this browser's, so not counted: ${JSON.stringify(seen)}`);
    assert.equal(callbacks.length, 1, JSON.stringify(seen));
    assert.equal(callbacks[0].origin + callbacks[0].pathname, app.redirectUri, JSON.stringify(seen));
    assert.equal(callbacks[0].searchParams.get("state"), state, JSON.stringify(seen));
    return { callback: callbacks[0], verifier, state };
  }

  async function tokensFor(app) {
    const { callback, verifier, state } = await connect(app);
    const params = oauth.validateAuthResponse(as, app.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      app.client,
      app.auth,
      params,
      app.redirectUri,
      verifier,
      local,
    );
    return oauth.processAuthorizationCodeResponse(as, app.client, response);
  }

  const api = (token, path, init = {}) =>
    fetch(`${server.url}/api/v2${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        Property: String(restaurant.property_id),
        "Content-Type": "application/json",
        ...init.headers,
      },
    });

  /** The OAuth error of a token request that must fail. */
  async function oauthError(promise) {
    try {
      await promise;
    } catch (err) {
      return err.error ?? err.code;
    }
    assert.fail("the request succeeded");
  }

  before(async () => {
    build();
    await migrate(STATE);
    server = await startDevOnFreePort({ persistTo: STATE, vars: { OPS_TOKEN } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    local = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(`${server.url}/auth/api/v2`);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...local }),
    );
  });

  // A restaurant per test: sign-ins are limited per username too.
  beforeEach(async () => {
    restaurant = await createRestaurant(server.url, { name: "Trattoria Connessa" });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(STATE, { recursive: true, force: true });
  });

  it("runs the README's oauth4webapi client: the restaurant signs in and allows with the keyboard", async () => {
    const readme = readFileSync(join(ROOT, "docs", "oauth.md"), "utf8");
    const code = readme
      .split("<!-- oauth-client:begin -->")[1]
      ?.split("<!-- oauth-client:end -->")[0]
      ?.replace(/^```\w*\n/m, "")
      .replace(/```\s*$/m, "");
    assert.ok(code, "README has the oauth-client block");
    const app = await integrator("My POS");
    // Inside the project, so the example finds oauth4webapi as a reader's project would.
    const file = join(ARTIFACTS, `oauth-client-${app.port}.mjs`);
    writeFileSync(file, code);
    const child = spawn(process.execPath, [file], {
      env: {
        ...process.env,
        BASE: server.url,
        PORT: String(app.port),
        CLIENT_ID: app.client.client_id,
        CLIENT_SECRET: app.secret,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!/\/authorize\?\S+/.test(out) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const url = out.match(/http\S+\/authorize\?\S+/)?.[0];
      assert.ok(url, `the example printed no address:\n${out}`);
      const context = await newContext({ viewport: { width: 640, height: 720 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(url);
      // README's picture, refreshed on demand (SCREENSHOTS=1): a test run leaves the checkout clean
      if (process.env.SCREENSHOTS) await page.screenshot({ path: SCREENSHOT });
      await signInByKeyboard(page, restaurant.username, RESTAURANT_PASSWORD);
      await page.waitForURL(/\/authorize\/consent$/);
      assert.match(await page.locator("h1").innerText(), /Allow My POS to work with Trattoria Connessa\?/);
      await tabTo(page, (f) => f.tag === "button" && f.label === "Allow", "Allow");
      await page.keyboard.press("Enter");
      // The example's own server answers the callback.
      await page.waitForURL(`http://127.0.0.1:${app.port}/callback?**`);
      assert.match(await page.locator("body").innerText(), /you can close this tab/);
      await context.close();
      assert.equal(await exited, 0, out);
      assert.match(
        out,
        new RegExp(`connected to property ${restaurant.property_id}; its rooms: Sala, Terrazza`),
      );
      assert.match(out, new RegExp(`refreshed for property ${restaurant.property_id}`));
    } finally {
      child.kill();
      rmSync(file, { force: true });
    }
  });

  it("approves: tokens for that restaurant only, property_ids, and the client's own token reaches it too", async () => {
    const app = await integrator();
    const tokens = await tokensFor(app);
    assert.deepEqual(tokens.property_ids, [restaurant.property_id]);
    assert.equal(tokens.token_type.toLowerCase(), "bearer");
    assert.equal((await api(tokens.access_token, "/rooms")).status, 200);
    const listed = await (await api(tokens.access_token, "/properties")).json();
    assert.deepEqual(
      listed.data.map((p) => p.id),
      [restaurant.property_id],
    );
  });

  it("denies: the integrator gets access_denied and its state", async () => {
    const app = await integrator();
    const { callback, state } = await connect(app, { decision: "Deny" });
    assert.equal(callback.searchParams.get("error"), "access_denied");
    assert.equal(callback.searchParams.get("state"), state);
    assert.throws(
      () => oauth.validateAuthResponse(as, app.client, callback, state),
      (err) => err.error === "access_denied",
    );
  });

  it("answers a wrong password as a wrong username, on the same page, never redirecting", async () => {
    const app = await integrator();
    const { url } = await authorizeUrl(app);
    const { page, callbacks, close } = await pageFor(app);
    const attempt = async (username, password) => {
      await page.goto(url.href);
      await signInByKeyboard(page, username, password);
      await page.waitForSelector("[role=alert]");
      return {
        alert: await page.locator("[role=alert]").innerText(),
        path: new URL(page.url()).pathname,
        focus: await focused(page),
      };
    };
    const wrongPassword = await attempt(restaurant.username, "not-the-password");
    const wrongUser = await attempt("nobody-by-this-name", RESTAURANT_PASSWORD);
    assert.deepEqual(wrongPassword, wrongUser);
    assert.match(wrongPassword.alert, /username or the password is not right/);
    // The keyboard user lands on the password field again.
    assert.equal(wrongPassword.focus.name, "password");
    assert.deepEqual(callbacks, []);
    await close();
  });

  it("never redirects for an unknown client or another redirect_uri: an error page", async () => {
    const app = await integrator();
    for (const extra of [
      { client_id: "ci_not_a_client_at_all" },
      { redirect_uri: `http://127.0.0.1:${app.port}/elsewhere` },
    ]) {
      const { url } = await authorizeUrl(app, extra);
      const { page, callbacks, close } = await pageFor(app);
      const res = await page.goto(url.href);
      assert.equal(res.status(), 400);
      assert.match(await page.locator("h1").innerText(), /cannot connect an app/);
      assert.equal(await page.locator("form").count(), 0);
      assert.deepEqual(callbacks, []);
      await close();
    }
  });

  it("refuses a missing or wrong code_verifier, then a code used twice (and revokes what it gave)", async () => {
    const app = await integrator();
    const { callback, verifier, state } = await connect(app);
    const params = oauth.validateAuthResponse(as, app.client, callback, state);
    const exchange = (v) =>
      oauth
        .authorizationCodeGrantRequest(as, app.client, app.auth, params, app.redirectUri, v, local)
        .then((r) => oauth.processAuthorizationCodeResponse(as, app.client, r));
    assert.equal(await oauthError(exchange(oauth.nopkce)), "invalid_request");
    assert.equal(await oauthError(exchange(oauth.generateRandomCodeVerifier())), "invalid_grant");
    const tokens = await exchange(verifier);
    assert.equal((await api(tokens.access_token, "/rooms")).status, 200);
    assert.equal(await oauthError(exchange(verifier)), "invalid_grant");
    assert.equal((await api(tokens.access_token, "/rooms")).status, 401);
  });

  it("rotates refresh tokens and revokes the family when a spent one comes back", async () => {
    const app = await integrator();
    const first = await tokensFor(app);
    const refresh = (token) =>
      oauth
        .refreshTokenGrantRequest(as, app.client, app.auth, token, local)
        .then((r) => oauth.processRefreshTokenResponse(as, app.client, r));
    const second = await refresh(first.refresh_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.deepEqual(second.property_ids, [restaurant.property_id]);
    assert.equal((await api(second.access_token, "/rooms")).status, 200);
    assert.equal(await oauthError(refresh(first.refresh_token)), "invalid_grant");
    assert.equal(await oauthError(refresh(second.refresh_token)), "invalid_grant");
    assert.equal((await api(second.access_token, "/rooms")).status, 401);
  });

  it("revokes a refresh token (RFC 7009) with its access tokens", async () => {
    const app = await integrator();
    const tokens = await tokensFor(app);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, app.client, app.auth, tokens.refresh_token, local),
    );
    assert.equal((await api(tokens.access_token, "/rooms")).status, 401);
    const again = oauth
      .refreshTokenGrantRequest(as, app.client, app.auth, tokens.refresh_token, local)
      .then((r) => oauth.processRefreshTokenResponse(as, app.client, r));
    assert.equal(await oauthError(again), "invalid_grant");
  });

  it("disconnects an app from the connected-apps page: its tokens are refused and its subscriptions gone", async () => {
    const app = await integrator("Disconnect Me");
    const tokens = await tokensFor(app);
    const sub = await api(tokens.access_token, "/webhooks/subscription", {
      method: "POST",
      body: JSON.stringify({ endpoint: "http://localhost:9/hook", webhook_type: "RESERVATION_CREATED" }),
    });
    assert.equal(sub.status, 201);
    const subscription = (await sub.json()).data[0];
    const own = await oauth.processClientCredentialsResponse(
      as,
      app.client,
      await oauth.clientCredentialsGrantRequest(as, app.client, app.auth, new URLSearchParams(), local),
    );
    assert.equal((await api(own.access_token, `/webhooks/subscription/${subscription.id}`)).status, 200);

    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}${AUTH}/connected-apps`);
    await signInByKeyboard(page, restaurant.username, RESTAURANT_PASSWORD);
    await page.waitForSelector("text=Disconnect Me");
    // Its own button, named after it for a screen reader.
    await tabTo(
      page,
      (f) => f.tag === "button" && f.aria === "Disconnect Disconnect Me",
      "Disconnect Disconnect Me",
      60,
    );
    await page.keyboard.press("Enter");
    await page.waitForSelector("[role=status]");
    assert.match(await page.locator("[role=status]").innerText(), /Disconnect Me is disconnected/);
    await context.close();

    assert.equal((await api(tokens.access_token, "/rooms")).status, 401);
    assert.equal((await api(own.access_token, "/rooms")).status, 403);
    assert.equal((await api(own.access_token, `/webhooks/subscription/${subscription.id}`)).status, 404);
    const refresh = oauth
      .refreshTokenGrantRequest(as, app.client, app.auth, tokens.refresh_token, local)
      .then((r) => oauth.processRefreshTokenResponse(as, app.client, r));
    assert.equal(await oauthError(refresh), "invalid_grant");
  });

  it("npm run ops -- revoke-grant ends the app's tokens there and deletes its subscriptions, through the operator door", async () => {
    const app = await integrator("Revoked By Ops");
    const tokens = await tokensFor(app);
    const sub = await api(tokens.access_token, "/webhooks/subscription", {
      method: "POST",
      body: JSON.stringify({ endpoint: "http://localhost:9/hook", webhook_type: "RESERVATION_CREATED" }),
    });
    assert.equal(sub.status, 201);
    const subscription = (await sub.json()).data[0];
    const own = await oauth.processClientCredentialsResponse(
      as,
      app.client,
      await oauth.clientCredentialsGrantRequest(as, app.client, app.auth, new URLSearchParams(), local),
    );

    const port = new URL(server.url).port;
    const ops = await run(
      process.execPath,
      [
        join(ROOT, "scripts", "ops.mjs"),
        "revoke-grant",
        app.client.client_id,
        String(restaurant.property_id),
      ],
      {
        env: { ...process.env, PORT: port, OPS_TOKEN },
        encoding: "utf8",
      },
    );
    assert.equal(ops.status, 0, ops.stderr);
    assert.match(
      ops.stdout,
      new RegExp(
        `no longer acts on property ${restaurant.property_id}: \\d+ access and 1 refresh token\\(s\\) revoked, 1 webhook subscription\\(s\\) deleted`,
      ),
    );

    assert.equal((await api(tokens.access_token, "/rooms")).status, 401);
    assert.equal((await api(own.access_token, "/rooms")).status, 403);
    assert.equal((await api(own.access_token, `/webhooks/subscription/${subscription.id}`)).status, 404);
    const again = await run(
      process.execPath,
      [
        join(ROOT, "scripts", "ops.mjs"),
        "revoke-grant",
        app.client.client_id,
        String(restaurant.property_id),
      ],
      {
        env: { ...process.env, PORT: port, OPS_TOKEN },
        encoding: "utf8",
      },
    );
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /had no grant on property/);
  });

  for (const locale of ["en", "it"]) {
    it(`passes axe on every page of the flow, in ${locale}`, async () => {
      const app = await integrator(`Axe ${locale}`);
      const check = async (page, what) =>
        assert.deepEqual(await axeViolations(page), [], `${what} (${locale})`);
      // axe is injected as an inline script, which the pages' CSP forbids: this context ignores CSP.
      const context = await newContext({ locale, bypassCSP: true });
      const page = await context.newPage();
      await page.route(`http://127.0.0.1:${app.port}/**`, (route) =>
        route.fulfill({ status: 200, body: "ok" }),
      );

      const { url } = await authorizeUrl(app, { ui_locales: locale });
      await page.goto(url.href);
      assert.equal(await page.getAttribute("html", "lang"), locale);
      await check(page, "sign-in");
      await signInByKeyboard(page, restaurant.username, "wrong-password");
      await page.waitForSelector("[role=alert]");
      await check(page, "sign-in with an error");
      await page.fill("#password", RESTAURANT_PASSWORD);
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/authorize\/consent$/);
      await check(page, "consent");
      await page.goto(`${server.url}${AUTH}/authorize?client_id=ci_nobody&ui_locales=${locale}`);
      await check(page, "error page");

      await page.goto(`${server.url}${AUTH}/connected-apps?locale=${locale}`);
      await check(page, "connected apps: sign-in");
      await signInByKeyboard(page, restaurant.username, RESTAURANT_PASSWORD);
      await page.waitForSelector(".apps");
      await check(page, "connected apps: the list");
      await context.close();
    });
  }
});
