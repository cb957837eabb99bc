/**
 * The search engine's booking server, method by method, on Google's published
 * request and response samples: the same fields come back, with our merchant, service, times
 * and booking.
 */
import { describe, expect, it } from "vitest";
import { call, dateInDays, GUEST } from "./helpers";
import { guestOf } from "./public.fixtures";
import { merchant, newToken, normalise, partner, romeSec, SAMPLES, USER, v3 } from "./searchengine.fixtures";

describe("GET /searchengine/v3/HealthCheck", () => {
  it("answers 200 to the partner, with or without a trailing slash", async () => {
    expect((await partner("/v3/HealthCheck")).status).toBe(200);
    expect((await partner("/v3/HealthCheck/")).status).toBe(200);
  });
});

describe("POST /searchengine/v3/BatchAvailabilityLookup", () => {
  it("answers Google's sample: one slot_time_availability per slot, in order, echoing each slot", async () => {
    const m = await merchant();
    const starts = ["19:00", "19:30", "20:00"].map((h) => romeSec(m.date, h));
    const sample = SAMPLES.batchAvailabilityLookup(m.merchantId, m.serviceId, starts);
    expect(await v3("BatchAvailabilityLookup", sample.request)).toEqual(sample.response);
  });

  it("says unavailable for a slot another party holds, off the grid, or for a party no table seats", async () => {
    const m = await merchant();
    await m.client.call("/api/v2/reservations", {
      body: { start_date: m.date, start_hour: "19:30:00", pax: 2, service_id: m.service.id, customer: GUEST },
    });
    const slot = (hour: string, pax = 2) => ({
      service_id: m.serviceId,
      start_sec: romeSec(m.date, hour),
      resource_ids: { party_size: pax },
    });
    const res = await v3("BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: [
        slot("19:00"),
        slot("19:15"),
        slot("19:30"),
        slot("19:10"),
        slot("20:30", 3),
        slot("20:30"),
      ],
    });
    // 19:00 with a stay of 30 ends as the 19:30 party sits down (stays are half-open); 19:15 would still sit.
    expect(res.slot_time_availability.map((a: any) => a.available)).toEqual([
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it("takes int64 as numbers or strings, and answers with or without a trailing slash", async () => {
    const m = await merchant();
    const body = {
      merchant_id: m.merchantId,
      slot_time: [
        {
          service_id: m.serviceId,
          start_sec: romeSec(m.date, "20:00"),
          duration_sec: 1800,
          resource_ids: { party_size: "2" },
        },
      ],
    };
    const res = await partner("/v3/BatchAvailabilityLookup/", body);
    expect(res.status).toBe(200);
    expect(res.json.slot_time_availability[0].available).toBe(true);
  });
});

describe("POST /searchengine/v3/CreateBooking", () => {
  it("answers Google's sample with the booking: CONFIRMED, the slot, the user as given", async () => {
    const m = await merchant();
    const start = romeSec(m.date, "19:45");
    const sample = SAMPLES.createBooking(m.merchantId, m.serviceId, start, newToken());
    const res = await v3("CreateBooking", sample.request);
    expect(res.booking.booking_id).toMatch(/^\d+$/);
    expect(normalise(res)).toEqual(normalise(sample.response(res.booking.booking_id)));
  });

  it("books a reservation on channel SEARCHENGINE, with the user as customer and additional_request as special request", async () => {
    const m = await merchant();
    const sample = SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "20:15"), newToken());
    const res = await v3("CreateBooking", { ...sample.request, additional_request: "A table by the window" });
    const reservation = (await m.client.call(`/api/v2/reservations/${res.booking.booking_id}`)).json.data[0];
    expect(reservation).toMatchObject({
      channel: "SEARCHENGINE",
      status: "ACCEPTED",
      start_day: m.date,
      start_hour: "20:15:00",
      pax: 2,
      special_request: "A table by the window",
      customer: {
        first_name: "John",
        last_name: "Smith",
        email: "john.smith@gmail.com",
        phone: "+12091111111",
      },
    });
    expect(reservation.tables).toHaveLength(1);
  });

  it("answers the same booking for the same idempotency token, and books nothing more", async () => {
    const m = await merchant({ tables: [2, 2] });
    const token = newToken();
    const first = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), token).request,
    );
    // A repeat, even naming another slot, is the same request as far as the token goes.
    const again = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "20:00"), token).request,
    );
    expect(again).toEqual(first);
    const list = (await m.client.call(`/api/v2/reservations?start_date=${m.date}&end_date=${m.date}`)).json
      .data;
    expect(list).toHaveLength(1);
  });

  it("is exact under concurrency: ten requests with one token make one booking, and all answer it", async () => {
    const m = await merchant({ tables: [2, 2, 2, 2] });
    const request = SAMPLES.createBooking(
      m.merchantId,
      m.serviceId,
      romeSec(m.date, "20:30"),
      newToken(),
    ).request;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => partner("/v3/CreateBooking", request)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(new Set(answers.map((a) => a.json.booking?.booking_id)).size).toBe(1);
    expect(answers[0]!.json.booking.booking_id).toMatch(/^\d+$/);
    const list = (await m.client.call(`/api/v2/reservations?start_date=${m.date}&end_date=${m.date}`)).json
      .data;
    expect(list).toHaveLength(1);
  });
});

