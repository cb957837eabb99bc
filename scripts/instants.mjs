import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.mjs";

// The fixed instants at which `npm test` runs the browser suites again (after a run on the real
// clock): the Worker's clock (DEV_CLOCK) and the browser's stand at the instant, the restaurant
// is in Europe/Rome, and the browser sits in another zone, ahead of Rome or behind it.
export const INSTANTS = [
  {
    clock: "2026-11-23T12:51:00Z",
    zone: "Pacific/Kiritimati",
    what: "Monday 13:51 in Rome; browser 13 h ahead",
  },
  {
    clock: "2026-11-22T22:55:00Z",
    zone: "America/Los_Angeles",
    what: "Sunday 23:55 in Rome; browser 9 h behind",
  },
  {
    clock: "2026-12-31T22:59:00Z",
    zone: "Asia/Tokyo",
    what: "New Year's Eve 23:59 in Rome; browser already in 2027",
  },
  {
    clock: "2026-10-25T00:30:00Z",
    zone: "America/New_York",
    what: "02:30 CEST in Rome, first pass of the hour repeated at 03:00; browser behind",
  },
  {
    clock: "2026-10-25T01:30:00Z",
    zone: "Asia/Dubai",
    what: "02:30 CET in Rome, second pass of the repeated hour; browser ahead",
  },
  {
    clock: "2027-03-28T00:59:00Z",
    zone: "America/Sao_Paulo",
    what: "01:59 CET in Rome, a minute before 02:00 jumps to 03:00; browser behind",
  },
  {
    clock: "2027-03-28T01:01:00Z",
    zone: "Australia/Sydney",
    what: "03:01 CEST in Rome, just after the jump; browser ahead",
  },
];

/**
 * The component files run again at each instant: those whose answers depend on the day, the hour
 * or the zone. Not the message tables and the date grid's fixed months (locales, parts), nor the
 * console's views but the day's (today in the restaurant's zone): the others take their dates
 * from the address.
 */
export const TIMED_WIDGET_FILES = readdirSync(join(ROOT, "tests", "widget"))
  .filter((f) => f.endsWith(".test.ts") && !["locales.test.ts", "parts.test.ts"].includes(f))
  .filter((f) => !f.startsWith("console-") || f === "console-day.test.ts")
  .map((f) => join("tests", "widget", f));
