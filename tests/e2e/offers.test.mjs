// Waiting-list offers end to end, on a real Worker (wrangler dev, local D1) whose
// send_email binding is wrangler's own local simulation: each message is kept as an .eml file and
// its path logged. A guest cancels; the first party on the waiting list gets the offer by email;
// its link opens the hosted offer page in Chromium, where the guest claims the table; the
// integrator then reads the reservation ACCEPTED.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import PostalMime from "postal-mime";
import { build } from "../../scripts/dev-server.mjs";
import { createRestaurant, request } from "../../scripts/restaurant.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { holdWorker } from "../support/shared-worker.mjs";

/** One table of two, dinner every day: one booking fills a time. */
const CATALOG = {
  settings: {
    timezone: "Europe/Rome",
    locale: "en",
    average_stay: 60,
    slot_interval: 15,
    min_notice: 0,
    max_days_ahead: 60,
    cancel_notice: 0,
    max_online_pax: 4,
    offer_minutes: 30,
  },
  rooms: { Sala: [["S1", 1, 2]] },
  groups: [],
  services: [{ name: "Cena", start_hour: "19:00", end_hour: "21:00", weekdays: [1, 2, 3, 4, 5, 6, 7] }],
};

describe("a waiting-list offer, claimed from its email in Chromium", () => {
  let server, restaurant, browser;

  before(async () => {
    build();
    // the browser suites' Worker, on the real clock; it keeps the .eml file of each message
    server = await holdWorker();
    restaurant = await createRestaurant(server.url, { catalog: CATALOG, name: "Osteria Offerta" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await server?.release();
  });

  /** The emails the Worker sent to `address` so far, parsed with postal-mime. */
  const mails = async (address) =>
    Promise.all((await server.mails(address)).map((raw) => PostalMime.parse(raw)));

  async function mailTo(address, subject) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const hit = (await mails(address)).find((m) => subject.test(m.subject ?? ""));
      if (hit) return hit;
      if (Date.now() > deadline)
        throw new Error(
          `no email "${subject}" to ${address}; got ${(await mails(address)).map((m) => m.subject).join("; ")}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it("the first waiting party gets the offer and claims it from the link: ACCEPTED", async () => {
    const profile = (await request(server.url, `/api/v2/public/${restaurant.public_key}`)).json.data[0];
    const date =
      profile.first_date < profile.last_date
        ? new Date(Date.parse(profile.first_date) + 3 * 86_400_000).toISOString().slice(0, 10)
        : profile.first_date;
    const book = (first, email, waiting_list) =>
      request(server.url, `/api/v2/public/${restaurant.public_key}/reservations`, {
        body: {
          date,
          hour: "19:30",
          pax: 2,
          guest: { first_name: first, last_name: "Guest", email },
          waiting_list,
          locale: "en",
        },
      });
    const tag = Date.now().toString(36);
    const holder = await book("Holder", `holder-${tag}@example.com`, false);
    assert.equal(holder.status, 201, JSON.stringify(holder.json));
    const bea = await book("Bea", `bea-${tag}@example.com`, true);
    const carl = await book("Carl", `carl-${tag}@example.com`, true);
    assert.deepEqual([bea.json.data[0].status, carl.json.data[0].status], ["WAITING", "WAITING"]);
    // The holder's confirmation went out through the binding's local simulation.
    const confirmation = await mailTo(`holder-${tag}@example.com`, /^Your table at Osteria Offerta/);
    assert.ok(confirmation.attachments.some((a) => a.mimeType.startsWith("text/calendar")));

    const cancelled = await request(
      server.url,
      `/api/v2/public/${restaurant.public_key}/manage/${holder.json.data[0].manage_token}`,
      { method: "DELETE" },
    );
    assert.equal(cancelled.status, 200);
    const offer = await mailTo(`bea-${tag}@example.com`, /^A table is free at Osteria Offerta/);
    const link = offer.text.match(
      new RegExp(`${server.url}/p/${restaurant.public_key}/offer/[\\w-]+\\?locale=en`),
    )?.[0];
    assert.ok(link, `an offer link on ${server.url} in: ${offer.text}`);
    assert.equal(
      (await mails(`carl-${tag}@example.com`)).filter((m) => /A table is free/.test(m.subject ?? "")).length,
      0,
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(link);
    // Playwright's CSS locators go through open shadow roots.
    const claim = page.locator('[part~="claim"]');
    await claim.waitFor({ timeout: 20_000 });
    assert.match(await page.locator('[part~="offer"]').innerText(), /A table is free for you/);
    await claim.click();
    await page.locator('[part~="claimed"]').waitFor({ timeout: 20_000 });
    assert.deepEqual(errors, []);
    await context.close();

    // The integrator reads Bea's reservation: accepted, on the table the holder freed.
    const token = restaurant.token;
    const list = await request(
      server.url,
      `/api/v2/reservations?start_date=${date}&end_date=${date}&text_search=Bea`,
      { token, property: restaurant.property_id },
    );
    assert.equal(list.status, 200);
    assert.equal(list.json.data[0].status, "ACCEPTED");
    assert.equal(list.json.data[0].tables[0].name, "S1");
    // And Bea gets her confirmation, with the calendar entry.
    const accepted = await mailTo(`bea-${tag}@example.com`, /^Your table at Osteria Offerta/);
    assert.ok(accepted.attachments.some((a) => a.mimeType.startsWith("text/calendar")));
  });
});