describe("POST /searchengine/v3/UpdateBooking", () => {
  it("answers Google's sample: the booking moved to the new start", async () => {
    const m = await merchant();
    const created = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    const id = created.booking.booking_id;
    const sample = SAMPLES.updateBooking(m.merchantId, m.serviceId, id, romeSec(m.date, "20:30"));
    expect(normalise(await v3("UpdateBooking", sample.request))).toEqual(normalise(sample.response));
    const reservation = (await m.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(reservation.start_hour).toBe("20:30:00");
    // The old time is free again.
    const old = await v3("BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: [
        { service_id: m.serviceId, start_sec: romeSec(m.date, "19:00"), resource_ids: { party_size: 2 } },
      ],
    });
    expect(old.slot_time_availability[0].available).toBe(true);
  });

  it("changes the party size and the duration", async () => {
    const m = await merchant({ tables: [2, 4] });
    const created = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    const id = created.booking.booking_id;
    const bigger = await v3("UpdateBooking", { booking: { booking_id: id, party_size: 4 } });
    expect(bigger.booking.slot.resources.party_size).toBe(4);
    const longer = await v3("UpdateBooking", {
      booking: { booking_id: id, slot: { duration_sec: "3600", resources: { party_size: 3 } } },
    });
    expect(longer.booking.slot).toMatchObject({ duration_sec: 3600, resources: { party_size: 3 } });
    const reservation = (await m.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(reservation).toMatchObject({ pax: 3, end_date: `${m.date}T20:00:00` });
    expect(reservation.tables.map((t: any) => t.id)).toEqual([m.tables[1]!.id]);
  });

  it("cancels on status CANCELED (the fitness sample's request): the reservation is CANCELLED and its table free", async () => {
    const m = await merchant();
    const created = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:15"), newToken()).request,
    );
    const id = created.booking.booking_id;
    const res = await v3("UpdateBooking", SAMPLES.cancelBooking(id).request);
    expect(res.booking.status).toBe("CANCELED");
    expect((await m.client.call(`/api/v2/reservations/${id}`)).json.data[0].status).toBe("CANCELLED");
    const again = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:15"), newToken()).request,
    );
    expect(again.booking.status).toBe("CONFIRMED");
  });
});

