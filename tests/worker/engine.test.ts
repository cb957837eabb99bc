/** The availability engine on its own: no database, no HTTP (CONTRACT 5). */
import { describe, expect, it } from "vitest";
import {
  Availability,
  bestChoice,
  type Catalog,
  type EngineClosure,
  type EngineService,
  type EngineTable,
  type Hold,
  serviceGrid,
  stayMinutes,
} from "../../worker/availability/engine";
import { localMinutes } from "../../worker/lib/localtime";

const settings = {
  timezone: "UTC",
  average_stay: 60,
  turn_times: [] as { max_pax: number; minutes: number }[],
  slot_interval: 15,
  min_notice: 0,
  max_days_ahead: 90,
  max_online_pax: 10,
};

const table = (id: number, o: Partial<EngineTable> = {}): EngineTable => ({
  id,
  roomId: 1,
  name: `T${id}`,
  guestsMin: 1,
  guestsMax: 4,
  bookable: true,
  online: true,
  isGroup: false,
  memberIds: [],
  ...o,
});

const service = (o: Partial<EngineService> = {}): EngineService => ({
  id: 1,
  name: "Lunch",
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  startHour: "12:00:00",
  endHour: "14:00:00",
  slotInterval: null,
  averageStay: null,
  paxMin: 1,
  paxMax: null,
  online: true,
  enabled: true,
  validFrom: null,
  validTo: null,
  ...o,
});

function catalog(o: Partial<Catalog> = {}): Catalog {
  return {
    settings: { ...settings, ...(o.settings ?? {}) },
    rooms: o.rooms ?? [{ id: 1, name: "Main", bookable: true }],
    tables: o.tables ?? [table(1)],
    services: o.services ?? [service()],
    closures: o.closures ?? [],
  };
}

const DAY = "2030-06-12"; // a Wednesday, far from "now"
const at = (hour: string, date = DAY) => localMinutes(date, hour);
const hold = (tableId: number, start: string, minutes: number, reservationId = 100, date = DAY): Hold => ({
  reservationId,
  tableId,
  startMin: at(start, date),
  endMin: at(start, date) + minutes,
});
const NOW = Date.UTC(2030, 5, 1, 9, 0); // 11 days before DAY

describe("SPEC's example: a 60-minute reservation at 13:00", () => {
  const engine = new Availability(catalog(), [hold(1, "13:00", 60)], NOW);
  const t1 = table(1);

  it("occupies the table 13:00 to 14:00", () => {
    expect(engine.isFree(t1, at("13:00"), 60)).toBe(false);
    expect(engine.isFree(t1, at("13:59"), 60)).toBe(false);
  });

  it("makes the table unavailable from 12:00 (inclusive) for a 60-minute party", () => {
    expect(engine.isFree(t1, at("12:00"), 60)).toBe(false);
    expect(engine.isFree(t1, at("11:59"), 60)).toBe(true);
  });

  it("frees the table again at 14:00", () => {
    expect(engine.isFree(t1, at("14:00"), 60)).toBe(true);
  });

  it("lists the times accordingly", () => {
    const day = engine.daySlots(DAY, 2, [service({ startHour: "11:00:00", endHour: "14:00:00" })], false);
    const slots = day.available_services[0]!.available_slots;
    expect(slots).toContain("11:45:00");
    expect(slots).not.toContain("12:00:00");
    expect(slots).not.toContain("13:45:00");
    expect(slots).toContain("14:00:00");
  });
});

describe("back-to-back parties", () => {
  const engine = new Availability(catalog(), [hold(1, "19:00", 90)], NOW);

  it("seats the next party when the previous one leaves", () => {
    expect(engine.isFree(table(1), at("20:30"), 90)).toBe(true);
    expect(engine.isFree(table(1), at("20:29"), 90)).toBe(false);
  });

  it("refuses a party that would still sit when the next arrives", () => {
    expect(engine.isFree(table(1), at("17:29"), 90)).toBe(true);
    expect(engine.isFree(table(1), at("17:30"), 90)).toBe(false);
  });

  it("ignores the reservation being moved", () => {
    expect(engine.isFree(table(1), at("19:15"), 90, 100)).toBe(true);
  });
});

