/** The public widget API refuses what it must, with the one problem shape and never a 5xx. */
import { describe, expect, it } from "vitest";
import { atArrival, book, dateInDays, expectInvalid, expectProblem } from "./helpers";
import { GUEST, guestOf, smallRestaurant } from "./public.fixtures";

describe("unknown, deleted and disabled restaurants", () => {
  it("answer 404 property not found, alike, on every route", async () => {
    const gone = await smallRestaurant();
    const off = await smallRestaurant();
    const booking = { date: gone.date, hour: "19:00", pax: 2, guest: GUEST };
    const token = (await off.guest.book({ ...booking, service_id: off.service.id })).json.data[0]
      .manage_token;
    expect(
      (
        await gone.client.call(`/api/v2/properties/${gone.client.propertyId}`, {
          method: "DELETE",
          property: undefined,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await off.client.call(`/api/v2/properties/${off.client.propertyId}`, {
          method: "PUT",
          body: { enabled: false },
          property: undefined,
        })
      ).status,
    ).toBe(200);

    const answers: unknown[] = [];
    for (const key of ["pk_nobody_has_this_key", gone.publicKey, off.publicKey]) {
      const guest = guestOf(key);
      for (const res of [
        await guest.call(""),
        await guest.call("/services"),
        await guest.call(`/slots?date=${gone.date}&pax=2`),
        await guest.book(booking),
        await guest.call(`/manage/${token}`),
        await guest.call(`/manage/${token}`, { method: "DELETE" }),
      ]) {
        expectProblem(res, 404, "property not found");
        const { request_id: _id, ...rest } = res.json;
        answers.push(rest);
      }
    }
    // Nothing tells a disabled restaurant from a deleted one or from a key nobody has.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    // The guest's reservation was not cancelled through the disabled restaurant.
    const row = await off.client.d1
      .prepare("SELECT status FROM reservations WHERE property_id = ?")
      .bind(off.client.propertyId)
      .first<{ status: string }>();
    expect(row!.status).toBe("ACCEPTED");
  });

  it("a sandbox restaurant that expired is not found either", async () => {
    const r = await smallRestaurant();
    await r.client.d1
      .prepare("UPDATE properties SET sandbox_expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(r.client.propertyId)
      .run();
    expectProblem(await r.guest.call(""), 404, "property not found");
  });
});

describe("bad input: 400 invalid input data naming the fields", () => {
  it("slots", async () => {
    const r = await smallRestaurant({ max_online_pax: 4 });
    expectInvalid(await r.guest.call(`/slots?date=${r.date}`), "pax");
    expectInvalid(await r.guest.call("/slots?date=2026-02-30&pax=2"), "date");
    expectInvalid(await r.guest.call("/slots?date=tomorrow&pax=2"), "date");
    for (const pax of ["0", "-1", "abc", "2.5", "1e1", "1001"])
      expectInvalid(await r.guest.call(`/slots?date=${r.date}&pax=${pax}`), "pax");
    for (const days of ["0", "15", "x"])
      expectInvalid(await r.guest.call(`/slots?date=${r.date}&pax=2&days=${days}`), "days");
    expectInvalid(await r.guest.call(`/slots?date=${r.date}&pax=2&service_id=abc`), "service_id");
    // Larger than the restaurant takes online: a message the guest can act on.
    const big = await r.guest.call(`/slots?date=${r.date}&pax=5`);
    expectInvalid(big, "pax");
    expect(big.json.errors[0].message).toMatch(/up to 4.*call the restaurant/);
  });

  it("bookings", async () => {
    const r = await smallRestaurant({ max_online_pax: 4 });
    const ok = { service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST };
    expectInvalid(await r.guest.book({ ...ok, guest: undefined }), "guest");
    expectInvalid(await r.guest.book({ ...ok, guest: { ...GUEST, email: "not-an-email" } }), "guest.email");
    expectInvalid(await r.guest.book({ ...ok, guest: { ...GUEST, first_name: "   " } }), "guest.first_name");
    expectInvalid(await r.guest.book({ ...ok, guest: { ...GUEST, phone: "1" } }), "guest.phone");
    expectInvalid(await r.guest.book({ ...ok, hour: "25:00" }), "hour");
    expectInvalid(await r.guest.book({ ...ok, date: "2026-13-01" }), "date");
    expectInvalid(await r.guest.book({ ...ok, pax: 0 }), "pax");
    expectInvalid(await r.guest.book({ ...ok, pax: "2" }), "pax");
    expectInvalid(await r.guest.book({ ...ok, waiting_list: "yes" }), "waiting_list");
    expectInvalid(await r.guest.book({ ...ok, locale: "xx" }), "locale");
    expectInvalid(await r.guest.book({ ...ok, notes: "x".repeat(1001) }), "notes");
    const big = await r.guest.book({ ...ok, pax: 5 });
    expectInvalid(big, "pax");
    expect(big.json.errors[0].message).toMatch(/up to 4/);
    // Unknown fields are ignored.
    expect(
      (await r.guest.book({ ...ok, channel: "PLATFORM_ADMIN", table_ids: [999], status: "CONFIRMED" })).json
        .data[0].status,
    ).toBe("ACCEPTED");
    // Nothing else was written.
    const list = await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`);
    expect(list.json.data.map((x: { channel: string }) => x.channel)).toEqual(["PLATFORM_BOOK"]);
  });

  it("malformed JSON, another media type, a huge body", async () => {
    const r = await smallRestaurant();
    for (const body of ['{"date":', "nul", "[]", '"text"'])
      expectProblem(await r.guest.book(body as never), 400, "invalid input data");
    expectProblem(
      await r.guest.call("/reservations", {
        method: "POST",
        body: "date=x",
        headers: { "Content-Type": "text/plain" },
      }),
      415,
      "unsupported media type",
    );
    expectProblem(
      await r.guest.book({ guest: { first_name: "x".repeat(70 * 1024) } }),
      413,
      "payload too large",
    );
  });
});

describe("refused bookings", () => {
  it("a service that does not take online bookings is not found", async () => {
    const r = await smallRestaurant();
    const staffOnly = (
      await r.client.call("/api/v2/services", {
        body: { name: "Staff", start_hour: "19:00", end_hour: "20:00", online: false },
      })
    ).json.data[0];
    for (const id of [staffOnly.id, 999_999]) {
      expectProblem(
        await r.guest.book({ service_id: id, date: r.date, hour: "19:00", pax: 2, guest: GUEST }),
        404,
        "service not found",
      );
      expectProblem(
        await r.guest.call(`/slots?date=${r.date}&pax=2&service_id=${id}`),
        404,
        "service not found",
      );
    }
  });

  it("times off the grid, in the past, too soon or too far ahead: 403 booking slot not available", async () => {
    const r = await smallRestaurant({ max_days_ahead: 30 });
    const at = (date: string, hour: string) =>
      r.guest.book({ service_id: r.service.id, date, hour, pax: 2, guest: GUEST });
    expectProblem(await at(r.date, "19:07"), 403, "booking slot not available");
    expectProblem(await at(r.date, "18:45"), 403, "booking slot not available");
    expectProblem(await at(dateInDays(-1), "19:00"), 403, "booking slot not available");
    expectProblem(await at(dateInDays(40), "19:00"), 403, "booking slot not available");
    // Without service_id, a time no service offers.
    expectProblem(
      await r.guest.book({ date: r.date, hour: "10:00", pax: 2, guest: GUEST }),
      403,
      "booking slot not available",
    );
  });

  it("a party size the service does not take: 403 service not available", async () => {
    const r = await smallRestaurant();
    await r.client.call(`/api/v2/services/${r.service.id}`, { method: "PUT", body: { pax_min: 2 } });
    expectProblem(
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 1, guest: GUEST }),
      403,
      "service not available",
    );
  });

  it("a party no online table seats: 409 with no alternatives", async () => {
    const r = await smallRestaurant();
    const res = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:00",
      pax: 3,
      guest: GUEST,
    });
    expectProblem(res, 409, "time no longer available");
    expect(res.json.alternatives).toEqual([]);
  });

  it("a full time without waiting_list: 409, and nothing is written", async () => {
    const r = await smallRestaurant();
    await book(r.client, { start_date: r.date, start_hour: "19:00:00", service_id: r.service.id });
    expectProblem(
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST }),
      409,
      "time no longer available",
    );
    const list = await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`);
    expect(list.json.data).toHaveLength(1);
  });
});

describe("manage/{token}", () => {
  it("an unknown token is 404 reservation not found", async () => {
    const r = await smallRestaurant();
    for (const token of ["nope", "A".repeat(43), "a.b~c", "x".repeat(200)]) {
      expectProblem(await r.guest.call(`/manage/${token}`), 404, "reservation not found");
      expectProblem(
        await r.guest.call(`/manage/${token}`, { method: "DELETE" }),
        404,
        "reservation not found",
      );
    }
  });

  it("cancelling after the cancel notice: 403 cancel notice passed, and the reservation stands", async () => {
    const r = await smallRestaurant({ cancel_notice: 30 * 1440 });
    const made = (
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST })
    ).json.data[0];
    expect(made.cancellable_until).toBeNull();
    const res = await r.guest.call(`/manage/${made.manage_token}`, { method: "DELETE" });
    expectProblem(res, 403, "cancel notice passed");
    expect(res.json.detail).toMatch(/43200 minutes before the start/);
    expect((await r.guest.call(`/manage/${made.manage_token}`)).json.data[0].status).toBe("ACCEPTED");
  });

  it("cancelling after the staff checked the party in: 403 party has arrived (not cancel notice passed), and it stands", async () => {
    // No cancel notice and a start 10 days ahead: only the check-in stands in the way.
    const r = await smallRestaurant();
    const made = (
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST })
    ).json.data[0];
    expect(made.cancellable_until).not.toBeNull();
    const id = (await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`)).json
      .data[0].id;
    const checkin = () => r.client.call(`/api/v2/reservations/${id}/checkin`, { method: "PATCH" });
    expect((await atArrival(r.client, { start_date: r.date, start_hour: "19:00" }, checkin)).status).toBe(
      200,
    );
    expect((await r.guest.call(`/manage/${made.manage_token}`)).json.data[0]).toMatchObject({
      status: "ACCEPTED",
      arrived: true,
      cancellable_until: null,
    });
    const res = await r.guest.call(`/manage/${made.manage_token}`, { method: "DELETE" });
    expectProblem(res, 403, "party has arrived");
    expect(res.json.code).toBe("party_arrived");
    expect(res.json.detail).toMatch(/checked your party in/);
    expect((await r.guest.call(`/manage/${made.manage_token}`)).json.data[0].status).toBe("ACCEPTED");
    // Checked out too: still the party's arrival, never the notice.
    expect((await r.client.call(`/api/v2/reservations/${id}/checkout`, { method: "PATCH" })).status).toBe(
      200,
    );
    expectProblem(
      await r.guest.call(`/manage/${made.manage_token}`, { method: "DELETE" }),
      403,
      "party has arrived",
    );
    // Undoing the check-in by mistake gives the guest the cancellation back.
    expect(
      (await r.client.call(`/api/v2/reservations/${id}/checkout?undo=true`, { method: "PATCH" })).status,
    ).toBe(200);
    expect(
      (await r.client.call(`/api/v2/reservations/${id}/checkin?undo=true`, { method: "PATCH" })).status,
    ).toBe(200);
    expect((await r.guest.call(`/manage/${made.manage_token}`)).json.data[0]).toMatchObject({
      arrived: false,
      cancellable_until: made.cancellable_until,
    });
  });

  it("a reservation staff already moved to a final status is answered as it is", async () => {
    const r = await smallRestaurant();
    const made = (
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST })
    ).json.data[0];
    const id = (await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`)).json
      .data[0].id;
    expect(
      (await r.client.call(`/api/v2/reservations/${id}/status?status=expired`, { method: "PATCH" })).status,
    ).toBe(200);
    const res = await r.guest.call(`/manage/${made.manage_token}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({ status: "EXPIRED", cancellable_until: null });
  });

  it("405 for a method the route does not have", async () => {
    const r = await smallRestaurant();
    const res = await r.guest.call("/manage/abc", { method: "PUT", body: {} });
    expectProblem(res, 405, "method not allowed");
    expect(res.headers.get("Allow")).toBe("DELETE, GET, HEAD, PATCH");
  });
});
