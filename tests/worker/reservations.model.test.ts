/**
 * Model-based test: random sequences of create, update, status, check-in/out, undo and
 * delete go through the API, and after every step no table holds two overlapping parties,
 * only holding reservations hold tables, and each status is the one the model allows.
 * Two services: Dinner (19:00-22:00) and Late (22:30-01:30, past midnight, paced: at most 2
 * parties and 6 covers in each half hour), so every booking and move into Late is checked
 * against pacing: accepted only within it, refused for pacing only when it was reached.
 * The model is written from the documented rules here, independently of worker/reservations/machine.ts
 * and the availability engine.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, localMinutes } from "../../worker/lib/localtime";
import { atArrival, book, createIn, dateInDays, newClient, type TestClient } from "./helpers";

type Status =
  | "WAITING"
  | "ACCEPTED"
  | "CONFIRMED"
  | "CANCELLED"
  | "REJECTED"
  | "EXPIRED"
  | "PREPAY"
  | "OUTOFORDER";
const MOVES: Record<Status, Status[]> = {
  WAITING: ["ACCEPTED", "CONFIRMED", "REJECTED", "CANCELLED"],
  PREPAY: ["ACCEPTED", "CONFIRMED", "EXPIRED", "CANCELLED"],
  ACCEPTED: ["CONFIRMED", "CANCELLED", "EXPIRED"],
  CONFIRMED: ["CANCELLED", "EXPIRED"],
  OUTOFORDER: ["CANCELLED"],
  CANCELLED: [],
  EXPIRED: [],
  REJECTED: [],
};
const FINAL: Status[] = ["CANCELLED", "EXPIRED", "REJECTED"];
const HOLDING: Status[] = ["PREPAY", "ACCEPTED", "CONFIRMED", "OUTOFORDER"];

interface ModelReservation {
  id: number;
  status: Status;
  checkinPrev: Status | null;
  checkoutPrev: Status | null;
  late: boolean;
}
interface Model {
  reservations: ModelReservation[];
}
interface Real {
  client: TestClient;
  serviceId: number;
  lateId: number;
  tables: number[];
  date: string;
}

const HOURS = ["19:00", "19:30", "20:00", "20:30", "21:00"];
const LATE_HOURS = ["22:30", "23:10", "00:00", "00:20", "01:00"];
const LATE = { start: 22 * 60 + 30, interval: 30, maxParties: 2, maxCovers: 6 };
const TABLE_REFUSALS = ["table not available", "room capacity has been exceeded", "resource not available"];
const PACED = "booking slot not available";

/** Where a time of a service falls: its calendar date (past midnight: the next day) and hour. */
const when = (r: Real, late: boolean, i: number) => {
  const hour = (late ? LATE_HOURS : HOURS)[i]!;
  return { date: late && hour < "12:00" ? addDays(r.date, 1) : r.date, hour };
};

/** The first minute of Late's half hour holding a start (counted from 22:30, across midnight). */
const bucketOf = (minute: number) =>
  minute - (((((minute - LATE.start) % 1440) + 1440) % 1440) % LATE.interval);

/** Covers and parties of Late arriving in the half hour of `at`, other than `except`. */
async function lateLoad(r: Real, at: { date: string; hour: string }, except?: number) {
  const list = await r.client.call(
    `/api/v2/reservations?start_date=${r.date}&end_date=${addDays(r.date, 1)}&service_ids[]=${r.lateId}&limit=200`,
  );
  const bucket = bucketOf(localMinutes(at.date, at.hour));
  let covers = 0;
  let parties = 0;
  for (const x of list.json.data as {
    id: number;
    start_date: string;
    start_hour: string;
    pax: number;
    status: Status;
  }[]) {
    if (x.id === except || !["PREPAY", "ACCEPTED", "CONFIRMED"].includes(x.status)) continue;
    if (bucketOf(localMinutes(x.start_date, x.start_hour)) !== bucket) continue;
    covers += x.pax;
    parties++;
  }
  return { covers, parties };
}

/** A paced write into Late: accepted only within the limits, refused for pacing only when they were reached. */
async function checkPacing(
  r: Real,
  res: Res,
  at: { date: string; hour: string },
  pax: number,
  self: number | undefined,
  what: string,
) {
  const others = await lateLoad(r, at, self ?? (res.status < 300 ? res.json.data[0].id : undefined));
  const fits = others.covers + pax <= LATE.maxCovers && others.parties + 1 <= LATE.maxParties;
  if (res.status < 300 && !fits)
    throw new Error(`${what}: accepted past pacing (${JSON.stringify(others)} + ${pax})`);
  if (res.status === 403 && res.json?.title === PACED && fits)
    throw new Error(`${what}: refused for pacing within it (${JSON.stringify(others)} + ${pax})`);
}