describe("group tables", () => {
  const a = table(1, { guestsMax: 2 });
  const b = table(2, { guestsMax: 2 });
  const c = table(3, { guestsMax: 2 });
  const ab = table(10, { isGroup: true, memberIds: [1, 2], guestsMax: 4 });
  const bc = table(11, { isGroup: true, memberIds: [2, 3], guestsMax: 4 });
  const tables = [a, b, c, ab, bc];

  it("a member's reservation blocks the group", () => {
    const engine = new Availability(catalog({ tables }), [hold(1, "20:00", 60)], NOW);
    expect(engine.isFree(ab, at("20:00"), 60)).toBe(false);
    expect(engine.isFree(bc, at("20:00"), 60)).toBe(true);
  });

  it("a group's reservation (held as the group and each member) blocks the members and overlapping groups", () => {
    const holds = [hold(10, "20:00", 60), hold(1, "20:00", 60), hold(2, "20:00", 60)];
    const engine = new Availability(catalog({ tables }), holds, NOW);
    expect(engine.isFree(a, at("20:00"), 60)).toBe(false);
    expect(engine.isFree(b, at("20:00"), 60)).toBe(false);
    expect(engine.isFree(bc, at("20:00"), 60)).toBe(false);
    expect(engine.isFree(c, at("20:00"), 60)).toBe(true);
  });

  it("best choice prefers a single table, then fewest empty seats, then the lowest id", () => {
    const big = table(4, { guestsMax: 6 });
    const four = table(5, { guestsMax: 4 });
    const four2 = table(6, { guestsMax: 4 });
    expect(bestChoice([ab, big, four2, four], 3)?.id).toBe(5);
    expect(bestChoice([ab, big], 4)?.id).toBe(4);
    expect(bestChoice([bc, ab], 4)?.id).toBe(10);
  });

  it("a spread best choice (a retry after losing a table) picks among the equally good tables only", () => {
    const big = table(4, { guestsMax: 6 });
    const four = table(5, { guestsMax: 4 });
    const four2 = table(6, { guestsMax: 4 });
    const four3 = table(7, { guestsMax: 4 });
    const offered = [ab, big, four3, four2, four];
    expect(bestChoice(offered, 3, 0)?.id).toBe(5);
    expect(bestChoice(offered, 3, 0.5)?.id).toBe(6);
    expect(bestChoice(offered, 3, 0.99)?.id).toBe(7);
    expect(bestChoice([ab, big], 4, 0.99)?.id).toBe(4);
  });

  it("a party too big for any single table gets the group", () => {
    const engine = new Availability(catalog({ tables }), [], NOW);
    const decision = engine.decide({ service: service(), date: DAY, start: at("12:00"), pax: 4, mode: "online" });
    expect(decision).toMatchObject({ ok: true });
    expect(decision.ok && decision.tables.map((t) => t.id)).toEqual([10]);
  });
});

describe("closures", () => {
  const tables = [table(1), table(2, { roomId: 2 }), table(10, { isGroup: true, memberIds: [1, 3] }), table(3)];
  const rooms = [
    { id: 1, name: "Inside", bookable: true },
    { id: 2, name: "Terrace", bookable: true },
  ];
  const closure: EngineClosure = { startDate: DAY, endDate: DAY, startHour: null, endHour: null, roomIds: null, tableIds: null, serviceIds: null };
  const engineWith = (c: Partial<typeof closure>) => new Availability(catalog({ tables, rooms, closures: [{ ...closure, ...c }] }), [], NOW);
  const openAt = (e: Availability, hour: string, date = DAY) =>
    e.freeTables({ pax: 2, start: at(hour, date), stay: 60, date, mode: "online", serviceId: 1 }).map((t) => t.id);

  it("a whole day closes every table that day only", () => {
    const e = engineWith({});
    expect(openAt(e, "12:00")).toEqual([]);
    expect(openAt(e, "12:00", "2030-06-13")).toEqual([1, 2, 10, 3]);
  });

  it("a time range closes [start_hour, end_hour)", () => {
    const e = engineWith({ startHour: "12:30:00", endHour: "13:30:00" });
    expect(openAt(e, "12:15")).toHaveLength(4);
    expect(openAt(e, "12:30")).toEqual([]);
    expect(openAt(e, "13:15")).toEqual([]);
    expect(openAt(e, "13:30")).toHaveLength(4);
  });

  it("a room closes only its tables", () => {
    expect(openAt(engineWith({ roomIds: [2] }), "12:00")).toEqual([1, 10, 3]);
  });

  it("one table closes that table and the groups it belongs to", () => {
    expect(openAt(engineWith({ tableIds: [1] }), "12:00")).toEqual([2, 3]);
  });

  it("a service closure leaves other services open", () => {
    const e = engineWith({ serviceIds: [2] });
    expect(openAt(e, "12:00")).toHaveLength(4);
  });

  it("out_of_order absent: closures are ignored in the listing (SPEC); true: closed times are disabled", () => {
    const e = engineWith({ startHour: "12:00:00", endHour: "12:30:00" });
    const ignored = e.daySlots(DAY, 2, [service()], false).available_services[0]!;
    expect(ignored.available_slots).toContain("12:00:00");
    expect(ignored.slots.every((s) => !s.disabled)).toBe(true);
    const honoured = e.daySlots(DAY, 2, [service()], true).available_services[0]!;
    expect(honoured.available_slots).not.toContain("12:00:00");
    expect(honoured.available_slots).toContain("12:30:00");
    expect(honoured.slots.find((s) => s.hour === "12:15:00")).toEqual({ hour: "12:15:00", disabled: true, free_tables: 0 });
    expect(honoured.slots.find((s) => s.hour === "12:30:00")?.disabled).toBe(false);
  });

  it("a time is disabled only when every table of every room is closed", () => {
    const e = engineWith({ roomIds: [1] });
    const honoured = e.daySlots(DAY, 2, [service()], true).available_services[0]!;
    expect(honoured.slots.every((s) => !s.disabled && s.free_tables === 1)).toBe(true);
  });
});