describe("POST /searchengine/v3/GetBookingStatus and ListBookings", () => {
  it("answer Google's samples", async () => {
    const m = await merchant({ tables: [2, 2] });
    const a = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    const id = a.booking.booking_id;
    const sample = SAMPLES.getBookingStatus(id);
    expect(await v3("GetBookingStatus", sample.request)).toEqual(sample.response);
    expect(await v3("GetBookingStatus/", sample.request)).toEqual(sample.response);
  });

  it("list every booking of a user across restaurants and shards, oldest first, and nobody else's", async () => {
    const user = { ...USER, user_id: `u${newToken()}` };
    // Restaurants until both shards hold one (a new one goes to the emptier shard).
    const restaurants = [await merchant(), await merchant()];
    while (new Set(restaurants.map((r) => r.client.d1)).size < 2 && restaurants.length < 8)
      restaurants.push(await merchant());
    expect(new Set(restaurants.map((r) => r.client.d1)).size).toBe(2);
    const ids = [];
    for (const m of restaurants) {
      const req = SAMPLES.createBooking(
        m.merchantId,
        m.serviceId,
        romeSec(m.date, "20:00"),
        newToken(),
      ).request;
      ids.push((await v3("CreateBooking", { ...req, user_information: user })).booking.booking_id);
    }
    const other = SAMPLES.createBooking(
      restaurants[0]!.merchantId,
      restaurants[0]!.serviceId,
      romeSec(restaurants[0]!.date, "19:00"),
      newToken(),
    ).request;
    await v3("CreateBooking", { ...other, user_information: { ...user, user_id: `other${newToken()}` } });
    await v3("UpdateBooking", { booking: { booking_id: ids[1], status: "CANCELED" } });
    const listed = await v3("ListBookings", SAMPLES.listBookings(user.user_id).request);
    expect(listed.bookings.map((b: any) => b.booking_id)).toEqual(
      [...ids].sort((x, y) => Number(x) - Number(y)),
    );
    expect(listed.bookings.map((b: any) => b.status).filter((x: string) => x === "CANCELED")).toHaveLength(1);
    expect(listed.bookings).toHaveLength(restaurants.length);
    for (const b of listed.bookings) expect(b.user_information).toEqual(user);
    expect((await v3("ListBookings", { user_id: "nobody-at-all" })).bookings).toEqual([]);
  });
});

describe("the status map", () => {
  it("maps WAITING, REJECTED, EXPIRED and CONFIRMED as the search engine names them", async () => {
    const m = await merchant({ tables: [2, 2, 2, 2] });
    const book = async (hour: string) =>
      (
        await v3(
          "CreateBooking",
          SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, hour), newToken()).request,
        )
      ).booking.booking_id;
    const status = async (id: string) => (await v3("GetBookingStatus", { booking_id: id })).booking_status;
    const [confirmed, expired, rejected] = [await book("19:00"), await book("19:15"), await book("19:30")];
    const patch = (id: string, to: string) =>
      m.client.call(`/api/v2/reservations/${id}/status?status=${to}`, { method: "PATCH" });
    expect((await patch(confirmed, "CONFIRMED")).status).toBe(200);
    expect(await status(confirmed)).toBe("CONFIRMED");
    expect((await patch(expired, "EXPIRED")).status).toBe(200);
    expect(await status(expired)).toBe("NO_SHOW");
    // The booking server itself never makes a WAITING booking: put one on the waiting list by hand.
    await m.client.d1
      .prepare(
        "UPDATE reservations SET status = 'WAITING', waiting_list = 1, version = version + 1 WHERE id = ?",
      )
      .bind(Number(rejected))
      .run();
    expect(await status(rejected)).toBe("PENDING_MERCHANT_CONFIRMATION");
    expect((await patch(rejected, "declined")).status).toBe(200);
    expect(await status(rejected)).toBe("DECLINED_BY_MERCHANT");
  });

  it("says FAILED for a booking that expired unpaid", async () => {
    const m = await merchant();
    const id = (
      await v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
      )
    ).booking.booking_id;
    // As the cron's expiry leaves it (reservations/expiry.ts): its history says expired_unpaid.
    await m.client.d1.batch([
      m.client.d1
        .prepare("UPDATE reservations SET status = 'EXPIRED', version = version + 1 WHERE id = ?")
        .bind(Number(id)),
      m.client.d1
        .prepare(
          "INSERT INTO reservation_history (reservation_id, seq, actor, action, from_status, to_status, changes) VALUES (?1, (SELECT max(seq) + 1 FROM reservation_history WHERE reservation_id = ?1), 'system', 'expired_unpaid', 'PREPAY', 'EXPIRED', '{}')",
        )
        .bind(Number(id)),
    ]);
    expect((await v3("GetBookingStatus", { booking_id: id })).booking_status).toBe("FAILED");
  });
});

