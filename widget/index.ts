/** Defines <booking-engine> (and the pages it is made of); importing this module is embedding. */
import { BookingEngine } from "./booking-engine.js";
import { BookPage } from "./pages/book-page.js";
import { ManagePage } from "./pages/manage-page.js";
import { OfferPage } from "./pages/offer-page.js";
import { ServicesPage } from "./pages/services-page.js";
import { WelcomePage } from "./pages/welcome-page.js";
import { PhotoCarousel } from "./parts/carousel.js";
import { DateGrid } from "./parts/date-grid.js";

const elements: [string, CustomElementConstructor][] = [
  ["be-date-grid", DateGrid],
  ["be-carousel", PhotoCarousel],
  ["be-welcome-page", WelcomePage],
  ["be-services-page", ServicesPage],
  ["be-book-page", BookPage],
  ["be-manage-page", ManagePage],
  ["be-offer-page", OfferPage],
  ["booking-engine", BookingEngine],
];
// A page that loads the script twice keeps the first definitions.
for (const [name, ctor] of elements) if (!customElements.get(name)) customElements.define(name, ctor);

export { BookingEngine };

declare global {
  interface HTMLElementTagNameMap {
    "booking-engine": BookingEngine;
    "be-book-page": BookPage;
    "be-manage-page": ManagePage;
    "be-offer-page": OfferPage;
    "be-services-page": ServicesPage;
    "be-welcome-page": WelcomePage;
    "be-date-grid": DateGrid;
    "be-carousel": PhotoCarousel;
  }
}