describe("stays and turn times", () => {
  const turn = { ...settings, turn_times: [{ max_pax: 2, minutes: 75 }, { max_pax: 6, minutes: 120 }] };
  it("uses the first turn-time rule the party fits", () => {
    expect(stayMinutes(1, turn)).toBe(75);
    expect(stayMinutes(2, turn)).toBe(75);
    expect(stayMinutes(3, turn)).toBe(120);
  });
  it("falls back to the service's, then the property's average stay", () => {
    expect(stayMinutes(7, turn, { averageStay: 150 })).toBe(150);
    expect(stayMinutes(7, turn, { averageStay: null })).toBe(60);
  });
  it("a longer stay blocks more of the evening", () => {
    const engine = new Availability(catalog({ settings: turn }), [hold(1, "13:00", 60)], NOW);
    // a party of 4 stays 120 minutes: 11:00 would still sit at 13:00
    const d = engine.decide({ service: service({ startHour: "11:00:00" }), date: DAY, start: at("11:00"), pax: 4, mode: "online" });
    expect(d).toMatchObject({ ok: false, refusal: "table_not_available" });
    const ok = engine.decide({ service: service({ startHour: "10:45:00" }), date: DAY, start: at("10:45"), pax: 4, mode: "online" });
    expect(ok).toMatchObject({ ok: true, stay: 120 });
  });
});

describe("daylight saving time", () => {
  const night = service({ startHour: "01:00:00", endHour: "04:00:00", slotInterval: 30 });
  const hours = (tz: string, date: string) => {
    const e = new Availability(catalog({ settings: { ...settings, timezone: tz, max_days_ahead: 3650 } }), [], Date.UTC(2026, 0, 1));
    return e.daySlots(date, 2, [night], false).available_services[0]!.slots.map((s) => s.hour);
  };

  it("Europe/Rome spring forward: 02:00-02:59 does not exist and is skipped", () => {
    expect(hours("Europe/Rome", "2026-03-29")).toEqual(["01:00:00", "01:30:00", "03:00:00", "03:30:00", "04:00:00"]);
  });

  it("Europe/Rome fall back: the repeated hour is offered once", () => {
    expect(hours("Europe/Rome", "2026-10-25")).toEqual(["01:00:00", "01:30:00", "02:00:00", "02:30:00", "03:00:00", "03:30:00", "04:00:00"]);
  });

  it("America/New_York spring forward and fall back", () => {
    expect(hours("America/New_York", "2026-03-08")).toEqual(["01:00:00", "01:30:00", "03:00:00", "03:30:00", "04:00:00"]);
    expect(hours("America/New_York", "2026-11-01")).toHaveLength(7);
  });

  it("a zone that changes its clocks at midnight skips 00:00-00:59 (America/Santiago)", () => {
    const midnight = service({ startHour: "00:00:00", endHour: "02:00:00", slotInterval: 30 });
    const e = new Availability(catalog({ settings: { ...settings, timezone: "America/Santiago", max_days_ahead: 3650 } }), [], Date.UTC(2026, 0, 1));
    const listed = e.daySlots("2026-09-06", 2, [midnight], false).available_services[0]!.slots.map((s) => s.hour);
    expect(listed).toEqual(["01:00:00", "01:30:00", "02:00:00"]);
  });

  it("a skipped time cannot be booked even by staff", () => {
    const e = new Availability(catalog({ settings: { ...settings, timezone: "Europe/Rome" } }), [], Date.UTC(2026, 0, 1));
    expect(e.checkTime(night, "2026-03-29", localMinutes("2026-03-29", "02:30"), 2, "staff")).toBe("booking_slot_not_available");
    expect(e.checkTime(night, "2026-03-29", localMinutes("2026-03-29", "03:00"), 2, "staff")).toBeUndefined();
  });

  it("a plain day has every grid time", () => {
    expect(serviceGrid(night, "2026-04-01", settings)).toHaveLength(7);
  });
});

