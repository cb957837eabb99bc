/**
 * The restaurant's own rules through the API: pacing (and its race), closures over
 * the whole stay, services past midnight across both DST nights of Europe/Rome, the staff booking
 * window, the reasons of unavailable times, a group's seats following its members, and what a
 * reservation carries (occasion, allergies, special request, notes).
 */
import { describe, expect, it } from "vitest";
import { setClock } from "../../worker/lib/clock";
import {
  book,
  createIn,
  dateInDays,
  expectInvalid,
  expectProblem,
  GUEST,
  newClient,
  type TestClient,
} from "./helpers";
import { guestOf, publicKeyOf } from "./public.fixtures";

/** Eight tables of four in one room, and Dinner 19:00-22:00 with the given service fields. */
async function restaurant(serviceFields: Record<string, unknown> = {}, client?: TestClient) {
  const c = client ?? (await newClient());
  const room = await createIn(c, "rooms", { name: "Main" });
  for (let i = 1; i <= 8; i++)
    await createIn(c, "tables", { name: `T${i}`, room_id: room.id, guests_max: 4 });
  const service = await createIn(c, "services", {
    name: "Dinner",
    start_hour: "19:00",
    end_hour: "22:00",
    ...serviceFields,
  });
  return { client: c, room, service, date: dateInDays(10) };
}

const setSettings = async (c: TestClient, settings: Record<string, unknown>) => {
  const res = await c.call(`/api/v2/properties/${c.propertyId}`, {
    method: "PUT",
    body: { settings },
    property: undefined,
  });
  expect(res.status, res.text).toBe(200);
};

/** Covers and parties arriving in [from, to) of a service, as the database holds them. */
async function arriving(c: TestClient, serviceId: number, date: string, from: string, to: string) {
  return (await c.d1
    .prepare(
      `SELECT count(*) AS parties, coalesce(sum(pax), 0) AS covers FROM reservations
       WHERE service_id = ? AND start_date = ? AND start_hour >= ? AND start_hour < ? AND status IN ('PREPAY', 'ACCEPTED', 'CONFIRMED')`,
    )
    .bind(serviceId, date, from, to)
    .first<{ parties: number; covers: number }>())!;
}

