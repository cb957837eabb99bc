/**
 * Online bookings per guest (settings.max_online_bookings_per_guest, default 3): one email, and
 * one phone, may hold that many active future online bookings and waiting-list entries of a
 * restaurant; the next is refused with 403 "guest booking limit reached", which names nobody.
 * The count and the booking are one batch: parallel bookings of one guest cannot all pass.
 */
import { describe, expect, it } from "vitest";
import { setClock } from "../../worker/lib/clock";
import { book, dateInDays, expectProblem, freshIp } from "./helpers";
import { GUEST, guestOf, type SmallRestaurant, smallRestaurant } from "./public.fixtures";
import { merchant, newToken, romeSec, SAMPLES, USER, v3 } from "./searchengine.fixtures";

/** A booking of the guest at 19:00 `day` days ahead, from an address of its own (the per-IP write budget is not what is tested). */
function bookOn(
  r: SmallRestaurant,
  day: number,
  guest: Record<string, string> = GUEST,
  extra: Record<string, unknown> = {},
) {
  return guestOf(r.publicKey, freshIp()).book({
    service_id: r.service.id,
    date: dateInDays(day),
    hour: "19:00",
    pax: 2,
    guest,
    ...extra,
  });
}

function expectLimit(res: Awaited<ReturnType<typeof bookOn>>) {
  expectProblem(res, 403, "guest booking limit reached");
  expect(res.json.code).toBe("guest_booking_limit");
  expect(res.json.detail).toMatch(/cancel one, or call the restaurant/);
}

