// The widget embedded by a script tag on another origin, while it loads: what the guest sees
// before the restaurant's profile has come (the booking page's shape, not an empty box), and what
// the module asks for meanwhile (its page's chunks, its language's table and the first two weeks
// of times beside the profile, not after it). The profile's answer is held back by the browser
// until the test has looked. And the hosted booking page, whose head asks for the same times:
// the widget takes that answer instead of asking again.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { build, migrate, startDevOnFreePort } from "../../scripts/dev-server.mjs";
import { createRestaurant } from "../../scripts/restaurant.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { axeViolations } from "../support/axe.mjs";
import { TEST_CATALOG } from "../support/catalog.mjs";

const STATE = mkdtempSync(join(tmpdir(), "be-embed-e2e-"));

describe("the widget embedded on another origin, while it loads", () => {
  let server, restaurant, browser, host, origin;

  before(async () => {
    build();
    await migrate(STATE);
    server = await startDevOnFreePort({ persistTo: STATE });
    restaurant = await createRestaurant(server.url, { catalog: TEST_CATALOG, name: TEST_CATALOG.name });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // the restaurant's own site, in French, with nothing but the docs' two lines
    host = createServer((_req, res) => {
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(`<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Chez nous</title>
        <script type="module" src="${server.url}/widget/booking-engine.js"></script></head>
        <body><main><h1>Chez nous</h1><booking-engine property="${restaurant.public_key}"></booking-engine></main></body></html>`);
    });
    await new Promise((resolve) => host.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${host.address().port}`;
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => host?.close(resolve));
    rmSync(STATE, { recursive: true, force: true });
  });

  it("shows the booking page's shape and asks for its page, its language's table and its first times before the profile answers", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const profile = `/api/v2/public/${restaurant.public_key}`;
    await page.route(
      (url) => url.pathname === profile,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    try {
      await page.goto(origin);
      const skeleton = page.locator("booking-engine").locator('[part="skeleton"]');
      await skeleton.waitFor();
      assert.equal(await skeleton.getAttribute("role"), "status");
      assert.ok((await skeleton.boundingBox()).height > 200, "the placeholder keeps the page's room");
      assert.deepEqual(await axeViolations(page), []);
      // the French table and the booking page, asked for while the profile is still on its way
      await page.waitForFunction(
        () => performance.getEntriesByType("resource").some((e) => /\/widget\/locales\/fr-/.test(e.name)),
        null,
        { timeout: 10_000 },
      );
      assert.ok(
        asked.some((p) => /^\/widget\/pages\/book-page-[\w-]+\.js$/.test(p)),
        asked.join("\n"),
      );
      assert.ok(asked.includes(`${profile}/slots`), asked.join("\n"));
      const preloads = await page.$$eval('link[rel="modulepreload"]', (links) => links.map((l) => l.href));
      assert.ok(
        preloads.some((href) => href.startsWith(`${server.url}/widget/locales/fr-`)),
        preloads.join("\n"),
      );
    } finally {
      release();
    }
    await page.locator("booking-engine").locator('input[name="time"]').first().waitFor({ timeout: 30_000 });
    assert.equal(await page.locator("booking-engine").locator('[part="skeleton"]').count(), 0);
    assert.match(
      await page.locator("booking-engine").locator("h2").first().innerText(),
      /Réserver une table/,
    );
    // the times asked for beside the profile were the ones shown: no second request for them
    assert.equal(asked.filter((p) => p === `${profile}/slots`).length, 1, asked.join("\n"));
    await page.close();
  });

  it("on the hosted booking page, takes the times its head preloads rather than asking again", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const slots = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith("/slots")) slots.push(r.url());
    });
    await page.goto(`${server.url}/p/${restaurant.public_key}/book?locale=fr`);
    await page.locator("booking-engine").locator('input[name="time"]').first().waitFor({ timeout: 30_000 });
    assert.equal(slots.length, 1, slots.join("\n"));
    await page.close();
  });
});