describe("pacing", () => {
  it("online bookings always obey it; staff obey it unless they say override_pacing, which the reservation shows", async () => {
    const r = await restaurant({ max_covers_per_interval: 4 });
    expect(
      (await book(r.client, { start_date: r.date, start_hour: "19:00", pax: 3, service_id: r.service.id }))
        .status,
    ).toBe(201);
    const online = await book(r.client, {
      start_date: r.date,
      start_hour: "19:00",
      pax: 2,
      service_id: r.service.id,
      channel: "PLATFORM_BOOK",
    });
    expectProblem(online, 403, "booking slot not available");
    expect(online.json.detail).toMatch(/^pacing: .*4 covers.*19:00 and 19:15/);
    expectProblem(
      await book(r.client, { start_date: r.date, start_hour: "19:10", pax: 2, service_id: r.service.id }),
      403,
      "booking slot not available",
    );
    expectInvalid(
      await book(r.client, {
        start_date: r.date,
        start_hour: "19:00",
        pax: 2,
        service_id: r.service.id,
        channel: "PLATFORM_BOOK",
        override_pacing: true,
      }),
      "override_pacing",
    );
    const over = await book(r.client, {
      start_date: r.date,
      start_hour: "19:10",
      pax: 2,
      service_id: r.service.id,
      override_pacing: true,
    });
    expect(over.status, over.text).toBe(201);
    expect(over.json.data[0].override_pacing).toBe(true);
    // the next interval is open, and a party of one fits nowhere in this one now
    expect(
      (await book(r.client, { start_date: r.date, start_hour: "19:15", pax: 4, service_id: r.service.id }))
        .status,
    ).toBe(201);
    expect(await arriving(r.client, r.service.id, r.date, "19:00", "19:15")).toEqual({
      parties: 2,
      covers: 5,
    });
  });

  it("a move into a full interval is refused like a booking, and a move within its own interval is not", async () => {
    const r = await restaurant({ max_parties_per_interval: 1, pacing_interval: 30 });
    const a = (await book(r.client, { start_date: r.date, start_hour: "19:00", service_id: r.service.id }))
      .json.data[0];
    const b = (await book(r.client, { start_date: r.date, start_hour: "19:30", service_id: r.service.id }))
      .json.data[0];
    expectProblem(
      await r.client.call(`/api/v2/reservations/${b.id}`, { method: "PUT", body: { start_hour: "19:15" } }),
      403,
      "booking slot not available",
    );
    expect(
      (await r.client.call(`/api/v2/reservations/${a.id}`, { method: "PUT", body: { start_hour: "19:20" } }))
        .status,
    ).toBe(200);
    expect(
      (
        await r.client.call(`/api/v2/reservations/${b.id}`, {
          method: "PUT",
          body: { start_hour: "19:15", override_pacing: true },
        })
      ).json.data[0],
    ).toMatchObject({ start_hour: "19:15:00", override_pacing: true });
  });

  it("counts a party at a group table once, with all its guests", async () => {
    const c = await newClient();
    const room = await createIn(c, "rooms", { name: "Main" });
    const t1 = await createIn(c, "tables", { name: "T1", room_id: room.id, guests_max: 2 });
    const t2 = await createIn(c, "tables", { name: "T2", room_id: room.id, guests_max: 2 });
    await createIn(c, "tables", { name: "T1+T2", room_id: room.id, group: true, table_ids: [t1.id, t2.id] });
    await createIn(c, "tables", { name: "T3", room_id: room.id, guests_max: 2 });
    await createIn(c, "tables", { name: "T4", room_id: room.id, guests_max: 3 });
    const service = await createIn(c, "services", {
      name: "Dinner",
      start_hour: "19:00",
      end_hour: "22:00",
      max_parties_per_interval: 2,
      max_covers_per_interval: 6,
    });
    const date = dateInDays(10);
    const party = await book(c, { start_date: date, start_hour: "20:00", pax: 4, service_id: service.id });
    expect(party.json.data[0].tables.map((t: { name: string }) => t.name)).toEqual(["T1+T2"]);
    // three tables held by one party: its four guests count (4 + 3 > 6), and it is one party (a second fits)
    expectProblem(
      await book(c, { start_date: date, start_hour: "20:05", pax: 3, service_id: service.id }),
      403,
      "booking slot not available",
    );
    expect(
      (await book(c, { start_date: date, start_hour: "20:05", pax: 2, service_id: service.id })).status,
    ).toBe(201);
    expectProblem(
      await book(c, { start_date: date, start_hour: "20:10", pax: 1, service_id: service.id }),
      403,
      "booking slot not available",
    );
  });

  it("parallel bookings cannot both pass it: the check and the insert are one statement", async () => {
    const r = await restaurant({ max_covers_per_interval: 4 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        book(r.client, { start_date: r.date, start_hour: "20:00", pax: 2, service_id: r.service.id }),
      ),
    );
    expect(results.map((x) => x.status).sort()).toEqual([201, 201, 403, 403, 403, 403, 403, 403]);
    for (const x of results.filter((y) => y.status === 403))
      expect(x.json.title).toBe("booking slot not available");
    expect(await arriving(r.client, r.service.id, r.date, "20:00", "20:15")).toEqual({
      parties: 2,
      covers: 4,
    });
  });

  it("the database refuses a write past the limit even when the engine is bypassed", async () => {
    const r = await restaurant({ max_parties_per_interval: 1 });
    await book(r.client, { start_date: r.date, start_hour: "19:00", service_id: r.service.id });
    const insert = (override: number) =>
      r.client.d1
        .prepare(
          `INSERT INTO reservations (property_id, service_id, start_date, start_hour, start_min, end_min, pax, status, channel, override_pacing)
           SELECT property_id, service_id, start_date, '19:05:00', start_min + 5, end_min + 5, 1, 'ACCEPTED', 'PLATFORM_ADMIN', ? FROM reservations WHERE service_id = ?`,
        )
        .bind(override, r.service.id)
        .run();
    await expect(insert(0)).rejects.toThrow(/pacing_full/);
    await insert(1);
  });
});

