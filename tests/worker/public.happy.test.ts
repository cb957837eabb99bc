/** The public widget API as a guest uses it: profile, services, slots, booking, the manage link. */
import { describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { sha256Hex } from "../../worker/lib/crypto";
import { book, dateInDays, expectProblem, GUEST as STAFF_GUEST } from "./helpers";
import { GRID, GUEST, guestOf, listed, smallRestaurant } from "./public.fixtures";

const zoneDate = (timeZone: string, ms = now()) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    ms,
  );
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe("GET /public/{public_key}", () => {
  it("answers the profile with the settings and the bookable dates in the restaurant's zone", async () => {
    const zone = "Pacific/Kiritimati"; // UTC+14: its date is often not the UTC date
    const r = await smallRestaurant({
      timezone: zone,
      locale: "it",
      min_notice: 2 * 1440,
      max_days_ahead: 30,
      cancel_notice: 90,
      max_online_pax: 6,
      welcome_message: "Benvenuti!",
      accent_color: "#9c2f2f",
      photos: ["https://img.example/1.jpg"],
    });
    const res = await r.guest.call("");
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    const today = zoneDate(zone);
    expect(res.json.data[0]).toEqual({
      public_key: r.publicKey,
      name: "Small Trattoria",
      welcome_message: "Benvenuti!",
      logo_url: null,
      photos: ["https://img.example/1.jpg"],
      accent_color: "#9c2f2f",
      timezone: zone,
      locale: "it",
      max_online_pax: 6,
      first_date: zoneDate(zone, now() + 2 * 86_400_000),
      last_date: plusDays(today, 30),
      cancel_notice: 90,
      offer_minutes: 15,
      address: null,
      position: null,
      phone: null,
      website: null,
    });
  });

  it("tells guests where the restaurant is: address, position for a map, phone and website", async () => {
    const r = await smallRestaurant();
    const put = await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: {
        phone: "+39 06 5550123",
        website: "https://small.example",
        position: {
          latitude: 41.9,
          longitude: 12.5,
          address: "Via Appia 7",
          city: "Roma",
          zip: "00184",
          country: "IT",
        },
      },
    });
    expect(put.status, put.text).toBe(200);
    const res = await r.guest.call("");
    expect(res.json.data[0]).toMatchObject({
      address: { street: "Via Appia 7", city: "Roma", zip: "00184", country: "IT" },
      position: { latitude: 41.9, longitude: 12.5 },
      phone: "+39 06 5550123",
      website: "https://small.example",
    });
  });

  it("answers the restaurant's own texts in the asked locale, falling back to the defaults", async () => {
    const r = await smallRestaurant({ welcome_message: "Welcome!" });
    const lunch = (
      await r.client.call("/api/v2/services", {
        body: { name: "Lunch", description: "Daily menu", start_hour: "12:00", end_hour: "13:00" },
      })
    ).json.data[0];
    const translations = {
      it: {
        welcome_message: "Benvenuti!",
        services: {
          [r.service.id]: { name: "Cena", description: "Forno a legna" },
          [lunch.id]: { description: "Menù del giorno" },
        },
      },
      de: { services: { [lunch.id]: { name: "Mittagessen" } } },
    };
    const put = await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { settings: { translations } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.data[0].settings.translations).toEqual(translations);

    expect((await r.guest.call("?locale=it")).json.data[0].welcome_message).toBe("Benvenuti!");
    expect((await r.guest.call("?locale=de")).json.data[0].welcome_message).toBe("Welcome!");
    expect((await r.guest.call("")).json.data[0].welcome_message).toBe("Welcome!");
    const names = async (q: string) =>
      (await r.guest.call(`/services${q}`)).json.data.map((s: { name: string; description: string }) => [
        s.name,
        s.description,
      ]);
    expect(await names("?locale=it")).toEqual([
      ["Cena", "Forno a legna"],
      ["Lunch", "Menù del giorno"],
    ]);
    expect(await names("?locale=de")).toEqual([
      ["Dinner", "Wood-fired oven"],
      ["Mittagessen", "Daily menu"],
    ]);
    expect(await names("")).toEqual([
      ["Dinner", "Wood-fired oven"],
      ["Lunch", "Daily menu"],
    ]);
    const slots = await r.guest.call(`/slots?date=${r.date}&pax=2&locale=it`);
    expect(slots.json.data[0].services.map((s: { name: string }) => s.name)).toEqual(["Cena", "Lunch"]);
    expect((await r.guest.call("?locale=xx")).status).toBe(400);
  });

  it("refuses translations that are not texts per known locale", async () => {
    const r = await smallRestaurant();
    const bad = await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { settings: { translations: { xx: { welcome_message: "?" } } } },
    });
    expect(bad.status).toBe(400);
    const badId = await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { settings: { translations: { it: { services: { dinner: { name: "Cena" } } } } } },
    });
    expect(badId.status).toBe(400);
  });
});

