/**
 * Tables that seat a large party together, offered when booking: the restaurant's own groups
 * that fit, then runs of neighbouring tables of one room (neighbours in the room's table order)
 * whose seats add up. Pure.
 */
import type { Schema } from "../api.js";

type BookingRoom = Schema<"BookingRoom">;

export interface Combination {
  ids: number[];
  names: string[];
  room: string;
  seats: number;
  /** one of the restaurant's groups (the engine's own combination) */
  group: boolean;
}

/** The longest run of tables offered (a party of 20 on four tables is the staff's call to make). */
const MAX_RUN = 4;

type BookingTable = BookingRoom["tables"][number];
const open = (t: BookingTable) => t.free && !t.closed && t.bookable;

/** Combinations for `pax`, the fewest tables and fewest spare seats first. */
export function combinations(rooms: readonly BookingRoom[], pax: number): Combination[] {
  const out: Combination[] = [];
  for (const room of rooms) {
    for (const g of room.tables.filter(
      (t) => t.group && open(t) && t.guests_min <= pax && pax <= t.guests_max,
    ))
      out.push({ ids: [g.id], names: [g.name], room: room.name, seats: g.guests_max, group: true });
    const singles = room.tables.filter((t) => !t.group);
    for (let i = 0; i < singles.length; i++) {
      const run: BookingTable[] = [];
      for (let j = i; j < singles.length && run.length < MAX_RUN && open(singles[j]!); j++) {
        run.push(singles[j]!);
        const seats = run.reduce((n, t) => n + t.guests_max, 0);
        if (seats >= pax) {
          if (run.length > 1)
            out.push({
              ids: run.map((t) => t.id),
              names: run.map((t) => t.name),
              room: room.name,
              seats,
              group: false,
            });
          break;
        }
      }
    }
  }
  return out.sort((a, b) => a.ids.length - b.ids.length || a.seats - b.seats);
}