describe("the slots' reasons, for staff screens", () => {
  it("say pacing, full, closed, notice, window and party_size; the public listing stays as it was", async () => {
    const r = await restaurant({ max_parties_per_interval: 1 }, undefined);
    await setSettings(r.client, { max_days_ahead: 12, max_online_pax: 6 });
    await book(r.client, { start_date: r.date, start_hour: "19:00", service_id: r.service.id });
    // every table held from 21:00 (a party of 60 minutes is refused after 20:00), and closed from 21:30
    for (let i = 0; i < 8; i++)
      await book(r.client, {
        start_date: r.date,
        start_hour: "21:00",
        pax: 4,
        service_id: r.service.id,
        override_pacing: true,
      });
    await createIn(r.client, "closures", { start_date: r.date, start_hour: "21:30", end_hour: "22:30" });
    const slots = async (date: string, pax = 2) =>
      (await r.client.call(`/api/v2/bookings/slots?start_date=${date}&pax=${pax}&out_of_order=true`)).json
        .data[0].available_services[0].slots;
    const reasons = Object.fromEntries(
      (await slots(r.date)).map((s: { hour: string; reason?: string }) => [s.hour, s.reason]),
    );
    expect(reasons).toMatchObject({
      "19:00:00": "pacing",
      "19:15:00": undefined,
      "19:45:00": undefined,
      "20:00:00": undefined,
      "20:15:00": "full",
      "20:30:00": "full",
      "20:45:00": "closed",
      "21:30:00": "closed",
    });
    expect((await slots(dateInDays(-1)))[0].reason).toBe("notice");
    expect((await slots(dateInDays(13)))[0].reason).toBe("window");
    expect((await slots(dateInDays(11), 7))[0].reason).toBe("party_size");
    const open = (await slots(dateInDays(11)))[0];
    expect(open).toEqual({ hour: "19:00:00", disabled: false, free_tables: 8 });
    const publicDay = (await guestOf(await publicKeyOf(r.client)).call(`/slots?date=${r.date}&pax=2`)).json
      .data[0];
    // what a guest may see of a service: its times and what it asks to pay, never the staff's reasons
    expect(Object.keys(publicDay.services[0]).sort()).toEqual([
      "full_times",
      "name",
      "payment",
      "service_id",
      "start_hour",
      "times",
      "waiting_list",
    ]);
    // a time the kitchen's pacing holds is one the waiting list can take
    expect(publicDay.services[0].full_times).toContain("19:00:00");
  });
});

describe("closures over the whole stay", () => {
  it("refuse a party whose stay reaches into the closure, for guests and staff", async () => {
    const r = await restaurant();
    await createIn(r.client, "closures", { start_date: r.date, start_hour: "20:00", end_hour: "21:00" });
    // a stay is 60 minutes: 19:00 leaves at 20:00, 19:30 would still sit at 20:00
    expect(
      (await book(r.client, { start_date: r.date, start_hour: "19:00", service_id: r.service.id })).status,
    ).toBe(201);
    expectProblem(
      await book(r.client, { start_date: r.date, start_hour: "19:30", service_id: r.service.id }),
      403,
      "booking slot not available",
    );
    expectProblem(
      await book(r.client, {
        start_date: r.date,
        start_hour: "19:30",
        service_id: r.service.id,
        channel: "PLATFORM_BOOK",
      }),
      403,
      "booking slot not available",
    );
    const guest = guestOf(await publicKeyOf(r.client));
    const times = (await guest.call(`/slots?date=${r.date}&pax=2`)).json.data[0].services[0].times;
    expect(times).toContain("19:00:00");
    expect(times).not.toContain("19:15:00");
    expect(times).toContain("21:00:00");
  });
});

