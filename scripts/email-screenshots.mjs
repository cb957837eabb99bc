// Screenshots of the emails for docs/messages.md: the HTML part of a few messages, rendered by the
// Worker's own modules (bundled here with esbuild) for a sample restaurant, shown in headless
// Chromium at a phone's width. Run: node scripts/email-screenshots.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { ROOT } from "./paths.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./setup.mjs";

const dir = mkdtempSync(join(tmpdir(), "email-shots-"));
const bundle = join(dir, "render.mjs");
await build({
  entryPoints: [join(ROOT, "worker/messages/render.ts")],
  bundle: true,
  format: "esm",
  platform: "node",
  outfile: bundle,
  logLevel: "error",
});
const { render } = await import(pathToFileURL(bundle).href);

const restaurant = {
  name: "Trattoria del Ponte",
  email: "ciao@ponte.example",
  phone: "+39 02 1234 5678",
  website: null,
  address: "Via Roma 1, 20121 Milano",
  city: "Milano",
  map: "https://www.google.com/maps/search/?api=1&query=Via%20Roma%201%2C%2020121%20Milano",
  timezone: "Europe/Rome",
  cancelNotice: 120,
  accent: "#7a1f3d",
  logo: null,
  offerMinutes: 15,
};
const guest = {
  first_name: "Giulia",
  last_name: "Bianchi",
  email: "giulia@example.com",
  phone: "+39 333 1234567",
};
const snapshot = (status, ics) => ({
  date: "2027-05-14",
  hour: "20:00:00",
  end: "2027-05-14T22:00:00",
  pax: 4,
  status,
  channel: "PLATFORM_BOOK",
  service_id: 1,
  guest,
  notes: null,
  ics,
});
const common = {
  sequence: 1,
  writtenAt: Date.parse("2027-05-01T09:00:00Z"),
  reservationId: 42,
  restaurant,
  service: "Cena",
  links: {
    manage: "https://book.example/p/pk/manage/tok?locale=en",
    calendar: "https://book.example/api/v2/public/pk/manage/tok/calendar.ics",
    book: "https://book.example/p/pk/book?locale=en&pax=4",
  },
  domain: "book.example",
  organizer: "bookings@book.example",
};
const shots = [
  [
    "email-confirmation.png",
    { template: "confirmation", recipient: "guest", locale: "en", snapshot: snapshot("ACCEPTED", "REQUEST") },
  ],
  [
    "email-cancellation.png",
    { template: "cancellation", recipient: "guest", locale: "it", snapshot: snapshot("CANCELLED", "CANCEL") },
  ],
  // a party waiting for any time from 20:00 to 21:30
  [
    "email-waiting.png",
    {
      template: "waiting",
      recipient: "guest",
      locale: "en",
      snapshot: { ...snapshot("WAITING", null), wait_until: "21:30:00" },
    },
  ],
  [
    "email-restaurant.png",
    {
      template: "restaurant_booking",
      recipient: "restaurant",
      locale: "en",
      snapshot: snapshot("ACCEPTED", null),
      request: {
        specialRequest: "A table by the window, please",
        occasion: "anniversary",
        allergies: "Tree nuts",
        tables: "T4",
      },
    },
  ],
];

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 }, deviceScaleFactor: 1 });
  for (const [file, input] of shots) {
    await page.setContent(render({ ...common, ...input }).html);
    await page.screenshot({ path: join(ROOT, "docs", file), fullPage: true });
    console.log(`docs/${file}`);
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