describe("the same rules as online bookings", () => {
  it("never offers or books an offline table, beyond the window, or a closure", async () => {
    const m = await merchant({ settings: { min_notice: 120, max_days_ahead: 20 } });
    // A second table, offline: the search engine never gets it.
    const offline = (
      await m.client.call("/api/v2/tables", {
        body: { name: "Staff", room_id: m.room.id, guests_max: 2, online: false },
      })
    ).json.data[0];
    expect(offline.online).toBe(false);
    await m.client.call("/api/v2/reservations", {
      body: {
        start_date: m.date,
        start_hour: "19:00:00",
        pax: 2,
        service_id: m.service.id,
        customer: GUEST,
        table_ids: [m.tables[0]!.id],
      },
    });
    const closed = dateInDays(12);
    await m.client.call("/api/v2/closures", { body: { start_date: closed, reason: "private party" } });
    const slot = (date: string, hour: string) => ({
      service_id: m.serviceId,
      start_sec: romeSec(date, hour),
      resource_ids: { party_size: 2 },
    });
    const res = await v3("BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: [
        slot(m.date, "19:00"),
        slot(closed, "19:00"),
        slot(dateInDays(25), "19:00"),
        slot(dateInDays(11), "19:00"),
      ],
    });
    expect(res.slot_time_availability.map((a: any) => a.available)).toEqual([false, false, false, true]);
    const refused = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    expect(refused.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
  });

  it("competes with the widget for tables: a time the widget took is gone, and the widget sees the search engine's", async () => {
    const m = await merchant();
    const guest = guestOf(m.merchantId);
    expect(
      (await guest.book({ date: m.date, hour: "19:00", pax: 2, service_id: m.service.id, guest: GUEST }))
        .status,
    ).toBe(201);
    const taken = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    expect(taken.booking_failure).toMatchObject({ cause: "SLOT_UNAVAILABLE" });
    await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "20:30"), newToken()).request,
    );
    // Stays of 30 minutes on the one table: 19:00 (widget) blocks 19:15, 20:30 (search engine) blocks 20:15
    // and 20:45; 20:00 leaves as the 20:30 party sits down.
    const slots = (await guest.call(`/slots?date=${m.date}&pax=2`)).json.data[0].services[0].times;
    expect(slots).toEqual(["19:30:00", "19:45:00", "20:00:00", "21:00:00"]);
  });
});

describe("the OpenAPI document", () => {
  it("describes the six methods and the three feeds, tagged searchengine, behind the partner's Basic credentials", async () => {
    const doc = (await call("/api/v2/openapi.json")).json;
    expect(doc.components.securitySchemes.partner).toMatchObject({ type: "http", scheme: "basic" });
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith("/searchengine/"));
    expect(paths.sort()).toEqual(
      [
        ...[
          "HealthCheck",
          "BatchAvailabilityLookup",
          "CreateBooking",
          "UpdateBooking",
          "GetBookingStatus",
          "ListBookings",
        ].map((m) => `/searchengine/v3/${m}`),
        ...["merchants", "services", "availability"].map((f) => `/searchengine/feeds/${f}.json`),
      ].sort(),
    );
    for (const p of paths) {
      for (const op of Object.values<any>(doc.paths[p])) {
        expect(op.tags).toEqual(["searchengine"]);
        expect(op.security).toEqual([{ partner: [] }]);
      }
    }
    expect(
      doc.paths["/searchengine/v3/CreateBooking"].post.requestBody.content["application/json"].schema.$ref,
    ).toMatch(/SearchengineCreateBookingRequest$/);
  });
});