/**
 * A table asked for and refused as taken is held over part of the party's stay: stays are
 * half-open, [start, start + 60), so a party leaving as this one arrives, or arriving as it
 * leaves, is no clash. The group T1+T2 is held by its own holds and its members'.
 */
async function expectClash(r: Real, table: number, at: { date: string; hour: string }, what: string) {
  const asked = r.tables[table - 1]!;
  const related = table === 3 ? r.tables : [asked];
  const start = localMinutes(at.date, at.hour);
  const clash = await r.client.d1
    .prepare(
      `SELECT rt.reservation_id FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id
       WHERE r.property_id = ? AND rt.table_id IN (${related.map(() => "?").join(", ")})
         AND rt.start_min < ? AND ? < rt.end_min LIMIT 1`,
    )
    .bind(r.client.propertyId, ...related, start + 60, start)
    .first();
  if (!clash) throw new Error(`${what}: refused as taken, but nothing holds table ${asked} over its stay`);
}

type Res = Awaited<ReturnType<TestClient["call"]>>;
function expectOneOf(res: Res, allowed: [number, string?][], what: string) {
  const ok = allowed.some(
    ([status, title]) => res.status === status && (title === undefined || res.json?.title === title),
  );
  if (!ok)
    throw new Error(`${what}: got ${res.status} ${res.text}; expected one of ${JSON.stringify(allowed)}`);
}

const pick = (m: Model, i: number) => m.reservations[i % m.reservations.length]!;

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly hour: number,
    readonly pax: number,
    readonly table: number,
    readonly waiting: boolean,
    readonly late = false,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const tableIds = this.table === 0 ? undefined : [r.tables[this.table - 1]];
    const at = when(r, this.late, this.hour);
    const res = await book(r.client, {
      start_date: at.date,
      start_hour: at.hour,
      pax: this.pax,
      service_id: this.late ? r.lateId : r.serviceId,
      table_ids: tableIds,
      waiting_list: this.waiting,
    });
    if (this.waiting) expectOneOf(res, [[201], [403, "room capacity has been exceeded"]], this.toString());
    else
      expectOneOf(
        res,
        [
          [201],
          ...TABLE_REFUSALS.map((t): [number, string] => [403, t]),
          ...(this.late ? [[403, PACED] as [number, string]] : []),
        ],
        this.toString(),
      );
    if (this.late && !this.waiting) await checkPacing(r, res, at, this.pax, undefined, this.toString());
    if (tableIds && res.status === 403 && res.json?.title === "table not available")
      await expectClash(r, this.table, at, this.toString());
    if (res.status === 201) {
      const created = res.json.data[0];
      expect(created.status).toBe(this.waiting ? "WAITING" : "ACCEPTED");
      // the calendar date of its start, past midnight too
      expect(created.start_date).toBe(at.date);
      m.reservations.push({
        id: created.id,
        status: created.status,
        checkinPrev: null,
        checkoutPrev: null,
        late: this.late,
      });
    }
  }
  toString = () =>
    `create(${this.late ? "late " : ""}${(this.late ? LATE_HOURS : HOURS)[this.hour]}, pax ${this.pax}, table ${this.table}, waiting ${this.waiting})`;
}

class Update implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly which: number,
    readonly hour: number,
    readonly pax: number,
  ) {}
  check = (m: Readonly<Model>) => m.reservations.length > 0;
  async run(m: Model, r: Real) {
    const target = pick(m, this.which);
    const at = when(r, target.late, this.hour);
    const before = (await r.client.call(`/api/v2/reservations/${target.id}`)).json.data[0];
    const res = await r.client.call(`/api/v2/reservations/${target.id}`, {
      method: "PUT",
      body: { start_day: at.date, start_hour: at.hour, pax: this.pax },
    });
    // a move is paced when a party that will arrive comes at another time, or grows
    const paced =
      target.late &&
      ["PREPAY", "ACCEPTED", "CONFIRMED"].includes(target.status) &&
      (before.start_hour !== `${at.hour}:00` || before.start_day !== at.date || this.pax > before.pax);
    if (FINAL.includes(target.status))
      expectOneOf(res, [[403, "reservation not available"]], this.toString());
    else
      expectOneOf(
        res,
        [
          [200],
          ...TABLE_REFUSALS.map((t): [number, string] => [403, t]),
          ...(paced ? [[403, PACED] as [number, string]] : []),
        ],
        this.toString(),
      );
    if (paced) await checkPacing(r, res, at, this.pax, target.id, this.toString());
    if (res.status === 200) expect(res.json.data[0].status).toBe(target.status);
  }
  toString = () => `update(#${this.which}, ${HOURS[this.hour]}, pax ${this.pax})`;
}