describe("GET /public/{public_key}/services", () => {
  it("lists only enabled online services that are not deleted, with description and image", async () => {
    const r = await smallRestaurant({ max_online_pax: 6 });
    const mk = (body: Record<string, unknown>) =>
      r.client.call("/api/v2/services", { body: { start_hour: "12:00", end_hour: "14:00", ...body } });
    await mk({ name: "Staff only", online: false });
    await mk({ name: "Switched off", enabled: false });
    const gone = (await mk({ name: "Deleted" })).json.data[0];
    expect((await r.client.call(`/api/v2/services/${gone.id}`, { method: "DELETE" })).status).toBe(200);
    await mk({ name: "Over", valid_to: dateInDays(-3) });
    const lunch = (await mk({ name: "Lunch", pax_min: 2, pax_max: 20, weekdays: [6, 7] })).json.data[0];

    const res = await r.guest.call("/services");
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      {
        id: r.service.id,
        name: "Dinner",
        description: "Wood-fired oven",
        image_url: "https://img.example/dinner.jpg",
        pax_min: 1,
        pax_max: 6,
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        start_hour: "19:00:00",
        end_hour: "20:00:00",
        payment: null,
      },
      {
        id: lunch.id,
        name: "Lunch",
        description: null,
        image_url: null,
        pax_min: 2,
        pax_max: 6,
        weekdays: [6, 7],
        start_hour: "12:00:00",
        end_hour: "14:00:00",
        payment: null,
      },
    ]);
  });
});