describe("max_online_bookings_per_guest", () => {
  it("defaults to 3 a guest: the fourth booking of one email is refused, and names no one", async () => {
    const r = await smallRestaurant();
    const profile = (
      await r.client.call(`/api/v2/properties/${r.client.propertyId}`, { property: undefined })
    ).json.data[0];
    expect(profile.settings.max_online_bookings_per_guest).toBe(3);
    for (const day of [10, 11, 12]) expect((await bookOn(r, day)).status).toBe(201);
    const refused = await bookOn(r, 13, {
      ...GUEST,
      first_name: "Someone",
      last_name: "Else",
      phone: "+1 212 555 0100",
    });
    expectLimit(refused);
    // Nothing about the bookings that count: no names, dates, ids or contacts.
    for (const secret of ["Ada", "Lovelace", "ada@example.com", "055 123456", dateInDays(10)])
      expect(refused.text).not.toContain(secret);
    // A guest with another email and phone books as usual.
    expect(
      (await bookOn(r, 13, { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" })).status,
    ).toBe(201);
    const listed = (
      await r.client.call(`/api/v2/reservations?start_date=${dateInDays(10)}&end_date=${dateInDays(13)}`)
    ).json.data;
    expect(listed).toHaveLength(4);
  });

  it("counts one phone across emails, whatever its punctuation, and one email across plus-tags and case", async () => {
    const r = await smallRestaurant({ max_online_bookings_per_guest: 2 });
    const phone = (email: string, p: string) => ({ first_name: "Mallory", last_name: "M", email, phone: p });
    expect((await bookOn(r, 10, phone("m1@example.com", "+39 055 987654"))).status).toBe(201);
    expect((await bookOn(r, 11, phone("m2@example.com", "0039-055-987654"))).status).toBe(201);
    expectLimit(await bookOn(r, 12, phone("m3@example.com", "(0039) 055.987.654")));
    const email = (e: string, i: number) => ({
      first_name: "Eve",
      last_name: "E",
      email: e,
      phone: `+44 20 7946 00${i}`,
    });
    expect((await bookOn(r, 13, email("eve@example.com", 10))).status).toBe(201);
    expect((await bookOn(r, 14, email("Eve+dinner@Example.com", 11))).status).toBe(201);
    expectLimit(await bookOn(r, 15, email("eve+again@example.com", 12)));
  });

  it("counts waiting-list entries, not cancelled, staff or past bookings", async () => {
    const r = await smallRestaurant({ max_online_bookings_per_guest: 2 });
    // The table of day 10 is taken by staff: the guest joins the waiting list (that counts).
    expect(
      (
        await book(r.client, {
          start_date: dateInDays(10),
          start_hour: "19:00:00",
          service_id: r.service.id,
          customer: GUEST,
        })
      ).status,
    ).toBe(201);
    const waiting = await bookOn(r, 10, GUEST, { waiting_list: true });
    expect(waiting.json.data[0].status).toBe("WAITING");
    const booked = await bookOn(r, 11);
    expect(booked.status).toBe(201);
    expectLimit(await bookOn(r, 12));
    // Cancelling one gives its place back.
    expect(
      (await guestOf(r.publicKey).call(`/manage/${booked.json.data[0].manage_token}`, { method: "DELETE" }))
        .status,
    ).toBe(200);
    expect((await bookOn(r, 12)).status).toBe(201);
    expectLimit(await bookOn(r, 13));
    // Staff may still book the guest: staff bookings are neither limited nor counted.
    expect(
      (
        await book(r.client, {
          start_date: dateInDays(14),
          start_hour: "19:00:00",
          service_id: r.service.id,
          customer: GUEST,
        })
      ).status,
    ).toBe(201);
    // Once those days are past, they no longer count.
    setClock(new Date(Date.parse(`${dateInDays(13)}T00:00:00Z`)).toISOString());
    try {
      expect((await bookOn(r, 3)).status).toBe(201);
    } finally {
      setClock(undefined);
    }
  });

  it("holds under parallel bookings of one guest from many addresses", async () => {
    const r = await smallRestaurant({ max_online_bookings_per_guest: 2 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => bookOn(r, 10 + i)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 201)) expectLimit(a);
    const listed = (
      await r.client.call(`/api/v2/reservations?start_date=${dateInDays(10)}&end_date=${dateInDays(21)}`)
    ).json.data;
    expect(listed).toHaveLength(2);
  });

  it("null lifts the limit; the setting is validated and documented", async () => {
    const r = await smallRestaurant({ max_online_bookings_per_guest: null });
    for (const day of [10, 11, 12, 13, 14]) expect((await bookOn(r, day)).status).toBe(201);
    for (const bad of [0, -1, 101, 2.5, "3"]) {
      const res = await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
        method: "PUT",
        body: { settings: { max_online_bookings_per_guest: bad } },
        property: undefined,
      });
      expectProblem(res, 400, "invalid input data");
    }
    const doc = (await r.client.call("/api/v2/openapi.json")).json;
    const setting = doc.components.schemas.PropertySettings.properties.max_online_bookings_per_guest;
    expect(setting.description).toMatch(/one guest may hold/);
    expect(setting.default).toBe(3);
    // The refusal is documented where it can happen: the widget's booking and an online channel's.
    expect(doc.paths["/api/v2/public/{public_key}/reservations"].post.responses["403"].description).toMatch(
      /guest booking limit reached/,
    );
    expect(doc.paths["/api/v2/reservations"].post.responses["403"].description).toMatch(
      /guest booking limit reached/,
    );
  });

  it("applies to online channels booked through the integrator API too (PLATFORM_BOOK)", async () => {
    const r = await smallRestaurant({ max_online_bookings_per_guest: 1 });
    const online = (day: number) =>
      book(r.client, {
        start_date: dateInDays(day),
        start_hour: "19:00:00",
        service_id: r.service.id,
        channel: "PLATFORM_BOOK",
        customer: GUEST,
      });
    expect((await online(10)).status).toBe(201);
    expectProblem(await online(11), 403, "guest booking limit reached");
  });

  it("counts each booking under the guest as typed on it, not the details of the customer it matched", async () => {
    const r = await smallRestaurant({ max_online_bookings_per_guest: 1 });
    // Staff know Ada by her email and phone; a booking typed with her email and another phone matches her record, unchanged.
    expect(
      (
        await book(r.client, {
          start_date: dateInDays(20),
          start_hour: "19:00:00",
          service_id: r.service.id,
          customer: GUEST,
        })
      ).status,
    ).toBe(201);
    const mallory = { first_name: "Mallory", last_name: "M", email: GUEST.email, phone: "+44 20 7946 0999" };
    expect((await bookOn(r, 10, mallory)).status).toBe(201);
    // That booking holds the phone typed on it: the same phone under another email is at the limit.
    expectLimit(await bookOn(r, 11, { ...mallory, email: "mallory@example.com" }));
  });

  it("the search engine's CreateBooking answers SLOT_UNAVAILABLE, and books nothing", async () => {
    const m = await merchant({ tables: [2, 2], settings: { max_online_bookings_per_guest: 1 } });
    const create = (hour: string) =>
      v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, hour), newToken()).request,
      );
    expect((await create("19:00")).booking.status).toBe("CONFIRMED");
    const refused = await create("20:00");
    expect(refused.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
    expect(JSON.stringify(refused)).not.toContain(USER.email);
    expect(
      (await m.client.call(`/api/v2/reservations?start_date=${m.date}&end_date=${m.date}`)).json.data,
    ).toHaveLength(1);
  });
});
