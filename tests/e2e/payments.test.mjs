// A guest pays a deposit on the hosted pay page, in Chromium, against `npm start` (the real Worker
// and the local Stripe stand-in with its stand-in Stripe.js): a declined card said, another tried
// while the table waits, 3-D Secure failed then passed, and "confirmed" without a reload; the page's
// policy lets Stripe's script and frames in on that page only; axe finds nothing.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { axeViolations } from "../support/axe.mjs";
import { bannerField, npmStartOnFreePort, stopNpmStart } from "../support/npm-start.mjs";

const STATE = mkdtempSync(join(tmpdir(), "be-pay-"));
let server;
let url;
let key;
let browser;

before(async () => {
  server = await npmStartOnFreePort({ state: STATE });
  url = bannerField(server.out, "Ready in [\\d.]+ s on");
  key = /\/p\/(pk_[\w-]+)\/book/.exec(server.out)[1];
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  if (server) await stopNpmStart(server.child);
  rmSync(STATE, { recursive: true, force: true });
});

/** A guest's booking of the demo's tasting menu (a deposit of 20 EUR a guest from five guests), as the widget posts it. */
async function bookDeposit(pax = 5) {
  const api = `${url}/api/v2/public/${key}`;
  const service = (await (await fetch(`${api}/services`)).json()).data.find((s) => s.payment);
  assert.ok(service, `npm start made no service that asks a payment; its output:\n${server.out}`);
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const days = (
    await (await fetch(`${api}/slots?date=${from}&pax=${pax}&days=14&service_id=${service.id}`)).json()
  ).data;
  const day = days.find((d) => d.services[0]?.times.length);
  const res = await fetch(`${api}/reservations`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "cf-connecting-ip": `10.9.${pax}.${Math.floor(Math.random() * 250)}`,
    },
    body: JSON.stringify({
      service_id: service.id,
      date: day.date,
      hour: day.services[0].times[0].slice(0, 5),
      pax,
      guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    }),
  });
  assert.equal(res.status, 201);
  return (await res.json()).data[0];
}

async function typeCard(page, number) {
  const frame = page.frameLocator('iframe[title="Secure payment input frame"]');
  await frame.locator("#number").fill(number);
  await frame.locator("#expiry").fill("12/34");
  await frame.locator("#cvc").fill("123");
}

describe("the hosted pay page", () => {
  it("is accessible (axe), the card frame included", async () => {
    const booking = await bookDeposit();
    // axe is injected as a script, which the page's own policy refuses: a context that sets it aside.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(booking.manage_url.replace("/manage/", "/pay/"));
    await page.locator('booking-engine > [slot="payment"] iframe').waitFor();
    await page.locator("booking-engine").getByRole("button", { name: "Pay €100.00" }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  it("lets Stripe's script and frames in on the pay page only", async () => {
    const booking = await bookDeposit();
    const pay = await fetch(booking.manage_url.replace("/manage/", "/pay/"));
    const csp = pay.headers.get("content-security-policy");
    const stripe = new URL(bannerField(server.out, "local Stripe stand-in on")).origin;
    assert.match(csp, new RegExp(`script-src 'self' ${stripe}`));
    assert.match(csp, new RegExp(`frame-src ${stripe}`));
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(pay.headers.get("cache-control"), "no-store");
    const book = (await fetch(`${url}/p/${key}/book`)).headers.get("content-security-policy");
    assert.doesNotMatch(book, new RegExp(stripe));
  });

  it("says a decline, takes another card through 3-D Secure, and confirms without a reload", async () => {
    const booking = await bookDeposit();
    assert.equal(booking.status, "PREPAY");
    const page = await browser.newPage();
    let loads = 0;
    page.on("load", () => loads++);
    await page.goto(booking.manage_url.replace("/manage/", "/pay/"));
    const engine = page.locator("booking-engine");
    await engine.getByText("Deposit €100.00, taken now.").waitFor();
    // The card field is a light-DOM child of <booking-engine>, as Stripe's Elements require.
    assert.equal(await page.locator('booking-engine > [slot="payment"] iframe').count(), 1);

    await typeCard(page, "4000 0000 0000 9995");
    await engine.getByRole("button", { name: "Pay €100.00" }).click();
    await engine.locator("#failure").waitFor();
    assert.match(await engine.locator("#failure").textContent(), /insufficient funds.*Try another card/);

    await typeCard(page, "4000 0027 6000 3184");
    await engine.getByRole("button", { name: "Pay €100.00" }).click();
    await page
      .frameLocator('iframe[title="3D Secure authentication"]')
      .getByRole("button", { name: "Fail" })
      .click();
    await engine.locator("#failure").waitFor();
    assert.match(await engine.locator("#failure").textContent(), /unable to authenticate/);

    await engine.getByRole("button", { name: "Pay €100.00" }).click();
    await page
      .frameLocator('iframe[title="3D Secure authentication"]')
      .getByRole("button", { name: "Complete" })
      .click();
    await engine.getByRole("heading", { name: "Confirmed" }).waitFor({ timeout: 15_000 });
    assert.equal(loads, 1);

    const mine = (await (await fetch(`${url}/api/v2/public/${key}/manage/${booking.manage_token}`)).json())
      .data[0];
    assert.equal(mine.status, "ACCEPTED");
    assert.deepEqual(mine.payment.card, { brand: "visa", last4: "3184" });
    // Nothing is owed now: the pay step says so.
    assert.equal((await fetch(`${url}/api/v2/public/${key}/pay/${booking.manage_token}`)).status, 404);
    await page.close();
  });
});
