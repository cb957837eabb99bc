/**
 * Whole flows of the booking server: the scripted client that replays Google's booking-server
 * test client, each failure it may meet, and the last table wanted at once by the search engine
 * and by the widget.
 */
import { describe, expect, it } from "vitest";
import { now } from "../../worker/lib/clock";
import { atArrival, dateInDays, GUEST } from "./helpers";
import { guestOf } from "./public.fixtures";
import { BookingServerTestClient, type FeedSlot } from "./searchengine.client";
import { merchant, newToken, partner, romeSec, SAMPLES, v3, ZONE } from "./searchengine.fixtures";

/** The merchant's slots of the feed from tomorrow on (a time of today could pass between the feed and a lookup). */
async function feedSlots(merchantId: string): Promise<FeedSlot[]> {
  const res = await partner(`/feeds/availability.json?merchant_id=${merchantId}`);
  expect(res.status).toBe(200);
  return res.json.service_availability
    .flatMap((s: any) => s.availability)
    .filter((a: FeedSlot) => a.start_sec > now() / 1000 + 86_400);
}

describe("Google's booking-server test client, replayed", () => {
  it("health, availability of many slots, booking and its repeat, list, status, rescheduling, cancelling all: every check passes", async () => {
    // Google's test client books ten slots as one user: no per-guest limit here (the per-guest limit's own test covers it).
    const m = await merchant({
      tables: [2, 2, 4],
      settings: { max_days_ahead: 14, max_online_pax: 4, max_online_bookings_per_guest: null },
    });
    const client = new BookingServerTestClient(`testclient-${newToken()}`);
    await client.healthCheck();
    const slots = await feedSlots(m.merchantId);
    expect(slots.length).toBeGreaterThan(200);
    await client.availability(slots.slice(0, 200));
    // Book ten slots of two for two, far apart, then check the feed and the lookups agree again.
    const pick = slots
      .filter((s) => s.resources.party_size === 2 && s.spots_open > 0)
      .filter((_, i) => i % 7 === 0)
      .slice(0, 10);
    await client.booking(pick);
    await client.availability((await feedSlots(m.merchantId)).slice(0, 200));
    await client.listBookings();
    await client.bookingStatus("CONFIRMED");
    const free = (await feedSlots(m.merchantId)).find(
      (s) =>
        s.resources.party_size === 2 && s.spots_open === 3 && !pick.some((p) => p.start_sec === s.start_sec),
    );
    await client.rescheduling(free!);
    await client.cancelAll();
    await client.bookingStatus("CANCELED");
    expect(client.report.failed).toEqual([]);
    expect(client.report.passed.length).toBeGreaterThan(250);
    // Cancelled, the slots are open again.
    const after = await feedSlots(m.merchantId);
    for (const p of pick.slice(1))
      expect(after.find((s) => s.start_sec === p.start_sec && s.resources.party_size === 2)?.spots_open).toBe(
        3,
      );
  });

  it("meets each failure where the test client would: full slot, same user again, already cancelled, not cancellable, unknown booking", async () => {
    const m = await merchant();
    const slot = (await feedSlots(m.merchantId)).find((s) => s.resources.party_size === 2)!;
    const client = new BookingServerTestClient(`testclient-${newToken()}`);
    await client.booking([slot]);
    const again = (token: string, user = client.userId) => ({
      ...SAMPLES.createBooking(m.merchantId, m.serviceId, slot.start_sec, token).request,
      user_information: { user_id: user, given_name: "T", email: "t@example.com" },
    });
    expect((await v3("CreateBooking", again(newToken()))).booking_failure.cause).toBe(
      "SLOT_ALREADY_BOOKED_BY_USER",
    );
    expect((await v3("CreateBooking", again(newToken(), "someone-else"))).booking_failure.cause).toBe(
      "SLOT_UNAVAILABLE",
    );
    const lookup = await v3("BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: [{ service_id: slot.service_id, start_sec: slot.start_sec, resource_ids: slot.resources }],
    });
    expect(lookup.slot_time_availability[0].available).toBe(false);
    const id = client.bookings[0].booking_id;
    const booked = (await m.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    await atArrival(
      m.client,
      booked,
      () => m.client.call(`/api/v2/reservations/${id}/checkin`, { method: "PATCH" }),
      ZONE,
    );
    expect(
      (await v3("UpdateBooking", { booking: { booking_id: id, status: "CANCELED" } })).booking_failure.cause,
    ).toBe("BOOKING_NOT_CANCELLABLE");
    await m.client.call(`/api/v2/reservations/${id}/checkin?undo=true`, { method: "PATCH" });
    await client.cancelAll();
    expect(
      (await v3("UpdateBooking", { booking: { booking_id: id, status: "CANCELED" } })).booking_failure.cause,
    ).toBe("BOOKING_ALREADY_CANCELLED");
    expect((await partner("/v3/GetBookingStatus", { booking_id: "4040404040404" })).status).toBe(404);
    expect(client.report.failed).toEqual([]);
  });
});

describe("the last table, wanted by the search engine and the widget at once", () => {
  it("goes to exactly one of them; the other hears SLOT_UNAVAILABLE or 409", async () => {
    // One user and one widget guest race nine times: no per-guest limit here (the per-guest limit's own test covers it).
    const m = await merchant({ settings: { max_online_bookings_per_guest: null } });
    const widget = guestOf(m.merchantId);
    // Nine races on the one table: three evenings, three times an hour apart (stays of 30 minutes never touch).
    const times = [10, 11, 12].flatMap((d) =>
      ["19:00", "20:00", "21:00"].map((hour) => ({ date: dateInDays(d), hour })),
    );
    const outcomes = await Promise.all(
      times.map(async ({ date, hour }) => {
        const [google, guest] = await Promise.all([
          partner(
            "/v3/CreateBooking",
            SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(date, hour), newToken()).request,
          ),
          widget.book({ date, hour, pax: 2, service_id: m.service.id, guest: GUEST }),
        ]);
        expect(google.status, google.text).toBe(200);
        const googleWon = google.json.booking?.status === "CONFIRMED";
        if (googleWon) expect(guest.status, guest.text).toBe(409);
        else expect(google.json.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
        if (!googleWon) expect(guest.status, guest.text).toBe(201);
        return googleWon ? "google" : "widget";
      }),
    );
    const held = (
      await m.client.call(`/api/v2/reservations?start_date=${dateInDays(10)}&end_date=${dateInDays(12)}`)
    ).json.data;
    expect(held).toHaveLength(times.length);
    expect(held.map((r: any) => r.channel).sort()).toEqual(
      outcomes.map((o) => (o === "google" ? "SEARCHENGINE" : "PLATFORM_BOOK")).sort(),
    );
    expect(new Set(held.map((r: any) => `${r.start_date} ${r.start_hour}`)).size).toBe(times.length);
  });
});