describe("GET /public/{public_key}/slots", () => {
  it("offers exactly the times a booking accepts, until the restaurant is booked out", async () => {
    const r = await smallRestaurant();
    let offered = await listed(r.guest, r.date, 2);
    expect(offered).toEqual(GRID);
    const booked: string[] = [];
    while (offered.length) {
      // Every time not offered is refused, and refusing writes nothing.
      for (const hour of GRID.filter((h) => !offered.includes(h))) {
        expectProblem(
          await r.guest.book({ service_id: r.service.id, date: r.date, hour, pax: 2, guest: GUEST }),
          409,
          "time no longer available",
        );
      }
      const hour = offered[0]!;
      const res = await r.guest.book({ service_id: r.service.id, date: r.date, hour, pax: 2, guest: GUEST });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data[0].status).toBe("ACCEPTED");
      booked.push(hour);
      const next = await listed(r.guest, r.date, 2);
      expect(next).not.toContain(hour);
      offered = next;
    }
    // One table, a stay of 60 minutes: 19:00 and 20:00.
    expect(booked).toEqual(["19:00:00", "20:00:00"]);
  });

  it("hides the times a closure covers, and the booking refuses them too", async () => {
    const r = await smallRestaurant();
    const closure = await r.client.call("/api/v2/closures", {
      body: { start_date: r.date, start_hour: "19:00", end_hour: "19:30", reason: "private event" },
    });
    expect(closure.status).toBe(201);
    expect(await listed(r.guest, r.date, 2)).toEqual(["19:30:00", "19:45:00", "20:00:00"]);
    expectProblem(
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:15", pax: 2, guest: GUEST }),
      409,
      "time no longer available",
    );
    // The integrator's listing ignores closures unless out_of_order=true; the guest's never does.
    const integrator = await r.client.call(`/api/v2/bookings/slots?start_date=${r.date}&pax=2`);
    expect(integrator.json.data[0].available_services[0].available_slots).toContain("19:00:00");
  });

  it("drops a time once it is full", async () => {
    const r = await smallRestaurant();
    const staff = await book(r.client, {
      start_date: r.date,
      start_hour: "19:30:00",
      service_id: r.service.id,
    });
    expect(staff.status).toBe(201);
    // A stay of 60 around 19:30 blocks 18:31..20:29 for a party of 60.
    expect(await listed(r.guest, r.date, 2)).toEqual([]);
    const next = await listed(r.guest, dateInDays(11), 2);
    expect(next).toEqual(GRID);
  });

  it("lists several days at once, per service, with the waiting-list flag", async () => {
    const r = await smallRestaurant();
    await book(r.client, { start_date: r.date, start_hour: "19:00:00", service_id: r.service.id });
    const res = await r.guest.call(`/slots?date=${r.date}&pax=2&days=3`);
    expect(res.status).toBe(200);
    expect(res.json.data.map((d: { date: string }) => d.date)).toEqual([
      r.date,
      plusDays(r.date, 1),
      plusDays(r.date, 2),
    ]);
    expect(res.json.data[0].services).toEqual([
      {
        service_id: r.service.id,
        name: "Dinner",
        start_hour: "19:00:00",
        times: ["20:00:00"],
        waiting_list: true,
        full_times: ["19:00:00", "19:15:00", "19:30:00", "19:45:00"],
        payment: null,
      },
    ]);
    expect(res.json.data[1].services).toEqual([
      {
        service_id: r.service.id,
        name: "Dinner",
        start_hour: "19:00:00",
        times: GRID,
        waiting_list: false,
        full_times: [],
        payment: null,
      },
    ]);
  });

  it("without a date, lists from the first day bookable online: the profile's first_date, asked beside it", async () => {
    const r = await smallRestaurant();
    const profile = (await r.guest.call("")).json.data[0];
    const res = await r.guest.call("/slots?pax=2&days=2");
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.map((d: { date: string }) => d.date)).toEqual([
      profile.first_date,
      plusDays(profile.first_date, 1),
    ]);
    const dated = await r.guest.call(`/slots?date=${profile.first_date}&pax=2&days=2`);
    expect(res.json.data).toEqual(dated.json.data);
  });

  it("a closed day has nothing to wait for either", async () => {
    const r = await smallRestaurant();
    await r.client.call("/api/v2/closures", { body: { start_date: r.date, reason: "holiday" } });
    const res = await r.guest.call(`/slots?date=${r.date}&pax=2`);
    expect(res.json.data[0].services).toEqual([
      {
        service_id: r.service.id,
        name: "Dinner",
        start_hour: "19:00:00",
        times: [],
        waiting_list: false,
        full_times: [],
        payment: null,
      },
    ]);
    const waiting = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:00",
      pax: 2,
      guest: GUEST,
      waiting_list: true,
    });
    expectProblem(waiting, 409, "time no longer available");
  });

  it("offers nothing to a party no online table seats, and nothing in the past", async () => {
    const r = await smallRestaurant();
    expect(await listed(r.guest, r.date, 3)).toEqual([]);
    expect(await listed(r.guest, dateInDays(-2), 2)).toEqual([]);
  });
});