describe("a service past midnight, across both DST nights of Europe/Rome", () => {
  // 19:00 to 01:30 on Saturdays: the Sunday's 00:30 belongs to the Saturday.
  for (const [saturday, sunday, pinned] of [
    ["2026-10-24", "2026-10-25", "2026-10-10T10:00:00Z"],
    ["2027-03-27", "2027-03-28", "2027-03-13T10:00:00Z"],
  ] as const) {
    it(`lists, books and closes by the service day on ${saturday}`, async () => {
      setClock(pinned);
      try {
        const c = await newClient();
        await setSettings(c, { timezone: "Europe/Rome" });
        const room = await createIn(c, "rooms", { name: "Bar" });
        await createIn(c, "tables", { name: "B1", room_id: room.id, guests_max: 4 });
        await createIn(c, "tables", { name: "B2", room_id: room.id, guests_max: 2 });
        const late = await createIn(c, "services", {
          name: "Late",
          start_hour: "19:00",
          end_hour: "01:30",
          weekdays: [6],
        });
        const guest = guestOf(await publicKeyOf(c));

        const staffDay = (await c.call(`/api/v2/bookings/slots?start_date=${saturday}`)).json.data;
        expect(staffDay[0].day).toBe(saturday);
        expect(staffDay[0].available_services[0].available_slots.slice(-3)).toEqual([
          "01:00:00",
          "01:15:00",
          "01:30:00",
        ]);
        expect(staffDay[1].available_services).toEqual([]);
        const publicDay = (await guest.call(`/slots?date=${saturday}&pax=2`)).json.data[0].services[0];
        expect(publicDay).toMatchObject({ start_hour: "19:00:00" });
        expect(publicDay.times).toContain("00:30:00");

        // Friday's 00:30 on the Saturday is not this service's: Friday does not run it.
        expectProblem(
          await book(c, { start_date: saturday, start_hour: "00:30", service_id: late.id }),
          403,
          "service is not available",
        );
        const staff = await book(c, { start_date: sunday, start_hour: "00:30", pax: 3, service_id: late.id });
        expect(staff.status, staff.text).toBe(201);
        expect(staff.json.data[0]).toMatchObject({
          start_date: sunday,
          start_hour: "00:30:00",
          end_date: `${sunday}T01:30:00`,
        });
        const online = await guest.book({
          service_id: late.id,
          date: sunday,
          hour: "01:30",
          pax: 3,
          guest: GUEST,
        });
        expect(online.status, online.text).toBe(201);
        expect(online.json.data[0]).toMatchObject({ date: sunday, hour: "01:30:00", status: "ACCEPTED" });

        // A whole-day closure of the Sunday leaves the Saturday's night past midnight open; one of the Saturday closes it.
        const closure = await createIn(c, "closures", { start_date: sunday });
        expect(
          (await book(c, { start_date: sunday, start_hour: "00:00", pax: 2, service_id: late.id })).status,
        ).toBe(201);
        await c.call(`/api/v2/closures/${closure.id}`, {
          method: "PUT",
          body: { start_date: saturday, end_date: saturday },
        });
        const closed = await book(c, {
          start_date: sunday,
          start_hour: "01:15",
          pax: 2,
          service_id: late.id,
        });
        expectProblem(closed, 403, "booking slot not available");
        expect(closed.json.detail).toContain("closure");
      } finally {
        setClock(undefined);
      }
    });
  }
});

describe("the staff booking window", () => {
  it("refuses 9999-12-31 23:45, whose stay would end in year 10000, and anything past max_days_ahead_staff", async () => {
    const r = await restaurant({ start_hour: "00:00", end_hour: "23:45" });
    const far = await book(r.client, {
      start_date: "9999-12-31",
      start_hour: "23:45",
      service_id: r.service.id,
    });
    expectProblem(far, 403, "booking slot not available");
    expect(far.text).not.toContain("10000");
    expect(
      (await book(r.client, { start_date: dateInDays(730), start_hour: "12:00", service_id: r.service.id }))
        .status,
    ).toBe(201);
    expectProblem(
      await book(r.client, { start_date: dateInDays(732), start_hour: "12:00", service_id: r.service.id }),
      403,
      "booking slot not available",
    );
    await setSettings(r.client, { max_days_ahead_staff: 30 });
    expectProblem(
      await book(r.client, { start_date: dateInDays(32), start_hour: "12:00", service_id: r.service.id }),
      403,
      "booking slot not available",
    );
    const moved = (
      await book(r.client, { start_date: dateInDays(20), start_hour: "12:00", service_id: r.service.id })
    ).json.data[0];
    expectProblem(
      await r.client.call(`/api/v2/reservations/${moved.id}`, {
        method: "PUT",
        body: { start_day: "9999-12-31", start_hour: "23:45" },
      }),
      403,
      "booking slot not available",
    );
  });

  it("lists no day past 9999-12-31, for staff or guests", async () => {
    const r = await restaurant();
    const staff = await r.client.call("/api/v2/bookings/slots?start_date=9999-12-30");
    expect(staff.json.data.map((d: { day: string }) => d.day)).toEqual(["9999-12-30", "9999-12-31"]);
    const guest = await guestOf(await publicKeyOf(r.client)).call("/slots?date=9999-12-25&pax=2&days=14");
    expect(guest.status).toBe(200);
    expect(guest.json.data.at(-1).date).toBe("9999-12-31");
    expect(guest.text).not.toContain("10000-");
  });
});

