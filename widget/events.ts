/** The events <booking-engine> fires for the host page: they bubble and cross shadow roots. */
import type { PublicReservation } from "./api.js";

export interface BookingCreatedDetail {
  /** the guest's reservation as booked (no manage token: that lives only in `manage_url`) */
  reservation: PublicReservation;
  /** the hosted page where the guest reads or cancels the reservation */
  manage_url: string;
}

export interface BookingCancelledDetail {
  reservation: PublicReservation;
}

/** Internal: a page asks <booking-engine> to show another page (does not leave the element). */
export interface NavigateDetail {
  page: "welcome" | "services" | "book" | "manage" | "offer" | "pay";
  serviceId?: number;
  /** the party size to keep (book again after cancelling) */
  pax?: number;
  /** the reservation to show (page manage, embedded) or to pay (page pay) */
  token?: string;
}

export const fire = <T>(target: EventTarget, type: string, detail: T, composed = true) =>
  target.dispatchEvent(new CustomEvent<T>(type, { detail, bubbles: true, composed }));

declare global {
  interface GlobalEventHandlersEventMap {
    "booking-created": CustomEvent<BookingCreatedDetail>;
    "booking-cancelled": CustomEvent<BookingCancelledDetail>;
    "booking-paid": CustomEvent<{ reservation_id: number }>;
    "be-navigate": CustomEvent<NavigateDetail>;
    "be-changed": CustomEvent<{ reservation: PublicReservation }>;
  }
}
