/**
 * What the booking server refuses: business refusals are HTTP 200 with
 * booking_failure and its cause; HTTP errors are for malformed requests (400), the partner's
 * credentials (401) and unknown bookings (404). The partner sees only bookings it made.
 */
import { describe, expect, it } from "vitest";
import { atArrival, book, call, expectProblem, freshIp, GUEST } from "./helpers";
import {
  basic,
  merchant,
  newToken,
  partner,
  romeSec,
  SAMPLES,
  USER,
  v3,
  ZONE,
} from "./searchengine.fixtures";

const METHODS = [
  "BatchAvailabilityLookup",
  "CreateBooking",
  "UpdateBooking",
  "GetBookingStatus",
  "ListBookings",
];

describe("the partner's credentials", () => {
  it("are required on every method and feed: 401 with a Basic challenge otherwise", async () => {
    const paths = [
      "/v3/HealthCheck",
      ...METHODS.map((m) => `/v3/${m}`),
      "/feeds/merchants.json",
      "/feeds/services.json",
      "/feeds/availability.json",
    ];
    const wrong = [
      undefined,
      basic("partner-test", "wrong"),
      basic("someone", "partner-test-password"),
      "Bearer partner-test-password",
      "Basic %%%",
      basic("partner-test", "partner-test-password "),
    ];
    for (const path of paths) {
      for (const auth of wrong) {
        const res = await call(`/searchengine${path}`, {
          method: path.includes("/v3/") && path !== "/v3/HealthCheck" ? "POST" : "GET",
          body: path.includes("/v3/") && path !== "/v3/HealthCheck" ? {} : undefined,
          headers: {
            ...(auth && { Authorization: auth }),
            "CF-Connecting-IP": freshIp(),
          },
        });
        expectProblem(res, 401, "authentication required");
        expect(res.headers.get("WWW-Authenticate")).toMatch(/^Basic realm="searchengine"/);
      }
    }
  });
});

describe("malformed requests", () => {
  it("answer 400 invalid input data, naming the fields, never 5xx", async () => {
    for (const method of METHODS) {
      for (const body of ['{"merchant_id":', "[]", '"text"', "null", "{}"]) {
        expectProblem(await partner(`/v3/${method}`, body), 400, "invalid input data");
      }
    }
    const m = await merchant();
    const bad = await partner("/v3/BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: [{ service_id: 5, start_sec: "soon", resource_ids: { party_size: 0 } }],
    });
    expectProblem(bad, 400, "invalid input data");
    expect(bad.json.errors.map((e: any) => e.path).sort()).toEqual([
      "slot_time.0.resource_ids.party_size",
      "slot_time.0.service_id",
      "slot_time.0.start_sec",
    ]);
    const create = SAMPLES.createBooking(
      m.merchantId,
      m.serviceId,
      romeSec(m.date, "19:00"),
      newToken(),
    ).request;
    const noUser = await partner("/v3/CreateBooking", {
      ...create,
      user_information: { given_name: "John" },
    });
    expectProblem(noUser, 400, "invalid input data");
    expect(noUser.json.errors[0].path).toBe("user_information.user_id");
    const noToken = await partner("/v3/CreateBooking", { ...create, idempotency_token: undefined });
    expect(noToken.json.errors[0].path).toBe("idempotency_token");
    const badEmail = await partner("/v3/CreateBooking", {
      ...create,
      user_information: { ...USER, email: "not-an-email" },
    });
    expect(badEmail.json.errors[0].path).toBe("user_information.email");
    // A user the restaurant could not reach: no email and no telephone.
    const unreachable = await partner("/v3/CreateBooking", {
      ...create,
      user_information: { user_id: "u1", given_name: "John" },
    });
    expectProblem(unreachable, 400, "invalid input data");
    expect(unreachable.json.errors[0].path).toBe("user_information.telephone");
    const nameless = await partner("/v3/CreateBooking", {
      ...create,
      user_information: { user_id: "u1", email: "x@example.com" },
    });
    expect(nameless.json.errors[0].path).toBe("user_information.given_name");
    const status = await partner("/v3/UpdateBooking", { booking: { booking_id: "1", status: "MAYBE" } });
    expect(status.json.errors[0].path).toBe("booking.status");
  });

  it("answer 413 over 64 KiB and 415 for another media type", async () => {
    for (const method of METHODS) {
      expectProblem(
        await partner(`/v3/${method}`, JSON.stringify({ merchant_id: "x".repeat(70 * 1024) })),
        413,
        "payload too large",
      );
      expectProblem(
        await partner(`/v3/${method}`, "merchant_id=x", { headers: { "Content-Type": "text/plain" } }),
        415,
        "unsupported media type",
      );
    }
  });
});