describe("POST /public/{public_key}/reservations", () => {
  it("books on channel PLATFORM_BOOK and answers what the guest typed, with a manage link", async () => {
    const r = await smallRestaurant({ cancel_notice: 60 });
    const res = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:30",
      pax: 2,
      guest: { ...GUEST, email: "  Ada@Example.com " },
      notes: "window seat",
      locale: "en",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const b = res.json.data[0];
    expect(b).toEqual({
      status: "ACCEPTED",
      date: r.date,
      hour: "19:30:00",
      pax: 2,
      service: { id: r.service.id, name: "Dinner" },
      guest: { ...GUEST, email: "Ada@Example.com" },
      // the guest's words are a special request, under its earlier name too
      notes: "window seat",
      special_request: "window seat",
      occasion: null,
      allergies: null,
      restaurant: { name: "Small Trattoria", timezone: "UTC" },
      cancellable_until: `${r.date}T18:30:00.000Z`,
      arrived: false,
      waiting_until: null,
      payment: null,
      manage_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      // The guest's language follows them to the manage page.
      manage_url: `https://api.test/p/${r.publicKey}/manage/${b.manage_token}?locale=en`,
    });

    const list = await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`);
    expect(list.json.data).toHaveLength(1);
    const id = list.json.data[0].id;
    const stored = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(stored).toMatchObject({
      channel: "PLATFORM_BOOK",
      status: "ACCEPTED",
      pax: 2,
      start_hour: "19:30:00",
      special_request: "window seat",
    });
    // notes are the staff's own
    expect(stored.notes).toBeUndefined();
    expect(stored.tables.map((t: { id: number }) => t.id)).toEqual([r.table.id]);
    expect(stored.customer).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      phone: GUEST.phone,
    });
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history[0]).toMatchObject({ actor: "guest", action: "created" });
    // Only the token's hash is kept.
    const row = await r.client.d1
      .prepare("SELECT manage_token_hash FROM reservations WHERE id = ?")
      .bind(id)
      .first<{ manage_token_hash: string }>();
    expect(row!.manage_token_hash).toBe(await sha256Hex(b.manage_token));
  });

  it("picks the service from the time when service_id is absent", async () => {
    const r = await smallRestaurant();
    const lunch = (
      await r.client.call("/api/v2/services", {
        body: { name: "Lunch", start_hour: "12:00", end_hour: "14:00" },
      })
    ).json.data[0];
    const res = await r.guest.book({ date: r.date, hour: "12:30", pax: 2, guest: GUEST });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data[0].service).toEqual({ id: lunch.id, name: "Lunch" });
  });

  it("waiting_list: WAITING only when the time is full, a normal booking when it is free", async () => {
    const r = await smallRestaurant();
    const free = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:00",
      pax: 2,
      guest: GUEST,
      waiting_list: true,
    });
    expect(free.status).toBe(201);
    expect(free.json.data[0].status).toBe("ACCEPTED");
    // 19:15 is now a full time: listed as one the waiting list takes.
    const day = (await r.guest.call(`/slots?date=${r.date}&pax=2`)).json.data[0].services[0];
    expect(day.full_times).toContain("19:15:00");
    expect(day.times).not.toContain("19:15:00");
    const full = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:15",
      pax: 2,
      guest: { ...GUEST, email: "bob@example.com" },
      waiting_list: true,
    });
    expect(full.status, full.text).toBe(201);
    expect(full.json.data[0].status).toBe("WAITING");
    // A waiting party holds nothing: 20:00 stays on offer.
    expect(await listed(r.guest, r.date, 2)).toEqual(["20:00:00"]);
  });

  it("does not offer a service that asks for prepayment: the widget takes no payment", async () => {
    const r = await smallRestaurant();
    const prepaid = (
      await r.client.call("/api/v2/services", {
        body: { name: "Tasting menu", start_hour: "19:00", end_hour: "20:00", prepayment_window: 60 },
      })
    ).json.data[0];
    expect((await r.guest.call("/services")).json.data.map((s: { name: string }) => s.name)).toEqual([
      "Dinner",
    ]);
    const slots = (await r.guest.call(`/slots?date=${r.date}&pax=2`)).json.data[0].services;
    expect(slots.map((s: { name: string }) => s.name)).toEqual(["Dinner"]);
    expectProblem(
      await r.guest.book({ service_id: prepaid.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST }),
      404,
      "service not found",
    );
    const plain = await r.guest.book({ date: r.date, hour: "19:00", pax: 2, guest: GUEST });
    expect(plain.json.data[0]).toMatchObject({
      status: "ACCEPTED",
      service: { id: r.service.id, name: "Dinner" },
    });
  });

  it("refuses a time with seconds: times are on the service's grid", async () => {
    const r = await smallRestaurant();
    const res = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:00:59",
      pax: 2,
      guest: GUEST,
    });
    expectProblem(res, 400, "invalid input data");
    expect(res.json.errors.map((e: { path: string }) => e.path)).toEqual(["hour"]);
  });

  it("measures the cancel notice in real time, across a change of the clocks", async () => {
    // Europe/Rome springs forward on 2027-03-28 at 02:00. 19:00 CEST that day is 17:00Z; 20 hours
    // before is 21:00Z on the 27th (the wall clock would say 23:00 CET, 22:00Z: an hour late).
    // Booked a month before, whatever today is (the Worker's clock, pinned for this test).
    setClock("2027-02-28T12:00:00Z");
    try {
      const r = await smallRestaurant({ timezone: "Europe/Rome", cancel_notice: 1200, max_days_ahead: 60 });
      const res = await r.guest.book({
        service_id: r.service.id,
        date: "2027-03-28",
        hour: "19:00",
        pax: 2,
        guest: GUEST,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data[0].cancellable_until).toBe("2027-03-27T21:00:00.000Z");
    } finally {
      setClock(undefined);
    }
  });

  it("409 with the nearest free times when the time was taken between listing and booking", async () => {
    const r = await smallRestaurant();
    // A longer evening: Dinner 17:00-22:00 on the one table of 2.
    await r.client.call(`/api/v2/services/${r.service.id}`, {
      method: "PUT",
      body: { start_hour: "17:00", end_hour: "22:00" },
    });
    expect(await listed(r.guest, r.date, 2)).toContain("19:30:00");
    // The guest hesitates; staff give the only table to a walk-in at 19:30.
    expect(
      (
        await book(r.client, {
          start_date: r.date,
          start_hour: "19:30:00",
          service_id: r.service.id,
          customer: STAFF_GUEST,
        })
      ).status,
    ).toBe(201);
    const res = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:30",
      pax: 2,
      guest: GUEST,
    });
    expectProblem(res, 409, "time no longer available");
    expect(res.json.code).toBe("time_no_longer_available");
    // Free for a stay of 60: 17:00..18:30 (one at 18:30 leaves as the walk-in sits down) and 20:30..22:00;
    // nearest to 19:30 first (the earlier on a tie), at most 6.
    expect(res.json.alternatives).toEqual([
      "18:30:00",
      "20:30:00",
      "18:15:00",
      "20:45:00",
      "18:00:00",
      "21:00:00",
    ]);
    for (const hour of res.json.alternatives) expect(await listed(r.guest, r.date, 2)).toContain(hour);
  });

  it("Idempotency-Key replays the first booking instead of booking twice", async () => {
    const r = await smallRestaurant();
    const body = { service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST };
    const first = await r.guest.book(body, { "Idempotency-Key": "booking-1" });
    const again = await r.guest.book(body, { "Idempotency-Key": "booking-1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    const list = await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`);
    expect(list.json.data).toHaveLength(1);
    // The key is the guest's: the same key from another address is another booking attempt.
    const other = await guestOf(r.publicKey).book(body, { "Idempotency-Key": "booking-1" });
    expectProblem(other, 409, "time no longer available");
  });
});

