/** Defines <booking-engine> (and the pages it is made of); importing this module is embedding. */
import { BookingEngine } from "./booking-engine.js";
import type { BookPage } from "./pages/book-page.js";
import type { ManagePage } from "./pages/manage-page.js";
import type { OfferPage } from "./pages/offer-page.js";
import type { ServicesPage } from "./pages/services-page.js";
import type { WelcomePage } from "./pages/welcome-page.js";
import type { PhotoCarousel } from "./parts/carousel.js";
import type { DateGrid } from "./parts/date-grid.js";

// The pages (and their parts) are defined when first shown (pages/lazy.ts).
const elements: [string, CustomElementConstructor][] = [["booking-engine", BookingEngine]];
// A page that loads the script twice keeps the first definitions.
for (const [name, ctor] of elements) if (!customElements.get(name)) customElements.define(name, ctor);

// What several pages share stays in this module (exports are kept), so no page waits for a third file;
// what only a booking's summary needs (details, confirmation, manage and offer pages) is a chunk of
// its own, kept out of the booking page's first load.
export { fire } from "./events.js";
export { addDays, formatDate, formatTime } from "./format.js";
export { definePage } from "./pages/lazy.js";
export { choiceGroup, choiceStyles } from "./parts/choice.js";
export { callUs, contact } from "./parts/contact.js";
export { placeOf } from "./parts/place.js";
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
