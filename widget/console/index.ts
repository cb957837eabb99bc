/** Defines <booking-console>; the views are defined when first shown (views/lazy.ts). */
import { BookingConsole } from "./booking-console.js";

if (!customElements.get("booking-console")) customElements.define("booking-console", BookingConsole);

export { BookingConsole };

declare global {
  interface HTMLElementTagNameMap {
    "booking-console": BookingConsole;
  }
}
