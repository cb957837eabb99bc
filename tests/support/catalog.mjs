// The restaurant every browser test file builds for itself (scripts/restaurant.mjs): the demo's
// rooms and tables, both services on every weekday, in Europe/Rome, with notice and window set
// here rather than taken from the demo.
import { DEMO_CATALOG } from "../../scripts/restaurant.mjs";

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

export const TEST_CATALOG = {
  ...DEMO_CATALOG,
  name: "Trattoria Test",
  settings: {
    ...DEMO_CATALOG.settings,
    min_notice: 60,
    max_days_ahead: 60,
    cancel_notice: 120,
    max_online_pax: 8,
  },
  services: DEMO_CATALOG.services.map((s) => ({ ...s, weekdays: EVERY_DAY })),
};
