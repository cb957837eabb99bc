// The emails' HTML on a phone: each message, rendered by the Worker's own modules (bundled here
// with esbuild) with long unbroken values (a guest's email address, a restaurant's name), shown
// in Chromium 375 px wide, fits without scrolling sideways.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { ROOT } from "../../scripts/dev-server.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";

const PHONE = 375;
const dir = mkdtempSync(join(tmpdir(), "email-layout-"));

const restaurant = {
  name: "Trattoria del Ponte Vecchio sul Naviglio Grande",
  email: "prenotazioni.trattoriadelpontevecchio@ristoranti-milanesi.example",
  phone: "+39 02 1234 5678",
  website: null,
  address: "Alzaia Naviglio Grande 12, 20144 Milano",
  map: "https://www.google.com/maps/search/?api=1&query=Alzaia%20Naviglio%20Grande%2012",
  city: "Milano",
  timezone: "Europe/Rome",
  cancelNotice: 120,
  accent: "#7a1f3d",
  logo: null,
  offerMinutes: 15,
};
const snapshot = (status) => ({
  date: "2027-05-14",
  hour: "20:00:00",
  end: "2027-05-14T22:00:00",
  pax: 4,
  status,
  channel: "PLATFORM_BOOK",
  service_id: 1,
  guest: {
    first_name: "Giulia",
    last_name: "Bianchi",
    email: "giulia.bianchi.maria.francesca.longaddress@a-very-long-mail-provider.example",
    phone: "+39 333 1234567",
  },
  notes: null,
  ics: null,
  before: { date: "2027-05-13", hour: "19:30:00", pax: 2 },
  offer: { nonce: "n", expires_at: "2027-05-14T17:45:00.000Z" },
});

describe("an email's HTML at a phone's width", () => {
  let render;
  let browser;
  before(async () => {
    const bundle = join(dir, "render.mjs");
    await build({
      entryPoints: [join(ROOT, "worker/messages/render.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      outfile: bundle,
      logLevel: "error",
    });
    ({ render } = await import(pathToFileURL(bundle).href));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [template, recipient, status] of [
    ["restaurant_booking", "restaurant", "ACCEPTED"],
    ["restaurant_change", "restaurant", "ACCEPTED"],
    ["restaurant_cancellation", "restaurant", "CANCELLED"],
    ["confirmation", "guest", "ACCEPTED"],
    ["offer", "guest", "WAITING"],
  ])
    it(`${template} fits in ${PHONE} px, a long email address wrapped`, async () => {
      const { html } = render({
        template,
        recipient,
        locale: "en",
        snapshot: snapshot(status),
        sequence: 1,
        writtenAt: Date.parse("2027-05-01T09:00:00Z"),
        reservationId: 42,
        restaurant,
        service: "Cena",
        links: { manage: "https://book.example/p/pk/manage/tok?locale=en", offer: "https://book.example/o" },
        request: { specialRequest: null, occasion: null, allergies: null, tables: "T4" },
        domain: "book.example",
        organizer: "bookings@book.example",
      });
      const page = await browser.newPage({ viewport: { width: PHONE, height: 800 } });
      await page.setContent(html);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      await page.close();
      assert.ok(width <= PHONE, `${template} is ${width} px wide`);
    });
});