describe("/public/{public_key}/manage/{token}", () => {
  it("reads the guest's reservation and cancels it; cancelling again answers the same", async () => {
    const r = await smallRestaurant();
    const made = (
      await r.guest.book({
        service_id: r.service.id,
        date: r.date,
        hour: "19:00",
        pax: 2,
        guest: GUEST,
        notes: "birthday",
      })
    ).json.data[0];
    const { manage_token: token, manage_url: _url, ...shown } = made;

    const read = await r.guest.call(`/manage/${token}`);
    expect(read.status).toBe(200);
    expect(read.headers.get("Cache-Control")).toBe("no-store");
    expect(read.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(read.json.data).toEqual([shown]);

    const cancelled = await r.guest.call(`/manage/${token}`, { method: "DELETE" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toEqual([{ ...shown, status: "CANCELLED", cancellable_until: null }]);
    const again = await r.guest.call(`/manage/${token}`, { method: "DELETE" });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(cancelled.json);

    // The table is free again, and staff see who cancelled.
    expect(await listed(r.guest, r.date, 2)).toEqual(GRID);
    const id = (
      await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}&status[]=CANCELLED`)
    ).json.data[0].id;
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history.map((h: { actor: string; action: string }) => `${h.actor} ${h.action}`)).toEqual([
      "guest created",
      "guest cancelled",
    ]);
  });

  it("cancels a waiting-list request too", async () => {
    const r = await smallRestaurant();
    await book(r.client, { start_date: r.date, start_hour: "19:00:00", service_id: r.service.id });
    const waiting = (
      await r.guest.book({
        service_id: r.service.id,
        date: r.date,
        hour: "19:00",
        pax: 2,
        guest: GUEST,
        waiting_list: true,
      })
    ).json.data[0];
    expect(waiting.status).toBe("WAITING");
    const res = await r.guest.call(`/manage/${waiting.manage_token}`, { method: "DELETE" });
    expect(res.json.data[0].status).toBe("CANCELLED");
  });
});