describe("a group's seats follow its members", () => {
  it("unless set explicitly; null follows them again", async () => {
    const c = await newClient();
    const room = await createIn(c, "rooms", { name: "Main" });
    const t1 = await createIn(c, "tables", { name: "T1", room_id: room.id, guests_max: 2 });
    const t2 = await createIn(c, "tables", { name: "T2", room_id: room.id, guests_max: 4 });
    const t3 = await createIn(c, "tables", { name: "T3", room_id: room.id, guests_max: 2 });
    const group = await createIn(c, "tables", {
      name: "G",
      room_id: room.id,
      group: true,
      table_ids: [t1.id, t2.id],
    });
    const seats = async () => (await c.call(`/api/v2/tables/${group.id}`)).json.data[0].guests_max;
    expect(group.guests_max).toBe(6);
    await c.call(`/api/v2/tables/${t1.id}`, { method: "PUT", body: { guests_max: 3 } });
    expect(await seats()).toBe(7);
    const regrouped = await c.call(`/api/v2/tables/${group.id}`, {
      method: "PUT",
      body: { table_ids: [t1.id, t3.id] },
    });
    expect(regrouped.json.data[0].guests_max).toBe(5);
    await c.call(`/api/v2/tables/${group.id}`, { method: "PUT", body: { guests_max: 10 } });
    await c.call(`/api/v2/tables/${t3.id}`, { method: "PUT", body: { guests_max: 4 } });
    expect(await seats()).toBe(10);
    const follows = await c.call(`/api/v2/tables/${group.id}`, { method: "PUT", body: { guests_max: null } });
    expect(follows.json.data[0].guests_max).toBe(7);
    expectInvalid(
      await c.call(`/api/v2/tables/${t1.id}`, { method: "PUT", body: { guests_max: null } }),
      "guests_max",
    );
    // a group created with its seats set keeps them
    const fixed = await createIn(c, "tables", {
      name: "F",
      room_id: room.id,
      group: true,
      table_ids: [t1.id, t2.id],
      guests_max: 5,
    });
    await c.call(`/api/v2/tables/${t2.id}`, { method: "PUT", body: { guests_max: 6 } });
    expect((await c.call(`/api/v2/tables/${fixed.id}`)).json.data[0].guests_max).toBe(5);
    expect(await seats()).toBe(7);
  });
});

describe("what a reservation carries", () => {
  it("occasion, allergies, special request and staff notes, shown and changed; a bad occasion is a 400", async () => {
    const r = await restaurant();
    const made = await book(r.client, {
      start_date: r.date,
      service_id: r.service.id,
      occasion: "birthday",
      allergies: "peanuts",
      special_request: "a cake at 21:00",
      notes: "regular, likes T3",
    });
    expect(made.json.data[0]).toMatchObject({
      occasion: "birthday",
      allergies: "peanuts",
      special_request: "a cake at 21:00",
      notes: "regular, likes T3",
    });
    const id = made.json.data[0].id;
    const changed = await r.client.call(`/api/v2/reservations/${id}`, {
      method: "PUT",
      body: { occasion: "anniversary", allergies: null },
    });
    expect(changed.json.data[0].occasion).toBe("anniversary");
    expect(changed.json.data[0].allergies).toBeUndefined();
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history.at(-1).changes).toEqual({
      occasion: ["birthday", "anniversary"],
      allergies: ["peanuts", null],
    });
    expectInvalid(
      await book(r.client, { start_date: r.date, service_id: r.service.id, occasion: "wedding" }),
      "occasion",
    );
  });

  it("online: the guest's occasion, allergies and request reach staff; staff notes never reach the guest", async () => {
    const r = await restaurant();
    const guest = guestOf(await publicKeyOf(r.client));
    const made = await guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:00",
      pax: 2,
      guest: GUEST,
      occasion: "date",
      allergies: "gluten",
      special_request: "by the window",
    });
    expect(made.json.data[0]).toMatchObject({
      occasion: "date",
      allergies: "gluten",
      special_request: "by the window",
      notes: "by the window",
    });
    const id = (await r.client.call(`/api/v2/reservations?start_date=${r.date}`)).json.data[0].id;
    const staff = (
      await r.client.call(`/api/v2/reservations/${id}`, {
        method: "PUT",
        body: { notes: "VIP: the chef's friend" },
      })
    ).json.data[0];
    expect(staff).toMatchObject({
      occasion: "date",
      allergies: "gluten",
      special_request: "by the window",
      notes: "VIP: the chef's friend",
    });
    const read = await guest.call(`/manage/${made.json.data[0].manage_token}`);
    expect(read.json.data[0]).toMatchObject({ special_request: "by the window", notes: "by the window" });
    expect(read.text).not.toContain("chef's friend");
  });
});
