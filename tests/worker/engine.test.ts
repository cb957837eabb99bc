/** The availability engine on its own: no database, no HTTP. */
import { describe, expect, it } from "vitest";
import {
  Availability,
  bestChoice,
  type Catalog,
  type EngineClosure,
  type EngineService,
  type EngineTable,
  type Hold,
  listedDays,
  listingReach,
  pacingBucket,
  serviceDayOf,
  serviceGrid,
  stayMinutes,
} from "../../worker/availability/engine";
import { addDays, fromLocalMinutes, localMinutes } from "../../worker/lib/localtime";

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

describe("the API's example: a 60-minute reservation at 13:00", () => {
  const engine = new Availability(catalog(), [hold(1, "13:00", 60)], NOW);
  const t1 = table(1);

  it("occupies the table 13:00 to 14:00", () => {
    expect(engine.isFree(t1, at("13:00"), 60)).toBe(false);
    expect(engine.isFree(t1, at("13:59"), 60)).toBe(false);
  });

  it("makes the table unavailable after 12:00 for a 60-minute party: one at 12:00 leaves as it arrives", () => {
    expect(engine.isFree(t1, at("12:01"), 60)).toBe(false);
    expect(engine.isFree(t1, at("12:00"), 60)).toBe(true);
  });

  it("frees the table again at 14:00", () => {
    expect(engine.isFree(t1, at("14:00"), 60)).toBe(true);
  });

  it("lists the times accordingly", () => {
    const day = engine.daySlots(DAY, 2, [service({ startHour: "11:00:00", endHour: "14:00:00" })], false);
    const slots = day.available_services[0]!.available_slots;
    expect(slots).toContain("12:00:00");
    expect(slots).not.toContain("12:15:00");
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

  it("seats a party that leaves exactly when the next arrives, and refuses one a minute later", () => {
    expect(engine.isFree(table(1), at("17:30"), 90)).toBe(true);
    expect(engine.isFree(table(1), at("17:31"), 90)).toBe(false);
  });

  it("treats stays as half-open in either order: [20:00, 21:00) and [21:00, 22:00) do not clash", () => {
    const later = new Availability(catalog(), [hold(1, "21:00", 60)], NOW);
    const earlier = new Availability(catalog(), [hold(1, "20:00", 60)], NOW);
    expect(later.isFree(table(1), at("20:00"), 60)).toBe(true);
    expect(earlier.isFree(table(1), at("21:00"), 60)).toBe(true);
    expect(later.isFree(table(1), at("20:01"), 60)).toBe(false);
    expect(earlier.isFree(table(1), at("20:59"), 60)).toBe(false);
  });

  it("lists the same times as it decides, hold by hold: a grid start is held exactly when isFree says so", () => {
    const s = service({ startHour: "16:00:00", endHour: "23:00:00", slotInterval: 5 });
    const day = engine.daySlots(DAY, 2, [s], false).available_services[0]!;
    for (const slot of day.slots) {
      const start = at(slot.hour.slice(0, 5));
      expect(slot.free_tables > 0, slot.hour).toBe(engine.isFree(table(1), start, 60));
    }
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
    const decision = engine.decide({
      service: service(),
      date: DAY,
      start: at("12:00"),
      pax: 4,
      mode: "online",
    });
    expect(decision).toMatchObject({ ok: true });
    expect(decision.ok && decision.tables.map((t) => t.id)).toEqual([10]);
  });
});

describe("closures", () => {
  const tables = [
    table(1),
    table(2, { roomId: 2 }),
    table(10, { isGroup: true, memberIds: [1, 3] }),
    table(3),
  ];
  const rooms = [
    { id: 1, name: "Inside", bookable: true },
    { id: 2, name: "Terrace", bookable: true },
  ];
  const closure: EngineClosure = {
    startDate: DAY,
    endDate: DAY,
    startHour: null,
    endHour: null,
    roomIds: null,
    tableIds: null,
    serviceIds: null,
  };
  const engineWith = (c: Partial<typeof closure>) =>
    new Availability(catalog({ tables, rooms, closures: [{ ...closure, ...c }] }), [], NOW);
  const openAt = (e: Availability, hour: string, date = DAY) =>
    e
      .freeTables({ pax: 2, start: at(hour, date), stay: 60, date, mode: "online", serviceId: 1 })
      .map((t) => t.id);

  it("a whole day closes every table that day only", () => {
    const e = engineWith({});
    expect(openAt(e, "12:00")).toEqual([]);
    expect(openAt(e, "12:00", "2030-06-13")).toEqual([1, 2, 10, 3]);
  });

  it("a time range closes [start_hour, end_hour) to every stay that meets it (60 minutes here)", () => {
    const e = engineWith({ startHour: "12:30:00", endHour: "13:30:00" });
    expect(openAt(e, "11:30")).toHaveLength(4);
    expect(openAt(e, "11:45")).toEqual([]);
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

  it("out_of_order absent: closures are ignored in the listing; true: closed times are disabled", () => {
    const e = engineWith({ startHour: "12:00:00", endHour: "12:30:00" });
    const ignored = e.daySlots(DAY, 2, [service()], false).available_services[0]!;
    expect(ignored.available_slots).toContain("12:00:00");
    expect(ignored.slots.every((s) => !s.disabled)).toBe(true);
    const honoured = e.daySlots(DAY, 2, [service()], true).available_services[0]!;
    expect(honoured.available_slots).not.toContain("12:00:00");
    expect(honoured.available_slots).toContain("12:30:00");
    expect(honoured.slots.find((s) => s.hour === "12:15:00")).toEqual({
      hour: "12:15:00",
      disabled: true,
      free_tables: 0,
      reason: "closed",
    });
    expect(honoured.slots.find((s) => s.hour === "12:30:00")?.disabled).toBe(false);
  });

  it("a time is disabled only when every table of every room is closed", () => {
    const e = engineWith({ roomIds: [1] });
    const honoured = e.daySlots(DAY, 2, [service()], true).available_services[0]!;
    expect(honoured.slots.every((s) => !s.disabled && s.free_tables === 1)).toBe(true);
  });
});

describe("stays and turn times", () => {
  const turn = {
    ...settings,
    turn_times: [
      { max_pax: 2, minutes: 75 },
      { max_pax: 6, minutes: 120 },
    ],
  };
  it("uses the first turn-time rule the party fits", () => {
    expect(stayMinutes(1, turn)).toBe(75);
    expect(stayMinutes(2, turn)).toBe(75);
    expect(stayMinutes(3, turn)).toBe(120);
  });
  it("falls back to the service's, then the property's average stay", () => {
    expect(stayMinutes(7, turn, { averageStay: 150 })).toBe(150);
    expect(stayMinutes(7, turn, { averageStay: null })).toBe(60);
  });
  it("a listing reaches its services' last start plus the longest stay any party can have, and a clock change", () => {
    const dinner = { startHour: "19:00:00", endHour: "22:00:00", averageStay: null };
    // 22:00 + 120 minutes (the longest turn time) + 120
    expect(listingReach(turn, [dinner])).toBe(22 * 60 + 120 + 120);
    // past midnight: 01:30 of the next date; a service's own stay when it is the longest
    expect(
      listingReach(turn, [dinner, { startHour: "22:00:00", endHour: "01:30:00", averageStay: 200 }]),
    ).toBe(1440 + 90 + 200 + 120);
  });
  it("a longer stay blocks more of the evening", () => {
    const engine = new Availability(catalog({ settings: turn }), [hold(1, "13:00", 60)], NOW);
    // a party of 4 stays 120 minutes: 11:15 would still sit at 13:00; 11:00 leaves as the next arrives
    const d = engine.decide({
      service: service({ startHour: "11:15:00" }),
      date: DAY,
      start: at("11:15"),
      pax: 4,
      mode: "online",
    });
    expect(d).toMatchObject({ ok: false, refusal: "table_not_available" });
    const ok = engine.decide({
      service: service({ startHour: "11:00:00" }),
      date: DAY,
      start: at("11:00"),
      pax: 4,
      mode: "online",
    });
    expect(ok).toMatchObject({ ok: true, stay: 120 });
  });
});

describe("daylight saving time", () => {
  const night = service({ startHour: "01:00:00", endHour: "04:00:00", slotInterval: 30 });
  const hours = (tz: string, date: string) => {
    const e = new Availability(
      catalog({ settings: { ...settings, timezone: tz, max_days_ahead: 3650 } }),
      [],
      Date.UTC(2026, 0, 1),
    );
    return e.daySlots(date, 2, [night], false).available_services[0]!.slots.map((s) => s.hour);
  };

  it("Europe/Rome spring forward: 02:00-02:59 does not exist and is skipped", () => {
    expect(hours("Europe/Rome", "2026-03-29")).toEqual([
      "01:00:00",
      "01:30:00",
      "03:00:00",
      "03:30:00",
      "04:00:00",
    ]);
  });

  it("Europe/Rome fall back: the repeated hour is offered once", () => {
    expect(hours("Europe/Rome", "2026-10-25")).toEqual([
      "01:00:00",
      "01:30:00",
      "02:00:00",
      "02:30:00",
      "03:00:00",
      "03:30:00",
      "04:00:00",
    ]);
  });

  it("America/New_York spring forward and fall back", () => {
    expect(hours("America/New_York", "2026-03-08")).toEqual([
      "01:00:00",
      "01:30:00",
      "03:00:00",
      "03:30:00",
      "04:00:00",
    ]);
    expect(hours("America/New_York", "2026-11-01")).toHaveLength(7);
  });

  it("a zone that changes its clocks at midnight skips 00:00-00:59 (America/Santiago)", () => {
    const midnight = service({ startHour: "00:00:00", endHour: "02:00:00", slotInterval: 30 });
    const e = new Availability(
      catalog({ settings: { ...settings, timezone: "America/Santiago", max_days_ahead: 3650 } }),
      [],
      Date.UTC(2026, 0, 1),
    );
    const listed = e
      .daySlots("2026-09-06", 2, [midnight], false)
      .available_services[0]!.slots.map((s) => s.hour);
    expect(listed).toEqual(["01:00:00", "01:30:00", "02:00:00"]);
  });

  it("a skipped time cannot be booked even by staff", () => {
    const e = new Availability(
      catalog({ settings: { ...settings, timezone: "Europe/Rome" } }),
      [],
      Date.UTC(2026, 0, 1),
    );
    expect(e.checkTime(night, "2026-03-29", localMinutes("2026-03-29", "02:30"), 2, "staff")).toBe(
      "booking_slot_not_available",
    );
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
  const engine = new Availability(
    catalog({
      settings: { ...settings, timezone: "America/New_York", min_notice: 60, max_days_ahead: 1 },
      services: [allDay],
    }),
    [],
    now,
  );
  const free = (date: string) =>
    engine.daySlots(date, 2, [allDay], false).available_services[0]!.available_slots;

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
    expect(
      engine.checkTime(allDay, "2026-06-01", localMinutes("2026-06-01", "00:05"), 2, "staff"),
    ).toBeUndefined();
    expect(engine.checkTime(allDay, "2026-06-01", localMinutes("2026-06-01", "00:05"), 2, "online")).toBe(
      "booking_slot_not_available",
    );
  });
});

describe("channels and limits", () => {
  const tables = [table(1, { online: false }), table(2, { guestsMin: 3, guestsMax: 6 })];
  const engine = new Availability(catalog({ tables }), [], NOW);

  it("online bookings never get an offline table; staff may", () => {
    expect(
      engine.decide({ service: service(), date: DAY, start: at("12:00"), pax: 2, mode: "online" }),
    ).toMatchObject({ ok: false, refusal: "room_capacity_exceeded" });
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
    expect(engine.checkTime(service({ weekdays: [1] }), DAY, at("12:00"), 2, "online")).toBe(
      "service_is_not_available",
    );
    expect(engine.checkTime(service({ validTo: "2030-06-11" }), DAY, at("12:00"), 2, "online")).toBe(
      "service_is_not_available",
    );
    expect(engine.checkTime(service({ enabled: false }), DAY, at("12:00"), 2, "staff")).toBe(
      "service_is_not_available",
    );
  });

  it("explicit tables add their seats up", () => {
    const two = new Availability(
      catalog({ tables: [table(1, { guestsMax: 2 }), table(2, { guestsMax: 2 })] }),
      [],
      NOW,
    );
    expect(
      two.decide({
        service: service(),
        date: DAY,
        start: at("12:00"),
        pax: 4,
        mode: "staff",
        tableIds: [1, 2],
      }),
    ).toMatchObject({ ok: true });
    expect(
      two.decide({
        service: service(),
        date: DAY,
        start: at("12:00"),
        pax: 5,
        mode: "staff",
        tableIds: [1, 2],
      }),
    ).toMatchObject({ ok: false, refusal: "room_capacity_exceeded" });
  });
});

describe("a slot shown is a slot bookable (property-based)", () => {
  it("every time listed with out_of_order=true is accepted by decide(), every refused time is not listed, and says why as decide does", async () => {
    const { default: fc } = await import("fast-check");
    const tableArb = fc.record({
      guestsMin: fc.integer({ min: 1, max: 3 }),
      extra: fc.integer({ min: 0, max: 5 }),
      online: fc.boolean(),
      bookable: fc.boolean(),
      room: fc.integer({ min: 1, max: 2 }),
    });
    // Times of the lunch (11-16) or, for the late service past midnight, 20:00 to 02:00 (hours 20..25).
    const holdArb = fc.record({
      table: fc.nat(5),
      hour: fc.integer({ min: 11, max: 25 }),
      minute: fc.constantFrom(0, 15, 30, 45),
      stay: fc.integer({ min: 15, max: 180 }),
    });
    const closureArb = fc.record({
      day: fc.nat(1),
      from: fc.integer({ min: 0, max: 21 }),
      span: fc.integer({ min: 1, max: 3 }),
      table: fc.option(fc.nat(5), { nil: undefined }),
      wholeDay: fc.boolean(),
    });
    const pacingArb = fc.record({
      interval: fc.constantFrom(15, 30, 45),
      covers: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
      parties: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    });
    const arrivalArb = fc.record({
      hour: fc.integer({ min: 11, max: 25 }),
      minute: fc.integer({ min: 0, max: 59 }),
      pax: fc.integer({ min: 1, max: 6 }),
    });
    const minute = (hour: number, m: number) => at("00:00") + hour * 60 + m;
    fc.assert(
      fc.property(
        fc.array(tableArb, { minLength: 1, maxLength: 6 }),
        fc.array(holdArb, { maxLength: 8 }),
        fc.array(closureArb, { maxLength: 2 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        fc.boolean(),
        pacingArb,
        fc.array(arrivalArb, { maxLength: 8 }),
        (specs, holdSpecs, closureSpecs, pax, roomBookable, late, pacing, arrivalSpecs) => {
          const tables = specs.map((s, i) =>
            table(i + 1, {
              guestsMin: s.guestsMin,
              guestsMax: s.guestsMin + s.extra,
              online: s.online,
              bookable: s.bookable,
              roomId: s.room,
            }),
          );
          if (tables.length >= 2)
            tables.push(
              table(10, {
                isGroup: true,
                memberIds: [1, 2],
                guestsMin: 1,
                guestsMax: tables[0]!.guestsMax + tables[1]!.guestsMax,
                roomId: tables[0]!.roomId,
              }),
            );
          const rooms = [
            { id: 1, name: "A", bookable: true },
            { id: 2, name: "B", bookable: roomBookable },
          ];
          const holds = holdSpecs.map((h, i) => ({
            reservationId: 100 + i,
            tableId: (h.table % tables.length) + 1,
            startMin: minute(h.hour, h.minute),
            endMin: minute(h.hour, h.minute) + h.stay,
          }));
          const days = [DAY, "2030-06-13"];
          const closures: EngineClosure[] = closureSpecs.map((c) => ({
            startDate: days[c.day]!,
            endDate: days[c.day]!,
            startHour: c.wholeDay ? null : `${String(c.from).padStart(2, "0")}:00:00`,
            endHour: c.wholeDay ? null : `${String(c.from + c.span).padStart(2, "0")}:00:00`,
            roomIds: null,
            tableIds: c.table === undefined ? null : [(c.table % tables.length) + 1],
            serviceIds: null,
          }));
          const paced = {
            pacingInterval: pacing.interval,
            maxCoversPerInterval: pacing.covers,
            maxPartiesPerInterval: pacing.parties,
          };
          const svc = late
            ? service({ startHour: "20:00:00", endHour: "01:30:00", ...paced })
            : service({ startHour: "11:00:00", endHour: "16:00:00", ...paced });
          const arrivals = arrivalSpecs.map((a, i) => ({
            reservationId: 200 + i,
            serviceId: svc.id,
            startMin: minute(a.hour, a.minute),
            pax: a.pax,
          }));
          const engine = new Availability(
            catalog({ tables, rooms, closures, services: [svc] }),
            holds,
            NOW,
            arrivals,
          );
          const day = engine.daySlots(DAY, pax, [svc], true).available_services[0]!;
          for (const slot of day.slots) {
            // A time before the service's start is past midnight: the next calendar date.
            const start = minute(
              Number(slot.hour.slice(0, 2)) + (slot.hour < svc.startHour ? 24 : 0),
              Number(slot.hour.slice(3, 5)),
            );
            const decision = engine.decide({
              service: svc,
              date: fromLocalMinutes(start).date,
              start,
              pax,
              mode: "online",
            });
            const listed = day.available_slots.includes(slot.hour);
            if (listed !== decision.ok)
              throw new Error(`${slot.hour}: listed ${listed}, decide ${JSON.stringify(decision)}`);
            if (decision.ok) expect(slot.free_tables).toBeGreaterThan(0);
            else expect(slot.reason, `${slot.hour}: ${JSON.stringify(decision)}`).toBe(decision.why);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("pacing", () => {
  // Dinner from 19:00, 15-minute intervals, at most 4 covers and 3 parties starting in each.
  const dinner = service({
    startHour: "19:00:00",
    endHour: "22:00:00",
    pacingInterval: 15,
    maxCoversPerInterval: 4,
    maxPartiesPerInterval: 3,
  });
  const tables = [
    table(1),
    table(2),
    table(3),
    table(4),
    table(5, { guestsMax: 2 }),
    table(6, { guestsMax: 2 }),
    table(10, { isGroup: true, memberIds: [5, 6], guestsMax: 4 }),
  ];
  const arrival = (id: number, hour: string, pax: number, serviceId = 1) => ({
    reservationId: id,
    serviceId,
    startMin: at(hour),
    pax,
  });
  const engineWith = (arrivals: ReturnType<typeof arrival>[], svc = dinner) =>
    new Availability(catalog({ tables, services: [svc] }), [], NOW, arrivals);
  // staff: any minute of the service's hours (online bookings keep to the 15-minute grid)
  const decide = (
    e: Availability,
    hour: string,
    pax: number,
    mode: "online" | "staff" = "staff",
    o: { overridePacing?: boolean; ignoreReservation?: number } = {},
  ) => e.decide({ service: e.catalog.services[0]!, date: DAY, start: at(hour), pax, mode, ...o });

  it("counts the arrivals whose start falls in one interval, from 19:00 to 19:14, and opens the next at 19:15", () => {
    const e = engineWith([arrival(1, "19:00", 2), arrival(2, "19:14", 1)]);
    expect(decide(e, "19:10", 1)).toMatchObject({ ok: true });
    expect(decide(e, "19:10", 2)).toMatchObject({
      ok: false,
      refusal: "booking_slot_not_available",
      why: "pacing",
    });
    expect(decide(e, "19:15", 4)).toMatchObject({ ok: true });
    // 18:59 would be another interval, but is before the service: the edge at 19:00 is where counting starts
    expect(decide(e, "19:00", 2)).toMatchObject({ ok: false, why: "pacing" });
  });

  it("limits parties as well as covers", () => {
    const e = engineWith([arrival(1, "19:30", 1), arrival(2, "19:33", 1), arrival(3, "19:40", 1)]);
    expect(decide(e, "19:35", 1)).toMatchObject({ ok: false, why: "pacing" });
    expect(decide(e, "19:45", 1)).toMatchObject({ ok: true });
  });

  it("a party at a group table is one party and its covers, however many tables it holds", () => {
    const svc = service({
      startHour: "19:00:00",
      endHour: "22:00:00",
      maxPartiesPerInterval: 2,
      maxCoversPerInterval: 6,
    });
    const small = [
      table(5, { guestsMax: 2 }),
      table(6, { guestsMax: 2 }),
      table(10, { isGroup: true, memberIds: [5, 6], guestsMax: 4 }),
      table(7, { guestsMax: 2 }),
    ];
    // party 1 (four guests) holds the group and both its members
    const holds = [hold(10, "20:00", 60, 1), hold(5, "20:00", 60, 1), hold(6, "20:00", 60, 1)];
    const e = (arrivals: ReturnType<typeof arrival>[]) =>
      new Availability(catalog({ tables: small, services: [svc] }), holds, NOW, arrivals);
    const at2005 = (x: Availability, pax: number) =>
      x.decide({ service: svc, date: DAY, start: at("20:05"), pax, mode: "staff" });
    expect(at2005(e([arrival(1, "20:00", 4)]), 2)).toMatchObject({ ok: true, tables: [{ id: 7 }] });
    expect(at2005(e([arrival(1, "20:00", 4), arrival(2, "20:10", 1)]), 1)).toMatchObject({
      ok: false,
      why: "pacing",
    });
  });

  it("staff obey it unless they override it; online never can", () => {
    const e = engineWith([arrival(1, "19:00", 4)]);
    expect(decide(e, "19:05", 2, "staff")).toMatchObject({ ok: false, why: "pacing" });
    expect(decide(e, "19:05", 2, "staff", { overridePacing: true })).toMatchObject({ ok: true });
    expect(decide(e, "19:00", 2, "online", { overridePacing: true })).toMatchObject({
      ok: false,
      why: "pacing",
    });
  });

  it("a party moved within its interval does not count against itself", () => {
    const e = engineWith([arrival(7, "19:00", 4)]);
    expect(decide(e, "19:10", 4, "staff", { ignoreReservation: 7 })).toMatchObject({ ok: true });
  });

  it("counts only its own service's arrivals", () => {
    expect(decide(engineWith([arrival(1, "19:00", 4, 2)]), "19:00", 4)).toMatchObject({ ok: true });
  });

  it("intervals count from the service's start, past midnight too (the database's trigger does the same)", () => {
    const late = service({
      startHour: "22:10:00",
      endHour: "01:30:00",
      pacingInterval: 30,
      maxPartiesPerInterval: 1,
    });
    const e = new Availability(catalog({ tables, services: [late] }), [], NOW, [
      { reservationId: 1, serviceId: 1, startMin: at("00:15", "2030-06-13"), pax: 2 },
    ]);
    // intervals 00:10-00:40 and 00:40-01:10 of the 13th
    expect(pacingBucket(late, at("00:39", "2030-06-13"))).toBe(at("00:10", "2030-06-13"));
    expect(
      e.decide({
        service: late,
        date: "2030-06-13",
        start: at("00:30", "2030-06-13"),
        pax: 2,
        mode: "staff",
      }),
    ).toMatchObject({ ok: false, why: "pacing" });
    expect(
      e.decide({
        service: late,
        date: "2030-06-13",
        start: at("00:40", "2030-06-13"),
        pax: 2,
        mode: "staff",
      }),
    ).toMatchObject({ ok: true });
  });

  it("the listing says pacing where the kitchen is full and the tables are not", () => {
    const slots = engineWith([arrival(1, "19:00", 4)]).daySlots(DAY, 2, [dinner], false)
      .available_services[0]!.slots;
    expect(slots.find((x) => x.hour === "19:00:00")).toMatchObject({ reason: "pacing" });
    expect(slots.find((x) => x.hour === "19:15:00")?.reason).toBeUndefined();
  });
});

describe("closures over the whole stay", () => {
  const evening = service({ startHour: "17:00:00", endHour: "22:00:00" });
  const closed = (c: Partial<EngineClosure>) =>
    new Availability(
      catalog({
        settings: { ...settings, average_stay: 90 },
        services: [evening],
        closures: [
          {
            startDate: DAY,
            endDate: DAY,
            startHour: "19:00:00",
            endHour: "20:00:00",
            roomIds: null,
            tableIds: null,
            serviceIds: null,
            ...c,
          },
        ],
      }),
      [],
      NOW,
    );

  it("refuses a party whose stay reaches into a closure starting at 19:00, not only one starting inside it", () => {
    const e = closed({});
    const at19 = (hour: string) =>
      e.decide({ service: evening, date: DAY, start: at(hour), pax: 2, mode: "online" });
    expect(at19("17:30")).toMatchObject({ ok: true });
    expect(at19("17:45")).toMatchObject({ ok: false, refusal: "booking_slot_not_available", why: "closed" });
    expect(at19("18:45")).toMatchObject({ ok: false, why: "closed" });
    expect(at19("20:00")).toMatchObject({ ok: true });
    const staff = e.decide({ service: evening, date: DAY, start: at("18:45"), pax: 2, mode: "staff" });
    expect(staff).toMatchObject({ ok: false, why: "closed" });
  });

  it("the listing (out_of_order) disables and explains the times whose stay meets it", () => {
    const slots = closed({}).daySlots(DAY, 2, [evening], true).available_services[0]!.slots;
    expect(slots.find((x) => x.hour === "17:30:00")?.reason).toBeUndefined();
    expect(slots.find((x) => x.hour === "17:45:00")).toMatchObject({ disabled: true, reason: "closed" });
  });

  it("a stay crossing midnight meets the next day's closure hours", () => {
    const late = service({ startHour: "22:00:00", endHour: "23:30:00" });
    const e = new Availability(
      catalog({
        services: [late],
        closures: [
          {
            startDate: "2030-06-13",
            endDate: "2030-06-13",
            startHour: "00:00:00",
            endHour: "06:00:00",
            roomIds: null,
            tableIds: null,
            serviceIds: null,
          },
        ],
      }),
      [],
      NOW,
    );
    expect(e.decide({ service: late, date: DAY, start: at("22:45"), pax: 2, mode: "online" })).toMatchObject({
      ok: true,
    });
    expect(e.decide({ service: late, date: DAY, start: at("23:15"), pax: 2, mode: "online" })).toMatchObject({
      ok: false,
      why: "closed",
    });
  });
});

describe("closures past midnight and to the end of the day", () => {
  const whole = { roomIds: null, tableIds: null, serviceIds: null };
  const engineWith = (
    svc: EngineService,
    c: Omit<EngineClosure, "roomIds" | "tableIds" | "serviceIds">,
    stay = 60,
  ) =>
    new Availability(
      catalog({
        settings: { ...settings, average_stay: stay },
        services: [svc],
        closures: [{ ...c, ...whole }],
      }),
      [],
      NOW,
    );

  it("a closure from 23:00 to 01:00 of the next date closes the night, stays reaching into it included", () => {
    const late = service({ startHour: "21:00:00", endHour: "02:00:00" });
    const e = engineWith(late, {
      startDate: DAY,
      endDate: "2030-06-13",
      startHour: "23:00:00",
      endHour: "01:00:00",
    });
    const decide = (hour: string, date = DAY) =>
      e.decide({ service: late, date: DAY, start: at(hour, date), pax: 2, mode: "online" });
    expect(decide("21:45")).toMatchObject({ ok: true });
    expect(decide("22:15")).toMatchObject({ ok: false, why: "closed" });
    expect(decide("23:30")).toMatchObject({ ok: false, why: "closed" });
    expect(decide("00:45", "2030-06-13")).toMatchObject({ ok: false, why: "closed" });
    expect(decide("01:00", "2030-06-13")).toMatchObject({ ok: true });
    const slots = e.daySlots(DAY, 2, [late], true).available_services[0]!.slots;
    const reasons = Object.fromEntries(slots.map((x) => [x.hour, x.reason ?? "open"]));
    expect([reasons["21:45:00"], reasons["22:15:00"], reasons["00:45:00"], reasons["01:00:00"]]).toEqual([
      "open",
      "closed",
      "closed",
      "open",
    ]);
  });

  it("a closure past midnight over several dates closes each night, not the days between", () => {
    const svc = service({ startHour: "00:00:00", endHour: "23:45:00" });
    const e = engineWith(
      svc,
      { startDate: DAY, endDate: "2030-06-14", startHour: "23:00:00", endHour: "01:00:00" },
      15,
    );
    const closed = (date: string, hour: string) =>
      !e.decide({ service: svc, date, start: at(hour, date), pax: 2, mode: "online" }).ok;
    expect([closed(DAY, "00:30"), closed(DAY, "22:45"), closed(DAY, "23:00")]).toEqual([false, false, true]);
    expect([
      closed("2030-06-13", "00:45"),
      closed("2030-06-13", "12:00"),
      closed("2030-06-13", "23:15"),
    ]).toEqual([true, false, true]);
    expect([
      closed("2030-06-14", "00:30"),
      closed("2030-06-14", "01:00"),
      closed("2030-06-14", "23:00"),
    ]).toEqual([true, false, false]);
  });

  it("a closure to 24:00 refuses a 5-minute stay at 23:59; one to 23:59 lets it in (the end is exclusive)", () => {
    const night = service({ startHour: "22:00:00", endHour: "23:59:00" });
    const at2359 = (endHour: string) =>
      engineWith(night, { startDate: DAY, endDate: DAY, startHour: "23:58:00", endHour }, 5).decide({
        service: night,
        date: DAY,
        start: at("23:59"),
        pax: 2,
        mode: "staff",
      });
    expect(at2359("24:00:00")).toMatchObject({ ok: false, why: "closed" });
    expect(at2359("23:59:00")).toMatchObject({ ok: true });
  });

  it("a closure to 24:00 leaves the next date open", () => {
    const svc = service({ startHour: "00:00:00", endHour: "23:59:00" });
    const e = engineWith(
      svc,
      { startDate: DAY, endDate: DAY, startHour: "22:00:00", endHour: "24:00:00" },
      5,
    );
    expect(
      e.decide({ service: svc, date: "2030-06-13", start: at("00:00", "2030-06-13"), pax: 2, mode: "staff" }),
    ).toMatchObject({ ok: true });
    expect(e.decide({ service: svc, date: DAY, start: at("21:55"), pax: 2, mode: "staff" })).toMatchObject({
      ok: true,
    });
    expect(e.decide({ service: svc, date: DAY, start: at("21:56"), pax: 2, mode: "staff" })).toMatchObject({
      ok: false,
      why: "closed",
    });
  });
});

describe("a service past midnight", () => {
  // Saturdays only, 19:00 to 01:30: Sunday 00:30 belongs to Saturday's service.
  const night = service({ name: "Late", startHour: "19:00:00", endHour: "01:30:00", weekdays: [6] });
  const rome = { ...settings, timezone: "Europe/Rome", max_days_ahead: 3650 };
  const engineAt = (nowUtc: number, closures: EngineClosure[] = [], o: Partial<typeof settings> = {}) =>
    new Availability(catalog({ settings: { ...rome, ...o }, services: [night], closures }), [], nowUtc);
  const hours = (e: Availability, date: string) =>
    e.daySlots(date, 2, [night], false).available_services[0]?.slots.map((x) => x.hour) ?? [];

  for (const [saturday, sunday] of [
    ["2026-10-24", "2026-10-25"],
    ["2027-03-27", "2027-03-28"],
  ] as const) {
    describe(`across the DST night of ${sunday} in Europe/Rome`, () => {
      const early = Date.UTC(2026, 0, 1);

      it("lists its times after midnight under the day it started, and none under the next", () => {
        const e = engineAt(early);
        const listed = hours(e, saturday);
        expect(listed).toHaveLength(27);
        expect(listed.slice(0, 2)).toEqual(["19:00:00", "19:15:00"]);
        expect(listed.slice(-3)).toEqual(["01:00:00", "01:15:00", "01:30:00"]);
        expect(hours(e, sunday)).toEqual([]);
      });

      it("books 00:30 on the calendar day of its start, by the weekday of its service day", () => {
        const e = engineAt(early);
        const sundayLate = e.decide({
          service: night,
          date: sunday,
          start: localMinutes(sunday, "00:30"),
          pax: 2,
          mode: "online",
        });
        expect(sundayLate).toMatchObject({ ok: true });
        // 00:30 on the Saturday belongs to Friday's service, which does not run
        expect(e.checkTime(night, saturday, localMinutes(saturday, "00:30"), 2, "online")).toBe(
          "service_is_not_available",
        );
        expect(serviceDayOf(night, localMinutes(sunday, "01:30"))).toBe(saturday);
        expect(serviceDayOf(night, localMinutes(sunday, "01:45"))).toBe(sunday);
      });

      it("a whole-day closure of the service day closes its hours past midnight, not the night before's", () => {
        const closure = (date: string): EngineClosure => ({
          startDate: date,
          endDate: date,
          startHour: null,
          endHour: null,
          roomIds: null,
          tableIds: null,
          serviceIds: null,
        });
        const at0030 = (e: Availability) =>
          e.decide({
            service: night,
            date: sunday,
            start: localMinutes(sunday, "00:30"),
            pax: 2,
            mode: "online",
          });
        expect(at0030(engineAt(early, [closure(saturday)]))).toMatchObject({ ok: false, why: "closed" });
        expect(at0030(engineAt(early, [closure(sunday)]))).toMatchObject({ ok: true });
      });

      it("counts the notice in real time over the night: at 00:50 with 30 minutes' notice, 01:30 is the only time left", () => {
        // 00:50 local on the Sunday, before either change (03:00 in October, 02:00 in March)
        const nowUtc = Date.parse(`${sunday}T00:50:00${sunday.startsWith("2026") ? "+02:00" : "+01:00"}`);
        const e = engineAt(nowUtc, [], { min_notice: 30 });
        const day = e.daySlots(saturday, 2, [night], false).available_services[0]!;
        expect(day.available_slots).toEqual(["01:30:00"]);
        expect(day.slots.find((x) => x.hour === "01:15:00")?.reason).toBe("notice");
        // and staff may still record last night's walk-in of 23:30
        expect(e.checkTime(night, saturday, localMinutes(saturday, "23:30"), 2, "staff")).toBeUndefined();
      });
    });
  }

  it("a stay over the skipped hour of 2027-03-28 is held in wall-clock minutes", () => {
    const e = new Availability(
      catalog({ settings: rome, services: [night] }),
      [
        {
          reservationId: 1,
          tableId: 1,
          startMin: localMinutes("2027-03-28", "01:30"),
          endMin: localMinutes("2027-03-28", "03:00"),
        },
      ],
      Date.UTC(2026, 0, 1),
    );
    expect(e.isFree(table(1), localMinutes("2027-03-28", "00:45"), 60)).toBe(false);
    // an hour from 00:30 ends at 01:30 on the wall clock, as the hold starts
    expect(e.isFree(table(1), localMinutes("2027-03-28", "00:30"), 60)).toBe(true);
    expect(e.isFree(table(1), localMinutes("2027-03-27", "23:15"), 60)).toBe(true);
  });
});

describe("the staff booking window", () => {
  const allDay = service({ startHour: "00:00:00", endHour: "23:45:00" });
  const e = new Availability(
    catalog({ settings: { ...settings, max_days_ahead_staff: 730 }, services: [allDay] }),
    [],
    NOW,
  );
  const today = "2030-06-01";
  const on = (date: string, hour = "12:00", mode: "staff" | "online" = "staff", stay = 60) =>
    e.checkTime(allDay, date, localMinutes(date, hour), 2, mode, stay);

  it("lets staff book up to max_days_ahead_staff days ahead, and no further", () => {
    expect(on(addDays(today, 730))).toBeUndefined();
    expect(on(addDays(today, 731))).toBe("booking_slot_not_available");
    expect(e.timeVerdict(allDay, localMinutes(addDays(today, 731), "12:00"), 2, "staff")).toMatchObject({
      why: "window",
    });
    expect(on(addDays(today, 91), "12:00", "online")).toBe("booking_slot_not_available");
  });

  it("never lets a stay end after 9999-12-31, whatever the window", () => {
    const far = new Availability(
      catalog({ settings: { ...settings, max_days_ahead_staff: 3650 }, services: [allDay] }),
      [],
      Date.UTC(9999, 0, 1),
    );
    expect(
      far.checkTime(allDay, "9999-12-31", localMinutes("9999-12-31", "22:00"), 2, "staff", 60),
    ).toBeUndefined();
    expect(far.checkTime(allDay, "9999-12-31", localMinutes("9999-12-31", "23:45"), 2, "staff", 60)).toBe(
      "booking_slot_not_available",
    );
    expect(
      far.decide({
        service: allDay,
        date: "9999-12-31",
        start: localMinutes("9999-12-31", "23:15"),
        pax: 2,
        mode: "staff",
      }),
    ).toMatchObject({ ok: false, why: "window" });
    expect(listedDays("9999-12-30", 7)).toEqual(["9999-12-30", "9999-12-31"]);
  });
});

describe("reasons in the listing", () => {
  it("says party_size, window, notice, closed and full", () => {
    const lunch = service({ startHour: "12:00:00", endHour: "13:00:00", paxMax: 6 });
    const nowUtc = Date.UTC(2030, 5, 12, 12, 20);
    const closure: EngineClosure = {
      startDate: DAY,
      endDate: DAY,
      startHour: "12:45:00",
      endHour: "13:00:00",
      roomIds: null,
      tableIds: null,
      serviceIds: null,
    };
    const e = new Availability(
      catalog({
        services: [lunch],
        closures: [closure],
        settings: { ...settings, max_days_ahead: 1, average_stay: 15 },
      }),
      [hold(1, "12:30", 15)],
      nowUtc,
    );
    const reasons = (date: string, pax: number) =>
      Object.fromEntries(
        e.daySlots(date, pax, [lunch], true).available_services[0]!.slots.map((x) => [x.hour, x.reason]),
      );
    expect(reasons(DAY, 2)).toEqual({
      "12:00:00": "notice",
      "12:15:00": "notice",
      "12:30:00": "full",
      "12:45:00": "closed",
      "13:00:00": undefined,
    });
    expect(reasons(DAY, 7)["13:00:00"]).toBe("party_size");
    expect(reasons("2030-06-14", 2)["13:00:00"]).toBe("window");
  });
});
