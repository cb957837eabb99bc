/**
 * Sandbox properties stay out of the search engine: its feeds and bookings are real guests'. The
 * switch refuses to turn on for a sandbox, and one switched on before (or by hand) is still
 * neither a merchant of the feeds nor bookable through the booking server.
 */
import { describe, expect, it } from "vitest";
import { book, expectInvalid, expectProblem, newClient } from "./helpers";
import { merchant, newToken, partner, romeSec, SAMPLES, v3 } from "./searchengine.fixtures";

/** A merchant whose property is then made a sandbox, as one switched on before sandboxes were refused. */
async function sandboxMerchant() {
  const m = await merchant();
  await m.client.d1.prepare("UPDATE properties SET sandbox = 1 WHERE id = ?").bind(m.client.propertyId).run();
  return m;
}

describe("POST /reservations/searchengine on a sandbox property", () => {
  it("refuses to turn the search engine on (400 naming enable_searchengine), and lets it be turned off", async () => {
    const client = await newClient();
    const refused = await client.call("/api/v2/reservations/searchengine", {
      body: { enable_searchengine: true },
    });
    expectProblem(refused, 400, "validation error");
    expect(refused.json.errors.map((e: { path: string }) => e.path)).toEqual(["enable_searchengine"]);
    expect(
      (await client.call("/api/v2/reservations/searchengine", { body: { enable_searchengine: false } }))
        .status,
    ).toBe(201);
  });
});

describe("the search engine and a sandbox whose switch is on", () => {
  it("leaves it out of the merchants, services and availability feeds", async () => {
    const live = await merchant();
    const m = await sandboxMerchant();
    const merchants = (await partner("/feeds/merchants.json")).json.merchant.map(
      (x: { merchant_id: string }) => x.merchant_id,
    );
    expect(merchants).toContain(live.merchantId);
    expect(merchants).not.toContain(m.merchantId);
    expect((await partner(`/feeds/services.json?merchant_id=${m.merchantId}`)).json.service).toEqual([]);
    expect(
      (await partner(`/feeds/availability.json?merchant_id=${m.merchantId}`)).json.service_availability,
    ).toEqual([]);
  });

  it("takes no booking: CreateBooking answers SLOT_UNAVAILABLE and writes nothing, the lookup says unavailable", async () => {
    const m = await sandboxMerchant();
    const start = romeSec(m.date, "20:00");
    const created = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, start, newToken()).request,
    );
    expect(created.booking_failure).toMatchObject({ cause: "SLOT_UNAVAILABLE" });
    expect(created.booking).toBeUndefined();
    const lookup = await v3(
      "BatchAvailabilityLookup",
      SAMPLES.batchAvailabilityLookup(m.merchantId, m.serviceId, [start]).request,
    );
    expect(lookup.slot_time_availability.every((s: { available: boolean }) => !s.available)).toBe(true);
    const count = await m.client.d1
      .prepare("SELECT count(*) AS n FROM reservations WHERE property_id = ?")
      .bind(m.client.propertyId)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("refuses channel SEARCHENGINE on POST /reservations (400 naming channel)", async () => {
    const m = await sandboxMerchant();
    expectInvalid(
      await book(m.client, {
        start_date: m.date,
        start_hour: "20:00:00",
        service_id: m.service.id,
        channel: "SEARCHENGINE",
      }),
      "channel",
    );
  });
});