class SetStatus implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly which: number,
    readonly to: Status,
  ) {}
  check = (m: Readonly<Model>) => m.reservations.length > 0;
  async run(m: Model, r: Real) {
    const target = pick(m, this.which);
    const res = await r.client.call(
      `/api/v2/reservations/${target.id}/status?status=${this.to.toLowerCase()}`,
      { method: "PATCH" },
    );
    if (!MOVES[target.status].includes(this.to))
      return expectOneOf(res, [[403, "reservation not available"]], this.toString());
    const takes = !HOLDING.includes(target.status) && HOLDING.includes(this.to);
    expectOneOf(res, takes ? [[200], [403, "resource not available"]] : [[200]], this.toString());
    if (res.status === 200) target.status = this.to;
  }
  toString = () => `status(#${this.which} -> ${this.to})`;
}

class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly which: number,
    readonly step: "checkin" | "checkout",
    readonly undo: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.reservations.length > 0;
  async run(m: Model, r: Real) {
    const t = pick(m, this.which);
    const move = () =>
      r.client.call(`/api/v2/reservations/${t.id}/${this.step}${this.undo ? "?undo=true" : ""}`, {
        method: "PATCH",
      });
    // A party is checked in when it arrives (the restaurant's zone is UTC); the other steps run on the test's clock.
    const arrival =
      this.step === "checkin" && !this.undo
        ? (await r.client.call(`/api/v2/reservations/${t.id}`)).json.data[0]
        : undefined;
    const res = arrival ? await atArrival(r.client, arrival, move) : await move();
    const refused = () => expectOneOf(res, [[403, "reservation not available"]], this.toString());
    const final = FINAL.includes(t.status);
    if (this.step === "checkin" && !this.undo) {
      if (t.checkinPrev !== null || !["WAITING", "PREPAY", "ACCEPTED", "CONFIRMED"].includes(t.status))
        return refused();
      const takes = t.status === "WAITING";
      expectOneOf(res, takes ? [[200], [403, "table not available"]] : [[200]], this.toString());
      if (res.status === 200)
        [t.checkinPrev, t.status] = [t.status, t.status === "WAITING" ? "ACCEPTED" : t.status];
    } else if (this.step === "checkin") {
      if (t.checkinPrev === null || t.checkoutPrev !== null || final) return refused();
      expectOneOf(res, [[200]], this.toString());
      // only a status check-in produced is restored
      const produced = t.checkinPrev === "WAITING" ? "ACCEPTED" : t.checkinPrev;
      [t.status, t.checkinPrev] = [t.status === produced ? t.checkinPrev : t.status, null];
    } else if (!this.undo) {
      if (t.checkinPrev === null || t.checkoutPrev !== null || final) return refused();
      expectOneOf(res, [[200]], this.toString());
      [t.checkoutPrev, t.status] = [t.status, "CONFIRMED"];
    } else {
      if (t.checkoutPrev === null || final) return refused();
      expectOneOf(res, [[200]], this.toString());
      [t.status, t.checkoutPrev] = [t.status === "CONFIRMED" ? t.checkoutPrev : t.status, null];
    }
    if (res.status === 200) expect(res.json.data[0].status).toBe(t.status);
  }
  toString = () => `${this.undo ? "undo " : ""}${this.step}(#${this.which})`;
}

class Delete implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number) {}
  check = (m: Readonly<Model>) => m.reservations.length > 0;
  async run(m: Model, r: Real) {
    const t = pick(m, this.which);
    const res = await r.client.call(`/api/v2/reservations/${t.id}`, { method: "DELETE" });
    expectOneOf(res, [[200]], this.toString());
    if (!FINAL.includes(t.status)) t.status = "CANCELLED";
  }
  toString = () => `delete(#${this.which})`;
}

