// The console's staff end to end: a restaurant of this file's own on a real Worker (wrangler dev,
// local D1) and one Chromium. The owner adds a passkey with Chromium's virtual authenticator (CDP
// WebAuthn, so no device is needed), signs out and back in with it, and sees the staff and the
// audit, axe clean. PUBLIC_ORIGIN is http://localhost:<port>: WebAuthn takes a host name as the
// relying party, never an IP address.
// SCREENSHOTS=1 refreshes docs/console-staff-*.png and docs/console-audit-*.png.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { build, freePort, migrate, ROOT, startDev } from "../../scripts/dev-server.mjs";
import { createRestaurant, RESTAURANT_PASSWORD, request } from "../../scripts/restaurant.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { axeViolations } from "../support/axe.mjs";

const STATE = mkdtempSync(join(tmpdir(), "be-staff-e2e-"));
const SCREENSHOTS = !process.env.DEV_CLOCK && process.env.SCREENSHOTS;

describe("staff, passkeys and the audit in Chromium", () => {
  let server, origin, restaurant, browser, context, page, errors;
  const api = (path, o = {}) =>
    request(server.url, `/api/v2${path}`, {
      token: restaurant.token,
      property: restaurant.property_id,
      ...o,
    });

  before(async () => {
    build();
    await migrate(STATE);
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await startDev({ port, persistTo: STATE, vars: { PUBLIC_ORIGIN: origin } });
    restaurant = await createRestaurant(server.url, { name: "Trattoria Staff" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // axe is injected as an inline script, which the console's CSP forbids: this context ignores CSP.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(STATE, { recursive: true, force: true });
  });

  it("adds a passkey, signs out, and signs in with it alone", async () => {
    await page.goto(`${origin}/console/restaurant`);
    await page.locator('bc-sign-in input[name="username"]').fill(restaurant.username);
    await page.locator('bc-sign-in input[name="password"]').fill(RESTAURANT_PASSWORD);
    await page.locator("bc-sign-in button", { hasText: /^Sign in$/ }).click();
    await page.locator("bc-account-section h2").waitFor({ timeout: 20_000 });
    await page.locator("bc-account-section button", { hasText: "Add a passkey" }).click();
    await page.locator("bc-account-section button", { hasText: "Remove" }).waitFor({ timeout: 15_000 });
    await page.locator("booking-console header button", { hasText: "Sign out" }).click();
    await page.locator("bc-sign-in h1").waitFor();
    await page.locator("bc-sign-in button", { hasText: "Sign in with a passkey" }).click();
    await page.locator("booking-console header", { hasText: "Owner" }).waitFor({ timeout: 15_000 });
    assert.deepEqual(errors, []);
  });

  it("shows the staff and the audit, axe clean at 768 and 1280 px", async () => {
    for (const [email, role] of [
      ["bea.host@staff.example", "host"],
      ["carla.manager@staff.example", "manager"],
    ]) {
      const invited = await api(`/properties/${restaurant.property_id}/staff`, { body: { email, role } });
      assert.equal(invited.status, 201, JSON.stringify(invited.json));
    }
    const service = restaurant.services[0];
    assert.equal((await api(`/services/${service.id}`, { method: "PUT", body: { pax_min: 1 } })).status, 200);
    await page.goto(`${origin}/console/restaurant`);
    await page
      .locator("bc-staff-section th", { hasText: "bea.host@staff.example" })
      .waitFor({ timeout: 20_000 });
    await page.locator("bc-audit-section td", { hasText: "Service" }).first().waitFor({ timeout: 20_000 });
    for (const width of [768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(200);
      assert.deepEqual(await axeViolations(page), [], `axe at ${width} px`);
      if (SCREENSHOTS)
        for (const part of ["staff", "audit"])
          await page
            .locator(`bc-${part}-section`)
            .screenshot({ path: join(ROOT, "docs", `console-${part}-${width}.png`) });
    }
    assert.deepEqual(errors, []);
  });
});
