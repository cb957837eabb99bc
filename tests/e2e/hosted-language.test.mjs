// The hosted pages in the guest's language, in Chromium on a real Worker (wrangler dev, local D1):
// an Italian phone gets Italian without ?locale=, the placeholder shown while the restaurant loads
// is in the page's language, and the language switch changes the page's language and nothing else.
// And on a slow network the booking page asks for the restaurant and its times while its script
// loads, once each.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { build } from "../../scripts/dev-server.mjs";
import { createRestaurant } from "../../scripts/restaurant.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { axeViolations } from "../support/axe.mjs";
import { TEST_CATALOG } from "../support/catalog.mjs";
import { holdWorker } from "../support/shared-worker.mjs";

/** The text of the page, the widget's shadow roots included. */
const deepText = (page) =>
  page.evaluate(() => {
    const text = (root) =>
      [...root.childNodes]
        .map((n) =>
          n.shadowRoot ? text(n.shadowRoot) : n.nodeType === 3 ? n.textContent : n.childNodes ? text(n) : "",
        )
        .join(" ");
    return text(document.body).replace(/\s+/g, " ");
  });

/** Waits until the widget shows its booking page's heading, in any language. */
const booked = (page) =>
  page.waitForFunction(
    () => {
      const find = (root) =>
        root.querySelector("be-book-page") ??
        [...root.querySelectorAll("*")].map((e) => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
      return find(document)?.shadowRoot?.querySelector("h2");
    },
    undefined,
    { timeout: 20_000 },
  );

describe("the hosted pages' language", () => {
  let server, restaurant, browser;

  before(async () => {
    build();
    // the browser suites' Worker, on the real clock
    server = await holdWorker();
    restaurant = await createRestaurant(server.url, { catalog: TEST_CATALOG, name: TEST_CATALOG.name });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await server?.release();
  });

  it("an Italian phone gets the booking page in Italian, without ?locale=", async () => {
    const context = await browser.newContext({ locale: "it-IT", viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/p/${restaurant.public_key}/book`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), "it");
    await booked(page);
    const text = await deepText(page);
    assert.match(text, /Prenota un tavolo/);
    assert.doesNotMatch(text, /Book a table/);
    await context.close();
  });

  it("shows the placeholder in the page's language while the restaurant loads", async () => {
    const context = await browser.newContext({ locale: "de-DE" });
    const page = await context.newPage();
    let release;
    const held = new Promise((r) => (release = r));
    // The restaurant's profile is slow to come: what does the guest see meanwhile?
    await page.route(`**/api/v2/public/${restaurant.public_key}?*`, async (route) => {
      await held;
      return route.continue();
    });
    await page.route(`**/api/v2/public/${restaurant.public_key}`, async (route) => {
      await held;
      return route.continue();
    });
    await page.goto(`${server.url}/p/${restaurant.public_key}/book`);
    await page.waitForFunction(() => customElements.get("booking-engine"));
    const status = page.getByRole("status");
    assert.equal((await status.innerText()).trim(), "Wird geladen…");
    assert.ok(await status.isVisible());
    assert.equal(await page.locator('text="Loading…" >> visible=true').count(), 0);
    release();
    await booked(page);
    await context.close();
  });

  it("asks for the restaurant and its first times while the script loads, and the widget takes those answers", async () => {
    const context = await browser.newContext({ locale: "en-GB" });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 400,
      downloadThroughput: 50_000,
      uploadThroughput: 50_000,
    });
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${server.url}/p/${restaurant.public_key}/book`);
    await booked(page);
    await page.waitForFunction(() =>
      performance.getEntriesByType("resource").some((e) => e.name.includes("/slots?")),
    );
    const profile = asked.filter((p) => p === `/api/v2/public/${restaurant.public_key}`);
    const slots = asked.filter((p) => p.endsWith("/slots"));
    assert.deepEqual([profile.length, slots.length], [1, 1], asked.join(" -> "));
    // Not after the page's code (the old chain: page -> script -> profile -> page code -> times).
    const pageCode = asked.findIndex((p) => p.startsWith("/widget/") && p !== "/widget/booking-engine.js");
    assert.ok(asked.indexOf(slots[0]) < pageCode, asked.join(" -> "));
    await context.close();
  });

  it("has a language switch that keeps the page and the party, and passes axe", async () => {
    // axe is injected as an inline script, which the page's CSP refuses.
    const context = await browser.newContext({ locale: "it-IT", bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/p/${restaurant.public_key}/book?pax=3`);
    await booked(page);
    const nav = page.getByRole("navigation", { name: "Lingua" });
    assert.equal(await nav.getByRole("link").count(), 5);
    await nav.getByRole("link", { name: "Deutsch" }).click();
    await page.waitForURL(/locale=de/);
    assert.equal(new URL(page.url()).searchParams.get("pax"), "3");
    assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
    await booked(page);
    assert.match(await deepText(page), /Tisch reservieren/);
    assert.equal(
      await page
        .getByRole("navigation", { name: "Sprache" })
        .getByRole("link", { name: "Deutsch" })
        .getAttribute("aria-current"),
      "true",
    );
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });
});