describe("booking window in the property's zone, around midnight", () => {
  // 2026-06-01 03:30 UTC is 2026-05-31 23:30 in New York (EDT, UTC-4).
  const now = Date.UTC(2026, 5, 1, 3, 30);
  const allDay = service({ startHour: "00:00:00", endHour: "23:45:00" });
  const engine = new Availability(catalog({ settings: { ...settings, timezone: "America/New_York", min_notice: 60, max_days_ahead: 1 }, services: [allDay] }), [], now);
  const free = (date: string) => engine.daySlots(date, 2, [allDay], false).available_services[0]!.available_slots;

  it("today is the local date, and past times are gone", () => {
    expect(engine.today).toBe("2026-05-31");
    expect(free("2026-05-31")).toEqual([]);
  });

  it("min notice counts from the local now: 23:30 + 60 min = 00:30 tomorrow", () => {
    expect(free("2026-06-01").slice(0, 2)).toEqual(["00:30:00", "00:45:00"]);
  });

  it("max days ahead counts from the local today, not UTC's", () => {
    expect(free("2026-06-01").length).toBeGreaterThan(0);
    expect(free("2026-06-02")).toEqual([]);
  });

  it("staff may book inside the notice and the window", () => {
    expect(engine.checkTime(allDay, "2026-06-01", localMinutes("2026-06-01", "00:05"), 2, "staff")).toBeUndefined();
    expect(engine.checkTime(allDay, "2026-06-01", localMinutes("2026-06-01", "00:05"), 2, "online")).toBe("booking_slot_not_available");
  });
});

describe("channels and limits", () => {
  const tables = [table(1, { online: false }), table(2, { guestsMin: 3, guestsMax: 6 })];
  const engine = new Availability(catalog({ tables }), [], NOW);

  it("online bookings never get an offline table; staff may", () => {
    expect(engine.decide({ service: service(), date: DAY, start: at("12:00"), pax: 2, mode: "online" })).toMatchObject({ ok: false, refusal: "room_capacity_exceeded" });
    const staff = engine.decide({ service: service(), date: DAY, start: at("12:00"), pax: 2, mode: "staff" });
    expect(staff.ok && staff.tables[0]!.id).toBe(1);
  });

  it("guests_min keeps small parties off big tables", () => {
    const d = engine.decide({ service: service(), date: DAY, start: at("12:00"), pax: 3, mode: "online" });
    expect(d.ok && d.tables[0]!.id).toBe(2);
  });

  it("refuses parties above max_online_pax online, not for staff", () => {
    const big = new Availability(catalog({ tables: [table(3, { guestsMax: 20 })] }), [], NOW);
    expect(big.checkTime(service(), DAY, at("12:00"), 12, "online")).toBe("service_not_available");
    expect(big.checkTime(service(), DAY, at("12:00"), 12, "staff")).toBeUndefined();
  });

  it("off-grid times are online refusals, staff bookings within the service's hours", () => {
    expect(engine.checkTime(service(), DAY, at("12:05"), 2, "online")).toBe("booking_slot_not_available");
    expect(engine.checkTime(service(), DAY, at("12:05"), 2, "staff")).toBeUndefined();
    expect(engine.checkTime(service(), DAY, at("14:05"), 2, "staff")).toBe("booking_slot_not_available");
  });

  it("a service runs only on its weekdays and within its validity", () => {
    expect(engine.checkTime(service({ weekdays: [1] }), DAY, at("12:00"), 2, "online")).toBe("service_is_not_available");
    expect(engine.checkTime(service({ validTo: "2030-06-11" }), DAY, at("12:00"), 2, "online")).toBe("service_is_not_available");
    expect(engine.checkTime(service({ enabled: false }), DAY, at("12:00"), 2, "staff")).toBe("service_is_not_available");
  });

  it("explicit tables add their seats up", () => {
    const two = new Availability(catalog({ tables: [table(1, { guestsMax: 2 }), table(2, { guestsMax: 2 })] }), [], NOW);
    expect(two.decide({ service: service(), date: DAY, start: at("12:00"), pax: 4, mode: "staff", tableIds: [1, 2] })).toMatchObject({ ok: true });
    expect(two.decide({ service: service(), date: DAY, start: at("12:00"), pax: 5, mode: "staff", tableIds: [1, 2] })).toMatchObject({ ok: false, refusal: "room_capacity_exceeded" });
  });
});

