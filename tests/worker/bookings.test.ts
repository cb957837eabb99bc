/** /bookings/slots, /bookings/rooms and the booking links, with the API's error rows. */
import { beforeAll, describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { addDays, localMinutes } from "../../worker/lib/localtime";
import {
  book,
  createIn,
  dateInDays,
  expectProblem,
  insertReservation,
  newClient,
  seedRestaurant,
  type TestClient,
} from "./helpers";
import { guestOf, listed, publicKeyOf } from "./public.fixtures";

let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
});

const slots = (c: TestClient, query: string) => c.call(`/api/v2/bookings/slots?${query}`);
const rooms = (c: TestClient, query: string) => c.call(`/api/v2/bookings/rooms?${query}`);

describe("GET /bookings/slots", () => {
  it("answers 7 days from start_date, each with its services and times (the API's shape plus slots[])", async () => {
    const res = await slots(client, `start_date=${r.date}&pax=2`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.map((d: { day: string }) => d.day)).toEqual(
      Array.from({ length: 7 }, (_, i) => dateInDays(10 + i)),
    );
    const dinner = res.json.data[0].available_services[0];
    expect(dinner).toMatchObject({ id: r.service.id, title: "Dinner" });
    expect(dinner.available_slots[0]).toBe("19:00:00");
    expect(dinner.available_slots).toHaveLength(13); // 19:00 .. 22:00 every 15 minutes
    expect(dinner.slots[0]).toEqual({ hour: "19:00:00", disabled: false, free_tables: 3 }); // T1, T2 and the group
  });

  it("without start_date lists from today in the property's zone, as start_date of that day does", async () => {
    // One instant for both requests: a time of today leaves the listing once it has passed.
    setClock(new Date(now()).toISOString());
    try {
      const implicit = await slots(client, "pax=2");
      expect(implicit.status, implicit.text).toBe(200);
      const explicit = await slots(client, `start_date=${implicit.json.data[0].day}&pax=2`);
      expect(explicit.json.data).toEqual(implicit.json.data);
    } finally {
      setClock(undefined);
    }
  });

  it("takes a datetime and uses its date part", async () => {
    const res = await slots(client, `start_date=${r.date}T10:00:00&pax=2`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0].day).toBe(r.date);
  });

  it("drops times whose every fitting table is held", async () => {
    const date = dateInDays(30);
    await book(client, { start_date: date, start_hour: "20:00", pax: 6, service_id: r.service.id });
    const day = (await slots(client, `start_date=${date}&pax=2`)).json.data[0].available_services[0];
    // the group holds T1 and T2 from 20:00 to 21:00: a 60-minute party cannot start after 19:00 up to 20:45
    // (one at 19:00 leaves as the group arrives)
    expect(day.available_slots).toEqual([
      "19:00:00",
      "21:00:00",
      "21:15:00",
      "21:30:00",
      "21:45:00",
      "22:00:00",
    ]);
    expect(day.slots.find((s: { hour: string }) => s.hour === "20:00:00")).toEqual({
      hour: "20:00:00",
      disabled: false,
      free_tables: 0,
      reason: "full",
    });
  });

  it("filters by service_id", async () => {
    const lunch = await createIn(client, "services", {
      name: "Lunch",
      start_hour: "12:00",
      end_hour: "13:00",
    });
    const all = (await slots(client, `start_date=${r.date}&pax=2`)).json.data[0].available_services;
    expect(all.map((s: { id: number }) => s.id)).toEqual([r.service.id, lunch.id]);
    const one = (await slots(client, `start_date=${r.date}&pax=2&service_id=${lunch.id}`)).json.data[0]
      .available_services;
    expect(one.map((s: { id: number }) => s.id)).toEqual([lunch.id]);
    await client.call(`/api/v2/services/${lunch.id}`, { method: "DELETE" });
  });

  it("out_of_order: absent ignores closures, true or 1 disables fully closed times", async () => {
    const date = dateInDays(40);
    await createIn(client, "closures", { start_date: date, start_hour: "19:00", end_hour: "20:00" });
    const ignored = (await slots(client, `start_date=${date}&pax=2`)).json.data[0].available_services[0];
    expect(ignored.available_slots[0]).toBe("19:00:00");
    expect(ignored.slots.some((s: { disabled: boolean }) => s.disabled)).toBe(false);
    for (const flag of ["true", "1"]) {
      const honoured = (await slots(client, `start_date=${date}&pax=2&out_of_order=${flag}`)).json.data[0]
        .available_services[0];
      expect(honoured.available_slots[0]).toBe("20:00:00");
      expect(honoured.slots.filter((s: { disabled: boolean }) => s.disabled)).toHaveLength(4);
    }
  });

  it("shows nothing for a party larger than the online limit or any table", async () => {
    const day = (await slots(client, `start_date=${r.date}&pax=7`)).json.data[0].available_services[0];
    expect(day.available_slots).toEqual([]);
  });

  it("refuses bad queries with 400", async () => {
    for (const q of [
      "start_date=2026-02-30",
      "start_date=tomorrow",
      "pax=0",
      "pax=abc",
      "pax=1001",
      "service_id=x",
      "out_of_order=maybe",
    ]) {
      expectProblem(await slots(client, q), 400, "invalid input data");
    }
  });

  describe("the API's errors", () => {
    it("403 service forbidden: a disabled service", async () => {
      const off = await createIn(client, "services", {
        name: "Closed",
        start_hour: "12:00",
        end_hour: "13:00",
        enabled: false,
      });
      expectProblem(await slots(client, `service_id=${off.id}`), 403, "service forbidden");
    });
    it("404 service not found", async () => {
      expectProblem(await slots(client, "service_id=999999999"), 404, "service not found");
    });
    it("404 property not found", async () => {
      expectProblem(
        await client.call("/api/v2/bookings/slots", { property: 999999999 }),
        404,
        "property not found",
      );
    });
    it("406 no service available", async () => {
      const bare = await newClient();
      await createIn(bare, "rooms", { name: "Main" });
      expectProblem(await slots(bare, ""), 406, "no service available");
    });
    it("406 no room available", async () => {
      const bare = await newClient();
      await createIn(bare, "services", { name: "Dinner", start_hour: "19:00", end_hour: "22:00" });
      expectProblem(await slots(bare, ""), 406, "no room available");
    });
  });
});