/** After every step: statuses as modelled, holds only for holding statuses, no table held twice at once. */
async function checkInvariants(m: Model, r: Real) {
  const list = await r.client.call(
    `/api/v2/reservations?start_date=${r.date}&end_date=${addDays(r.date, 1)}&limit=200`,
  );
  expect(list.status).toBe(200);
  const actual = new Map<number, string>(
    list.json.data.map((x: { id: number; status: string }) => [x.id, x.status]),
  );
  for (const res of m.reservations) expect(actual.get(res.id), `status of ${res.id}`).toBe(res.status);
  const { results: holds } = await r.client.d1
    .prepare(
      `SELECT rt.reservation_id, rt.table_id, rt.start_min, rt.end_min FROM reservation_tables rt
       JOIN reservations r ON r.id = rt.reservation_id WHERE r.property_id = ?`,
    )
    .bind(r.client.propertyId)
    .all<{ reservation_id: number; table_id: number; start_min: number; end_min: number }>();
  for (const h of holds)
    expect(HOLDING, `hold of reservation ${h.reservation_id}`).toContain(actual.get(h.reservation_id));
  for (const res of m.reservations) {
    if (HOLDING.includes(res.status))
      expect(
        holds.some((h) => h.reservation_id === res.id),
        `holding ${res.id} holds a table`,
      ).toBe(true);
  }
  for (const a of holds) {
    for (const b of holds) {
      if (
        a.reservation_id < b.reservation_id &&
        a.table_id === b.table_id &&
        a.start_min < b.end_min &&
        b.start_min < a.end_min
      ) {
        throw new Error(`table ${a.table_id} held by ${a.reservation_id} and ${b.reservation_id} at once`);
      }
    }
  }
}

const withInvariants = <C extends fc.AsyncCommand<Model, Real>>(cmd: C): fc.AsyncCommand<Model, Real> => ({
  check: (m) => cmd.check(m),
  run: async (m, r) => {
    await cmd.run(m, r);
    await checkInvariants(m, r);
  },
  toString: () => cmd.toString(),
});

const statusArb = fc.constantFrom<Status>(
  "ACCEPTED",
  "CONFIRMED",
  "REJECTED",
  "CANCELLED",
  "EXPIRED",
  "WAITING",
);
const commands = [
  fc
    .tuple(fc.nat(HOURS.length - 1), fc.integer({ min: 1, max: 7 }), fc.nat(3), fc.boolean(), fc.boolean())
    .map(([h, p, t, w, l]) => withInvariants(new Create(h, p, t, w, l))),
  fc
    .tuple(fc.nat(20), fc.nat(HOURS.length - 1), fc.integer({ min: 1, max: 6 }))
    .map(([i, h, p]) => withInvariants(new Update(i, h, p))),
  fc.tuple(fc.nat(20), statusArb).map(([i, s]) => withInvariants(new SetStatus(i, s))),
  fc
    .tuple(fc.nat(20), fc.constantFrom<"checkin" | "checkout">("checkin", "checkout"), fc.boolean())
    .map(([i, s, u]) => withInvariants(new Step(i, s, u))),
  fc.nat(20).map((i) => withInvariants(new Delete(i))),
];

describe("reservations against a model", () => {
  it("keeps every table single-booked and every status allowed, whatever the sequence", async () => {
    let day = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        // A fresh restaurant per run (and a fresh rate-limit budget): T1 (2), T2 (4), T3 (2), groups T1+T2 and T2+T3.
        const client = await newClient();
        const room = await createIn(client, "rooms", { name: "Main" });
        const t1 = await createIn(client, "tables", { name: "T1", room_id: room.id, guests_max: 2 });
        const t2 = await createIn(client, "tables", { name: "T2", room_id: room.id, guests_max: 4 });
        const t3 = await createIn(client, "tables", { name: "T3", room_id: room.id, guests_max: 2 });
        const g12 = await createIn(client, "tables", {
          name: "T1+T2",
          room_id: room.id,
          group: true,
          table_ids: [t1.id, t2.id],
        });
        await createIn(client, "tables", {
          name: "T2+T3",
          room_id: room.id,
          group: true,
          table_ids: [t2.id, t3.id],
        });
        const service = await createIn(client, "services", {
          name: "Dinner",
          start_hour: "19:00",
          end_hour: "22:00",
        });
        const late = await createIn(client, "services", {
          name: "Late",
          start_hour: "22:30",
          end_hour: "01:30",
          pacing_interval: LATE.interval,
          max_parties_per_interval: LATE.maxParties,
          max_covers_per_interval: LATE.maxCovers,
        });
        const real: Real = {
          client,
          serviceId: service.id,
          lateId: late.id,
          tables: [t1.id, t2.id, g12.id],
          date: dateInDays(30 + (day++ % 300)),
        };
        // Start from a few reservations, so every command has something to act on.
        const model: Model = { reservations: [] };
        for (const seed of [
          new Create(0, 2, 1, false),
          new Create(2, 4, 0, true),
          new Create(4, 5, 0, false),
          new Create(2, 2, 0, false, true),
        ])
          await seed.run(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 20, endOnFailure: true },
    );
  }, 240_000);
});
