/**
 * The consoles' live feed: once a reservation's change has committed, the restaurant's object
 * (./restaurant.ts) tells every open console which reservation changed, on which day. It never
 * fails the change: a console that misses a message falls back to reading again.
 */
import { currentBackground } from "../lib/background";
import { restaurantObject } from "../lib/restaurant-object";
import type { ReservationReaction } from "../reservations/reactions";

/** What an open console hears. */
export type LiveMessage =
  | { type: "hello"; at: string }
  | { type: "reservation"; id: number; date: string; version: number }
  /** the walk-in waiting list changed: a console showing it reads it again */
  | { type: "walk-ins" };

export const liveReaction: ReservationReaction = {
  name: "the consoles' live feed",
  committed(change, row) {
    const background = currentBackground();
    if (!background?.env.RESTAURANT) return;
    const message: LiveMessage = {
      type: "reservation",
      id: row.id,
      date: row.startDate,
      version: change.version,
    };
    // the desk's bookings commit inside the restaurant's own object: a call to itself would be a round trip
    if (background.restaurant?.propertyId === row.propertyId)
      return void background.restaurant.announce(message);
    background.waitUntil(
      restaurantObject(background.env, row.propertyId)
        .announce(message)
        .catch((err: unknown) => console.warn("live feed: announce failed", err)),
    );
  },
};