describe("a slot shown is a slot bookable (property-based)", () => {
  it("every time listed with out_of_order=true is accepted by decide(), and every refused time is not listed", async () => {
    const { default: fc } = await import("fast-check");
    const tableArb = fc.record({ guestsMin: fc.integer({ min: 1, max: 3 }), extra: fc.integer({ min: 0, max: 5 }), online: fc.boolean(), bookable: fc.boolean(), room: fc.integer({ min: 1, max: 2 }) });
    const holdArb = fc.record({ table: fc.nat(5), hour: fc.integer({ min: 11, max: 15 }), minute: fc.constantFrom(0, 15, 30, 45), stay: fc.integer({ min: 15, max: 180 }) });
    const closureArb = fc.record({ from: fc.integer({ min: 11, max: 15 }), span: fc.integer({ min: 1, max: 3 }), table: fc.option(fc.nat(5), { nil: undefined }) });
    fc.assert(
      fc.property(
        fc.array(tableArb, { minLength: 1, maxLength: 6 }),
        fc.array(holdArb, { maxLength: 8 }),
        fc.array(closureArb, { maxLength: 2 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (specs, holdSpecs, closureSpecs, pax, roomBookable) => {
          const tables = specs.map((s, i) => table(i + 1, { guestsMin: s.guestsMin, guestsMax: s.guestsMin + s.extra, online: s.online, bookable: s.bookable, roomId: s.room }));
          if (tables.length >= 2) tables.push(table(10, { isGroup: true, memberIds: [1, 2], guestsMin: 1, guestsMax: tables[0]!.guestsMax + tables[1]!.guestsMax, roomId: tables[0]!.roomId }));
          const rooms = [{ id: 1, name: "A", bookable: true }, { id: 2, name: "B", bookable: roomBookable }];
          const holds = holdSpecs.map((h, i) => ({ reservationId: 100 + i, tableId: (h.table % tables.length) + 1, startMin: at(`${h.hour}:${String(h.minute).padStart(2, "0")}`), endMin: at(`${h.hour}:${String(h.minute).padStart(2, "0")}`) + h.stay }));
          const closures: EngineClosure[] = closureSpecs.map((c) => ({
            startDate: DAY, endDate: DAY, startHour: `${c.from}:00:00`, endHour: `${c.from + c.span}:00:00`, roomIds: null, tableIds: c.table === undefined ? null : [(c.table % tables.length) + 1], serviceIds: null,
          }));
          const lunch = service({ startHour: "11:00:00", endHour: "16:00:00" });
          const engine = new Availability(catalog({ tables, rooms, closures, services: [lunch] }), holds, NOW);
          const day = engine.daySlots(DAY, pax, [lunch], true).available_services[0]!;
          for (const slot of day.slots) {
            const decision = engine.decide({ service: lunch, date: DAY, start: at(slot.hour.slice(0, 5)), pax, mode: "online" });
            const listed = day.available_slots.includes(slot.hour);
            if (listed !== decision.ok) throw new Error(`${slot.hour}: listed ${listed}, decide ${JSON.stringify(decision)}`);
            if (decision.ok) expect(slot.free_tables).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
