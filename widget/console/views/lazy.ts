/**
 * Each view is a chunk of its own, defined when first shown: the host stand that only works the
 * day never downloads the restaurant's settings (scripts/build-widget.mjs counts the first load).
 */
import type { View } from "../router.js";

const define = (name: string, ctor: CustomElementConstructor) => {
  if (!customElements.get(name)) customElements.define(name, ctor);
};

const loaders: Record<View, () => Promise<void>> = {
  day: async () => define("bc-day-view", (await import("./day-view.js")).DayView),
  timeline: async () => define("bc-timeline-view", (await import("./timeline-view.js")).TimelineView),
  new: async () => define("bc-new-view", (await import("./new-view.js")).NewView),
  reservation: async () =>
    define("bc-reservation-view", (await import("./reservation-view.js")).ReservationView),
  guest: async () => define("bc-guest-view", (await import("./guest-view.js")).GuestView),
  guests: async () => define("bc-guests-view", (await import("./guests-view.js")).GuestsView),
  restaurant: async () => define("bc-restaurant-view", (await import("./restaurant-view.js")).RestaurantView),
  waitlist: async () => define("bc-waitlist-view", (await import("./waitlist-view.js")).WaitlistView),
  floor: async () => define("bc-floor-view", (await import("./floor-view.js")).FloorView),
  sheet: async () => define("bc-sheet-view", (await import("./sheet-view.js")).SheetView),
  reports: async () => define("bc-reports-view", (await import("./reports-view.js")).ReportsView),
  "sign-in": async () => define("bc-sign-in", (await import("./sign-in.js")).SignIn),
  reset: async () => define("bc-sign-in", (await import("./sign-in.js")).SignIn),
  invite: async () => define("bc-sign-in", (await import("./sign-in.js")).SignIn),
};

/** Defines the view's element (it renders once defined; Lit keeps the properties set before). */
export const defineView = (view: View): Promise<void> => loaders[view]();