describe("the engine's catalog cache", () => {
  it("sees every catalog change at once: tables, group members, services, rooms", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const listing = async () => {
      const res = await slots(c, `start_date=${s.date}&pax=2`);
      if (res.status !== 200) throw new Error(res.text);
      return res.json.data[0].available_services;
    };
    const first = async () => (await listing())[0].slots[0];
    expect((await first()).free_tables).toBe(3);
    await createIn(c, "tables", { name: "T3", room_id: s.room.id, guests_max: 2 });
    expect((await first()).free_tables).toBe(4);
    await c.call(`/api/v2/tables/${s.t1.id}`, { method: "PUT", body: { online: false } });
    expect((await first()).free_tables).toBe(3);
    await c.call(`/api/v2/services/${s.service.id}`, { method: "PUT", body: { end_hour: "20:00" } });
    expect((await listing())[0].available_slots.at(-1)).toBe("20:00:00");
    await c.call(`/api/v2/rooms/${s.room.id}`, { method: "PUT", body: { bookable: false } });
    expectProblem(await slots(c, `start_date=${s.date}&pax=2`), 406, "no room available");
  });
});

describe("the slot listing's caches (holds by holds_version, listings by the minute)", () => {
  const at = (days: Awaited<ReturnType<typeof listingOf>>, hour: string) =>
    days[0].available_services[0].slots.find((x: { hour: string }) => x.hour === hour);
  async function listingOf(c: TestClient, date: string, extra = "") {
    const res = await slots(c, `start_date=${date}&pax=2${extra}`);
    if (res.status !== 200) throw new Error(res.text);
    return res.json.data;
  }

  it("shows a booking, its cancellation and a hold written straight to the shard the next time it is asked", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    expect(at(await listingOf(c, s.date), "19:00:00")).toEqual({
      hour: "19:00:00",
      disabled: false,
      free_tables: 3,
    });
    const booked = await book(c, {
      start_date: s.date,
      start_hour: "19:00",
      pax: 2,
      service_id: s.service.id,
    });
    expect(booked.status, booked.text).toBe(201);
    // T1 taken: the group of T1 and T2 with it, T2 left
    expect(at(await listingOf(c, s.date), "19:00:00")).toEqual({
      hour: "19:00:00",
      disabled: false,
      free_tables: 1,
    });
    await c.call(`/api/v2/reservations/${booked.json.data[0].id}`, { method: "DELETE" });
    expect(at(await listingOf(c, s.date), "19:00:00")).toEqual({
      hour: "19:00:00",
      disabled: false,
      free_tables: 3,
    });
    // the guest's widget lists from the same holds cache (its holds_version read in its own batch)
    const guest = guestOf(await publicKeyOf(c));
    expect(await listed(guest, s.date, 4)).toContain("20:00:00");
    // no API call: only the trigger's holds_version tells the isolate its holds are old
    await insertReservation(c.propertyId, { date: s.date, tableIds: [s.t2.id] });
    expect(at(await listingOf(c, s.date), "20:00:00")).toEqual({
      hour: "20:00:00",
      disabled: false,
      free_tables: 1,
    });
    // T2 and the group held at 20:00: nothing left that seats four
    expect(await listed(guest, s.date, 4)).not.toContain("20:00:00");
    const version = async () =>
      (await c.d1
        .prepare("SELECT holds_version AS v FROM properties WHERE id = ?")
        .bind(c.propertyId)
        .first<{ v: number }>())!.v;
    const before = await version();
    await c.d1.prepare("DELETE FROM reservation_tables WHERE table_id = ?").bind(s.t2.id).run();
    expect(await version()).toBe(before + 1);
    expect(at(await listingOf(c, s.date), "20:00:00")).toEqual({
      hour: "20:00:00",
      disabled: false,
      free_tables: 3,
    });
  });

  it("works the listing out from the database when asked Cache-Control: no-cache", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    expect(at(await listingOf(c, s.date), "20:00:00")?.free_tables).toBe(3);
    // a hold whose version bump is undone: only a read that bypasses the caches can see it
    await insertReservation(c.propertyId, { date: s.date, tableIds: [s.t2.id] });
    await c.d1
      .prepare("UPDATE properties SET holds_version = holds_version - 1 WHERE id = ?")
      .bind(c.propertyId)
      .run();
    expect(at(await listingOf(c, s.date), "20:00:00")?.free_tables).toBe(3);
    const fresh = await c.call(`/api/v2/bookings/slots?start_date=${s.date}&pax=2`, {
      headers: { "Cache-Control": "no-cache" },
    });
    expect(at(fresh.json.data, "20:00:00")?.free_tables).toBe(1);
  });

  it("reads the holds a longer stay reaches once the settings lengthen it, though the isolate learnt a shorter reach", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const last = addDays(s.date, 6);
    const lastSlot = (days: Awaited<ReturnType<typeof listingOf>>) =>
      days[6].available_services[0].slots.find((x: { hour: string }) => x.hour === "22:00:00");
    // the first listing teaches the isolate how far a party listed on a day reaches: 22:00 plus an hour's stay (and a clock change)
    expect(lastSlot(await listingOf(c, s.date))?.free_tables).toBe(3);
    // every table held from 02:45 after the last day: past that reach, inside the one of a five-hour stay
    const start = localMinutes(addDays(last, 1), "02:45");
    const id = await insertReservation(c.propertyId, { date: addDays(last, 1), tableIds: [] });
    for (const t of [s.t1.id, s.t2.id]) {
      await c.d1
        .prepare(
          "INSERT INTO reservation_tables (reservation_id, table_id, start_min, end_min) VALUES (?, ?, ?, ?)",
        )
        .bind(id, t, start, start + 60)
        .run();
    }
    const put = await c.call(`/api/v2/properties/${c.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { settings: { average_stay: 300 } },
    });
    expect(put.status, put.text).toBe(200);
    // 22:00 to 03:00 overlaps the hold: full, on the fresh read as on the plain one
    expect(lastSlot(await listingOf(c, s.date))).toEqual({
      hour: "22:00:00",
      disabled: false,
      free_tables: 0,
      reason: "full",
    });
    const fresh = await c.call(`/api/v2/bookings/slots?start_date=${s.date}&pax=2`, {
      headers: { "Cache-Control": "no-cache" },
    });
    expect(lastSlot(fresh.json.data)).toEqual({
      hour: "22:00:00",
      disabled: false,
      free_tables: 0,
      reason: "full",
    });
  });

  it("drops a time the minute it passes, with nothing written in between", async () => {
    const date = dateInDays(10);
    // the clock pinned before the client exists, so its token is valid at the pinned instants
    setClock(`${date}T19:15:59Z`); // UTC: the property's zone by default; a time is bookable through its own minute
    try {
      const c = await newClient();
      await seedRestaurant(c);
      expect(at(await listingOf(c, date), "19:15:00")).toEqual({
        hour: "19:15:00",
        disabled: false,
        free_tables: 3,
      });
      setClock(`${date}T19:16:00Z`);
      expect(at(await listingOf(c, date), "19:15:00")).toEqual({
        hour: "19:15:00",
        disabled: false,
        free_tables: 0,
        reason: "notice",
      });
    } finally {
      setClock(undefined);
    }
  });

  it("answers what the uncached path answers, with closures ignored or honoured", async () => {
    const date = dateInDays(10);
    setClock(`${date}T08:00:00Z`);
    try {
      const c = await newClient();
      const s = await seedRestaurant(c);
      await book(c, { start_date: date, start_hour: "20:00", pax: 4, service_id: s.service.id });
      await createIn(c, "closures", { start_date: date, start_hour: "21:00", end_hour: "22:00" });
      for (const extra of ["", "&out_of_order=true"]) {
        const twice = [await listingOf(c, date, extra), await listingOf(c, date, extra)];
        expect(twice[1]).toEqual(twice[0]);
        // without start_date the listing reads its holds after the property row, never from the listing cache
        const uncached = await slots(c, `pax=2${extra}`);
        expect(uncached.json.data, uncached.text).toEqual(twice[0]);
        expect(at(twice[0], "20:00:00")).toEqual({ hour: "20:00:00", disabled: false, free_tables: 1 });
        expect(at(twice[0], "21:00:00")).toEqual(
          extra
            ? { hour: "21:00:00", disabled: true, free_tables: 0, reason: "closed" }
            : { hour: "21:00:00", disabled: false, free_tables: 3 },
        );
      }
    } finally {
      setClock(undefined);
    }
  });
});

describe("GET /bookings/rooms", () => {
  it("answers one array of rooms, each with all its tables, free and best choice marked", async () => {
    const date = dateInDays(50);
    await book(client, {
      start_date: date,
      start_hour: "20:00",
      service_id: r.service.id,
      table_ids: [r.t1.id],
    });
    const res = await rooms(client, `start_date=${date}&start_hour=20:30:00&pax=2&best_choice=true`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toHaveLength(1);
    const [room] = res.json.data[0];
    expect(room).toMatchObject({
      id: r.room.id,
      property_id: client.propertyId,
      name: "Main",
      bookable: true,
    });
    const byId = Object.fromEntries(room.tables.map((t: { id: number }) => [t.id, t]));
    expect(byId[r.t1.id]).toMatchObject({
      free: false,
      best_choice: false,
      guests_min: 1,
      guests_max: 2,
      group: false,
      online: true,
      bookable: true,
      closed: false,
    });
    expect(byId[r.t2.id]).toMatchObject({ free: true, best_choice: true });
    expect(byId[r.group.id]).toMatchObject({ free: false, group: true, table_ids: [r.t1.id, r.t2.id] });
  });

  it("marks no best choice unless asked", async () => {
    const res = await rooms(client, `start_date=${r.date}&start_hour=20:00&pax=2`);
    expect(res.json.data[0][0].tables.every((t: { best_choice: boolean }) => !t.best_choice)).toBe(true);
  });

  describe("the API's errors", () => {
    it("403 service forbidden", async () => {
      const off = await createIn(client, "services", {
        name: "Off",
        start_hour: "19:00",
        end_hour: "22:00",
        enabled: false,
      });
      expectProblem(
        await rooms(client, `start_date=${r.date}&start_hour=20:00&pax=2&service_id=${off.id}`),
        403,
        "service forbidden",
      );
    });
    it("404 service not found", async () => {
      expectProblem(
        await rooms(client, `start_date=${r.date}&start_hour=20:00&pax=2&service_id=999999999`),
        404,
        "service not found",
      );
    });
    it("404 property not found", async () => {
      expectProblem(
        await client.call(`/api/v2/bookings/rooms?start_date=${r.date}&start_hour=20:00&pax=2`, {
          property: 999999999,
        }),
        404,
        "property not found",
      );
    });
    it("406 no service available at that time", async () => {
      expectProblem(
        await rooms(client, `start_date=${r.date}&start_hour=08:00&pax=2`),
        406,
        "no service available",
      );
    });
    it("206 no room available: no table seats the party", async () => {
      expectProblem(
        await rooms(client, `start_date=${r.date}&start_hour=20:00&pax=40`),
        206,
        "no room available",
      );
    });
    it("400 without the required query", async () => {
      expectProblem(await rooms(client, ""), 400, "invalid input data");
    });
  });
});

describe("GET /bookings/list and /bookings/links", () => {
  it("answers the three hosted pages of the property, by its public key", async () => {
    const property = (await client.call(`/api/v2/properties/${client.propertyId}`)).json.data[0];
    for (const p of ["list", "links"]) {
      const res = await client.call(`/api/v2/bookings/${p}`);
      expect(res.status).toBe(200);
      expect(res.json.data).toEqual([
        { name: "BOOKING_ENGINE_PAGE", link: `https://api.test/p/${property.public_key}/book` },
        { name: "SERVICES_PAGE", link: `https://api.test/p/${property.public_key}/services` },
        { name: "WELCOME_PAGE", link: `https://api.test/p/${property.public_key}` },
      ]);
    }
  });
});

describe("a group with a deleted member", () => {
  it("is not offered (its holds would name a deleted table)", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    // what a race between deleting a member and creating the group can leave behind
    await c.d1.prepare("UPDATE dining_tables SET deleted_at = '2000-01-01' WHERE id = ?").bind(s.t1.id).run();
    const res = await rooms(c, `start_date=${s.date}&start_hour=20:00&pax=4&best_choice=true`);
    const group = res.json.data[0][0].tables.find((t: { id: number }) => t.id === s.group.id);
    expect(group).toMatchObject({ bookable: false, best_choice: false });
    const party = await book(c, { start_date: s.date, pax: 6, service_id: s.service.id });
    expectProblem(party, 403, "room capacity has been exceeded");
  });
});