describe("unknown bookings", () => {
  it("are 404 booking not found, and so is every reservation the search engine did not make", async () => {
    const m = await merchant();
    const staff = (
      await book(m.client, { start_date: m.date, start_hour: "19:00:00", service_id: m.service.id })
    ).json.data[0];
    for (const id of ["999999999999", "abc", "0", String(staff.id)]) {
      expectProblem(await partner("/v3/GetBookingStatus", { booking_id: id }), 404, "booking not found");
      expectProblem(
        await partner("/v3/UpdateBooking", { booking: { booking_id: id, status: "CANCELED" } }),
        404,
        "booking not found",
      );
    }
    expect((await m.client.call(`/api/v2/reservations/${staff.id}`)).json.data[0].status).toBe("ACCEPTED");
  });
});

describe("booking_failure (HTTP 200)", () => {
  it("SLOT_UNAVAILABLE: taken, unknown service, a merchant that does not exist or is off", async () => {
    const m = await merchant();
    // Each time another user, so none of them has booked the slot already.
    const create = (o: { merchant?: string; service?: string; hour?: string } = {}) => {
      const request = SAMPLES.createBooking(
        o.merchant ?? m.merchantId,
        o.service ?? m.serviceId,
        romeSec(m.date, o.hour ?? "19:00"),
        newToken(),
      ).request;
      return v3("CreateBooking", { ...request, user_information: { ...USER, user_id: `u${newToken()}` } });
    };
    expect((await create()).booking.status).toBe("CONFIRMED");
    for (const res of [
      await create(),
      await create({ service: "999999" }),
      await create({ service: "dinner" }),
      await create({ merchant: "pk_unknown" }),
      await create({ hour: "19:05" }),
    ]) {
      expect(res).toEqual({
        booking_failure: { cause: "SLOT_UNAVAILABLE", description: expect.any(String) },
      });
    }
    const off = await merchant({ enabled: false });
    expect(
      (
        await v3(
          "CreateBooking",
          SAMPLES.createBooking(off.merchantId, off.serviceId, romeSec(off.date, "19:00"), newToken())
            .request,
        )
      ).booking_failure.cause,
    ).toBe("SLOT_UNAVAILABLE");
    const lookup = await v3(
      "BatchAvailabilityLookup",
      SAMPLES.batchAvailabilityLookup(off.merchantId, off.serviceId, [romeSec(off.date, "19:00")]).request,
    );
    expect(lookup.slot_time_availability[0].available).toBe(false);
  });

  it("SLOT_UNAVAILABLE for a service that takes prepayment, which a search-engine booking cannot pay", async () => {
    const m = await merchant();
    expect(
      (
        await m.client.call(`/api/v2/services/${m.service.id}`, {
          method: "PUT",
          body: { prepayment_window: 60 },
        })
      ).status,
    ).toBe(200);
    const res = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    expect(res.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
    expect(
      (await m.client.call(`/api/v2/reservations?start_date=${m.date}&end_date=${m.date}`)).json.data,
    ).toEqual([]);
    const services = await partner(`/feeds/services.json?merchant_id=${m.merchantId}`);
    expect(services.json.service).toEqual([]);
  });

  it("SLOT_UNAVAILABLE for a banned guest, as for any full time (never why)", async () => {
    const m = await merchant({ tables: [2, 2] });
    const staff = (
      await book(m.client, {
        start_date: m.date,
        start_hour: "19:00:00",
        service_id: m.service.id,
        customer: { ...GUEST, email: USER.email },
      })
    ).json.data[0];
    await m.client.d1.prepare("UPDATE customers SET banned = 1 WHERE id = ?").bind(staff.customer.id).run();
    const res = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "20:00"), newToken()).request,
    );
    expect(res.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
    expect(JSON.stringify(res)).not.toMatch(/bann/i);
  });

  it("SLOT_ALREADY_BOOKED_BY_USER: the same user again for the same slot with another token", async () => {
    const m = await merchant({ tables: [2, 2] });
    const first = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    expect(first.booking.status).toBe("CONFIRMED");
    const again = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    expect(again.booking_failure.cause).toBe("SLOT_ALREADY_BOOKED_BY_USER");
    // Once cancelled, the user may book it again.
    await v3("UpdateBooking", { booking: { booking_id: first.booking.booking_id, status: "CANCELED" } });
    expect(
      (
        await v3(
          "CreateBooking",
          SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
        )
      ).booking.status,
    ).toBe("CONFIRMED");
  });

  it("BOOKING_ALREADY_CANCELLED, BOOKING_NOT_CANCELLABLE and OUTSIDE_CANCELLATION_WINDOW", async () => {
    const m = await merchant({ tables: [2, 2, 2] });
    const created = async (hour: string) =>
      (
        await v3(
          "CreateBooking",
          SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, hour), newToken()).request,
        )
      ).booking.booking_id;
    const cancel = (id: string) => v3("UpdateBooking", SAMPLES.cancelBooking(id).request);
    const [a, b, c] = [await created("19:00"), await created("19:30"), await created("20:00")];
    expect((await cancel(a)).booking.status).toBe("CANCELED");
    expect((await cancel(a)).booking_failure.cause).toBe("BOOKING_ALREADY_CANCELLED");
    expect(
      (await v3("UpdateBooking", { booking: { booking_id: a, party_size: 1 } })).booking_failure.cause,
    ).toBe("BOOKING_ALREADY_CANCELLED");
    const checkin = () => m.client.call(`/api/v2/reservations/${b}/checkin`, { method: "PATCH" });
    expect(
      (await atArrival(m.client, { start_date: m.date, start_hour: "19:30" }, checkin, ZONE)).status,
    ).toBe(200);
    expect((await cancel(b)).booking_failure.cause).toBe("BOOKING_NOT_CANCELLABLE");
    expect(
      (await m.client.call(`/api/v2/reservations/${c}/status?status=expired`, { method: "PATCH" })).status,
    ).toBe(200);
    expect((await cancel(c)).booking_failure.cause).toBe("BOOKING_NOT_CANCELLABLE");
    // Cancellations close 30 days before the start here: the booking 10 days ahead is inside that.
    await m.client.call(`/api/v2/properties/${m.client.propertyId}`, {
      method: "PUT",
      body: { settings: { cancel_notice: 43_200 } },
      property: undefined,
    });
    const d = await created("20:30");
    expect((await cancel(d)).booking_failure.cause).toBe("OUTSIDE_CANCELLATION_WINDOW");
    expect((await m.client.call(`/api/v2/reservations/${d}`)).json.data[0].status).toBe("ACCEPTED");
  });

  it("SLOT_UNAVAILABLE when a move names a time that is taken or off the grid; the booking stays", async () => {
    const m = await merchant();
    const id = (
      await v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
      )
    ).booking.booking_id;
    await book(m.client, { start_date: m.date, start_hour: "20:00:00", service_id: m.service.id });
    for (const hour of ["20:00", "20:10", "23:00"]) {
      const res = await v3("UpdateBooking", {
        booking: { booking_id: id, slot: { start_sec: romeSec(m.date, hour), duration_sec: 1800 } },
      });
      expect(res.booking_failure.cause, hour).toBe("SLOT_UNAVAILABLE");
    }
    expect((await m.client.call(`/api/v2/reservations/${id}`)).json.data[0].start_hour).toBe("19:00:00");
  });
});
