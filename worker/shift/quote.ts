/**
 * The walk-in waiting list's quoted wait: each party in the order it joined takes the earliest
 * time a table that seats it is free for its whole stay (the turn times), after what is seated and
 * booked and after the parties ahead of it. Pure: the handler gives it the day's holds and tables.
 */

/** A table a walk-in may take: a single table, or a group with its members. */
export interface QuoteTable {
  id: number;
  guestsMin: number;
  guestsMax: number;
  memberIds: number[];
}

/** A table held over [startMin, endMin) (local minutes): a seated party, a booking, a party ahead. */
export interface QuoteHold {
  tableId: number;
  startMin: number;
  endMin: number;
}

export interface QuoteInput {
  /** local minutes now */
  now: number;
  tables: QuoteTable[];
  holds: QuoteHold[];
  /** the parties waiting, first come first: their sizes */
  parties: number[];
  /** a party's stay in minutes */
  stay: (pax: number) => number;
}

/** Waits are quoted in steps of this many minutes, rounded up. */
export const QUOTE_STEP = 5;

/** Each party's wait in minutes (a multiple of QUOTE_STEP), or null where no table seats it. */
export function quoteWaits(input: QuoteInput): (number | null)[] {
  const holds = [...input.holds];
  return input.parties.map((pax) => {
    const fitting = input.tables.filter((t) => t.guestsMin <= pax && pax <= t.guestsMax);
    if (!fitting.length) return null;
    const stay = input.stay(pax);
    const pick = earliestSeat(fitting, holds, input.now, stay);
    for (const id of [pick.table.id, ...pick.table.memberIds])
      holds.push({ tableId: id, startMin: pick.start, endMin: pick.start + stay });
    return Math.ceil((pick.start - input.now) / QUOTE_STEP) * QUOTE_STEP;
  });
}

/** The earliest start from `now` at which one of the tables is free for `stay`; ties go to the smallest table. */
function earliestSeat(tables: QuoteTable[], holds: QuoteHold[], now: number, stay: number) {
  // A table frees up at now or at the end of some hold: those are the only starts worth trying.
  const starts = [now, ...holds.map((h) => h.endMin).filter((m) => m > now)].sort((a, b) => a - b);
  const bySize = [...tables].sort((a, b) => a.guestsMax - b.guestsMax || a.id - b.id);
  for (const start of starts) {
    const table = bySize.find((t) => isFree(t, holds, start, start + stay));
    if (table) return { table, start };
  }
  // Unreachable: the latest hold's end leaves every table free.
  throw new Error("no start found");
}

function isFree(table: QuoteTable, holds: QuoteHold[], start: number, end: number): boolean {
  const ids = new Set([table.id, ...table.memberIds]);
  return !holds.some((h) => ids.has(h.tableId) && h.startMin < end && start < h.endMin);
}
