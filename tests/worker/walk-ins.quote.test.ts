/** The walk-in waiting list's quoted wait on its own: examples, then properties over random evenings. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QUOTE_STEP, type QuoteHold, type QuoteInput, quoteWaits } from "../../worker/shift/quote";

const NOW = 19 * 60;
const two = { id: 1, guestsMin: 1, guestsMax: 2, memberIds: [] };
const four = { id: 2, guestsMin: 1, guestsMax: 4, memberIds: [] };
const stay = (pax: number) => (pax <= 2 ? 60 : 90);
const quote = (o: Partial<QuoteInput>) =>
  quoteWaits({ now: NOW, tables: [two, four], holds: [], parties: [2], stay, ...o });

describe("quoted wait", () => {
  it("is nothing when a table that seats the party is free for its stay", () => {
    expect(quote({})).toEqual([0]);
  });

  it("waits for the seated party to leave, rounded up to the next 5 minutes", () => {
    const holds = [
      { tableId: 1, startMin: NOW - 40, endMin: NOW + 22 },
      { tableId: 2, startMin: NOW - 60, endMin: NOW + 31 },
    ];
    expect(quote({ holds })).toEqual([25]);
  });

  it("skips a table booked before the party's stay would end", () => {
    // table 1 is free now but booked at 19:30: a party of two staying 60 minutes cannot take it.
    const holds = [
      { tableId: 1, startMin: NOW + 30, endMin: NOW + 120 },
      { tableId: 2, startMin: NOW - 30, endMin: NOW + 45 },
    ];
    expect(quote({ holds })).toEqual([45]);
  });

  it("queues the parties ahead first, and answers null where no table seats a party", () => {
    expect(quote({ parties: [2, 2, 2, 9] })).toEqual([0, 0, 60, null]);
  });

  it("takes a group only when its members are free", () => {
    const group = { id: 3, guestsMin: 5, guestsMax: 6, memberIds: [1, 2] };
    const holds = [{ tableId: 2, startMin: NOW - 30, endMin: NOW + 50 }];
    expect(quote({ tables: [two, four, group], holds, parties: [6] })).toEqual([50]);
  });
});

const table = fc.record({
  id: fc.integer({ min: 1, max: 8 }),
  guestsMin: fc.constant(1),
  guestsMax: fc.integer({ min: 1, max: 8 }),
  memberIds: fc.constant([] as number[]),
});
const hold = fc
  .record({
    tableId: fc.integer({ min: 1, max: 8 }),
    startMin: fc.integer({ min: NOW - 180, max: NOW + 240 }),
  })
  .chain((h) => fc.integer({ min: 15, max: 180 }).map((d) => ({ ...h, endMin: h.startMin + d })));
const evening = fc.record({
  tables: fc.uniqueArray(table, { selector: (t) => t.id, minLength: 1, maxLength: 8 }),
  holds: fc.array(hold, { maxLength: 20 }),
  parties: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
});

describe("quoted wait, for any evening", () => {
  it("is null exactly where no table seats the party, else a whole number of steps", () => {
    fc.assert(
      fc.property(evening, (e) => {
        const waits = quoteWaits({ now: NOW, stay, ...e });
        waits.forEach((w, i) => {
          const seats = e.tables.some((t) => t.guestsMax >= e.parties[i]!);
          expect(w === null).toBe(!seats);
          if (w !== null) expect(w >= 0 && w % QUOTE_STEP === 0).toBe(true);
        });
      }),
    );
  });

  // The first party's wait only: a later party may rightly be quoted less when a party ahead of it
  // is pushed past a new hold, leaving that party's table free until then (found by this property).
  it("never shortens the first party's wait when more is held, nor when a party joins ahead", () => {
    fc.assert(
      fc.property(evening, hold, fc.integer({ min: 1, max: 8 }), (e, extra, ahead) => {
        const [first] = quoteWaits({ now: NOW, stay, ...e });
        if (first === null || first === undefined) return;
        const [busier] = quoteWaits({ now: NOW, stay, ...e, holds: [...e.holds, extra] });
        const [, behind] = quoteWaits({ now: NOW, stay, ...e, parties: [ahead, ...e.parties] });
        expect(busier!).toBeGreaterThanOrEqual(first);
        expect(behind!).toBeGreaterThanOrEqual(first);
      }),
      { numRuns: 500 },
    );
  });

  it("quotes a time at which some table that seats the party is really free for its stay", () => {
    fc.assert(
      fc.property(evening, (e) => {
        const [first] = quoteWaits({ now: NOW, stay, ...e, parties: [e.parties[0]!] });
        if (first === null || first === undefined) return;
        const pax = e.parties[0]!;
        // the exact start lies within one step before the quote
        const free = (start: number) =>
          e.tables.some(
            (t) =>
              t.guestsMax >= pax &&
              !e.holds.some(
                (h: QuoteHold) => h.tableId === t.id && h.startMin < start + stay(pax) && start < h.endMin,
              ),
          );
        const starts = [NOW, ...e.holds.map((h) => h.endMin)].filter(
          (m) => m >= NOW && m <= NOW + first && m > NOW + first - QUOTE_STEP - (first === 0 ? 1 : 0),
        );
        expect(starts.some(free)).toBe(true);
      }),
    );
  });
});
