/**
 * Each page is a chunk of its own, loaded when shown: a guest who books never downloads the
 * services or manage page, one who manages never the booking flow, which keeps every first load
 * within budget (scripts/build-widget.mjs counts each page's chunks).
 */
import type { NavigateDetail } from "../events.js";

const define = (name: string, ctor: CustomElementConstructor) => {
  if (!customElements.get(name)) customElements.define(name, ctor);
};

const loaders: Record<NavigateDetail["page"], () => Promise<void>> = {
  welcome: async () => define("be-welcome-page", (await import("./welcome-page.js")).WelcomePage),
  book: async () => {
    const { BookPage, DateGrid } = await import("./book-page.js");
    define("be-date-grid", DateGrid);
    define("be-book-page", BookPage);
  },
  services: async () => {
    const { ServicesPage, PhotoCarousel } = await import("./services-page.js");
    define("be-carousel", PhotoCarousel);
    define("be-services-page", ServicesPage);
  },
  offer: async () => define("be-offer-page", (await import("./offer-page.js")).OfferPage),
  pay: async () => define("be-pay-page", (await import("./pay-page.js")).PayPage),
  manage: async () => {
    const [{ ManagePage }, { ManageChange }] = await Promise.all([
      import("./manage-page.js"),
      import("./manage-change.js"),
    ]);
    define("be-manage-change", ManageChange);
    define("be-manage-page", ManagePage);
  },
};

/** Defines the page's element (the page renders as soon as it is defined; Lit keeps the properties set before). */
export const definePage = (page: NavigateDetail["page"]): Promise<void> => (loaders[page] ?? loaders.book)();
