/**
 * Times and feeds of the search engine: start_sec is the UTC instant of the
 * restaurant's wall clock, across both DST nights of Europe/Rome; the notice and the window are
 * the restaurant's; the three feeds list what the booking server would take, and a switch turned
 * off leaves them, and availability, at once. The Worker's clock is pinned where the date matters.
 */
import { describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { GUEST } from "./helpers";
import { merchant, newToken, partner, romeSec, SAMPLES, setSwitch, v3 } from "./searchengine.fixtures";

const at = (iso: string) => Date.parse(iso) / 1000;
const LATE = { name: "Late", start_hour: "00:00", end_hour: "04:00", slot_interval: 30 };

async function feed(kind: string, merchantId?: string): Promise<any> {
  const res = await partner(`/feeds/${kind}.json${merchantId ? `?merchant_id=${merchantId}` : ""}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** The availability feed's entries of one merchant, for a party of `pax`, between two instants. */
async function offered(merchantId: string, pax: number, from: number, to: number) {
  const f = await feed("availability", merchantId);
  return f.service_availability
    .flatMap((s: any) => s.availability)
    .filter((a: any) => a.resources.party_size === pax && a.start_sec >= from && a.start_sec < to);
}

const lookup = async (m: { merchantId: string; serviceId: string }, starts: number[], pax = 2) =>
  (
    await v3("BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: starts.map((s) => ({
        service_id: m.serviceId,
        start_sec: s,
        resource_ids: { party_size: pax },
      })),
    })
  ).slot_time_availability.map((a: any) => a.available);

describe("start_sec across the clocks' changes in Europe/Rome", () => {
  it("spring forward (2027-03-28, 02:00 CET -> 03:00 CEST): no slot in the skipped hour, 03:00 is 01:00Z", async () => {
    setClock("2027-03-20T12:00:00Z");
    try {
      const m = await merchant({ service: LATE, settings: { max_days_ahead: 30 } });
      const slots = await offered(m.merchantId, 2, at("2027-03-27T22:00:00Z"), at("2027-03-28T03:00:00Z"));
      expect(slots.map((a: any) => new Date(a.start_sec * 1000).toISOString())).toEqual(
        [
          "2027-03-27T23:00",
          "2027-03-27T23:30",
          "2027-03-28T00:00",
          "2027-03-28T00:30",
          "2027-03-28T01:00",
          "2027-03-28T01:30",
          "2027-03-28T02:00",
        ].map((t) => `${t}:00.000Z`),
      );
      expect(slots[0]).toMatchObject({
        duration_sec: 1800,
        spots_total: 1,
        spots_open: 1,
        service_id: m.serviceId,
      });
      // 01:00Z is 03:00 CEST; 00:45Z is 01:45 CET, off the grid of 30 minutes.
      expect(await lookup(m, [at("2027-03-28T01:00:00Z"), at("2027-03-28T00:45:00Z")])).toEqual([
        true,
        false,
      ]);
      const res = await v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, at("2027-03-28T01:00:00Z"), newToken()).request,
      );
      const reservation = (await m.client.call(`/api/v2/reservations/${res.booking.booking_id}`)).json
        .data[0];
      expect(reservation).toMatchObject({ start_day: "2027-03-28", start_hour: "03:00:00" });
      expect(res.booking.slot.start_sec).toBe(at("2027-03-28T01:00:00Z"));
    } finally {
      setClock(undefined);
    }
  });

  it("fall back (2026-10-25, 03:00 CEST -> 02:00 CET): the repeated hour is offered once, at its second pass", async () => {
    setClock("2026-10-18T12:00:00Z");
    try {
      const m = await merchant({ service: LATE, settings: { max_days_ahead: 30 } });
      const slots = await offered(m.merchantId, 2, at("2026-10-24T21:00:00Z"), at("2026-10-25T04:00:00Z"));
      // 00:00, 00:30, 01:00, 01:30 CEST; 02:00, 02:30 once (CET); 03:00, 03:30, 04:00 CET.
      expect(slots.map((a: any) => new Date(a.start_sec * 1000).toISOString().slice(0, 16))).toEqual([
        "2026-10-24T22:00",
        "2026-10-24T22:30",
        "2026-10-24T23:00",
        "2026-10-24T23:30",
        "2026-10-25T01:00",
        "2026-10-25T01:30",
        "2026-10-25T02:00",
        "2026-10-25T02:30",
        "2026-10-25T03:00",
      ]);
      // 02:30 CEST (00:30Z) and 02:30 CET (01:30Z) are one wall-clock time: only the offered instant books.
      expect(await lookup(m, [at("2026-10-25T00:30:00Z"), at("2026-10-25T01:30:00Z")])).toEqual([
        false,
        true,
      ]);
      const first = await v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, at("2026-10-25T00:30:00Z"), newToken()).request,
      );
      expect(first.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
      const res = await v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, at("2026-10-25T01:30:00Z"), newToken()).request,
      );
      const reservation = (await m.client.call(`/api/v2/reservations/${res.booking.booking_id}`)).json
        .data[0];
      expect(reservation).toMatchObject({ start_day: "2026-10-25", start_hour: "02:30:00" });
    } finally {
      setClock(undefined);
    }
  });
});

describe("notice and window", () => {
  it("keep the restaurant's min_notice and max_days_ahead, in its own clock", async () => {
    // 18:00 in Rome (CET) on 2027-01-15; a notice of 90 minutes: 19:30 is the first bookable time.
    setClock("2027-01-15T17:00:00Z");
    try {
      const m = await merchant({ settings: { min_notice: 90, max_days_ahead: 3 } });
      const day = (d: string, h: string) => romeSec(d, h);
      expect(
        await lookup(m, [
          day("2027-01-15", "19:00"),
          day("2027-01-15", "19:15"),
          day("2027-01-15", "19:30"),
          day("2027-01-18", "19:00"),
          day("2027-01-19", "19:00"),
        ]),
      ).toEqual([false, false, true, true, false]);
      const soon = await v3(
        "CreateBooking",
        SAMPLES.createBooking(m.merchantId, m.serviceId, day("2027-01-15", "19:00"), newToken()).request,
      );
      expect(soon.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
      const hours = (
        await offered(m.merchantId, 2, day("2027-01-15", "00:00"), day("2027-01-16", "00:00"))
      ).map((a: any) => a.start_sec);
      expect(hours[0]).toBe(day("2027-01-15", "19:30"));
      const last = (await offered(m.merchantId, 2, 0, Number.MAX_SAFE_INTEGER)).at(-1);
      expect(last.start_sec).toBe(day("2027-01-18", "21:00"));
    } finally {
      setClock(undefined);
    }
  });
});

describe("GET /searchengine/feeds/*.json", () => {
  it("list the merchant, its online services, and its slots per party size with spots_total and spots_open", async () => {
    const m = await merchant({ tables: [2, 2, 4], settings: { max_days_ahead: 14, max_online_pax: 4 } });
    await m.client.call(`/api/v2/properties/${m.client.propertyId}`, {
      method: "PUT",
      body: {
        position: {
          latitude: 41.9,
          longitude: 12.5,
          address: "Via del Corso 1",
          city: "Roma",
          zip: "00186",
          country: "IT",
        },
      },
      property: undefined,
    });
    const offline = (
      await m.client.call("/api/v2/services", {
        body: { name: "Staff lunch", start_hour: "12:00", end_hour: "13:00", online: false },
      })
    ).json.data[0];
    await m.client.call("/api/v2/reservations", {
      body: {
        start_date: m.date,
        start_hour: "20:00:00",
        pax: 2,
        service_id: m.service.id,
        customer: GUEST,
        table_ids: [m.tables[0]!.id],
      },
    });

    const merchants = (await feed("merchants")).merchant.filter((x: any) => x.merchant_id === m.merchantId);
    expect(merchants).toEqual([
      {
        merchant_id: m.merchantId,
        name: "Osteria del Motore",
        telephone: "+39 06 1234567",
        url: "https://osteria.example",
        category: "restaurant",
        geo: {
          latitude: 41.9,
          longitude: 12.5,
          address: {
            street_address: "Via del Corso 1",
            locality: "Roma",
            postal_code: "00186",
            country: "IT",
          },
        },
      },
    ]);
    const services = await feed("services", m.merchantId);
    expect(services.metadata).toMatchObject({
      processing_instruction: "PROCESS_AS_INCREMENTAL",
      shard_number: 0,
      total_shards: 1,
    });
    expect(services.service).toEqual([
      {
        merchant_id: m.merchantId,
        service_id: m.serviceId,
        name: "Dinner",
        description: "From the wood oven",
      },
    ]);
    expect(services.service.map((x: any) => x.service_id)).not.toContain(String(offline.id));

    const at20 = romeSec(m.date, "20:00");
    const entries = (await feed("availability", m.merchantId)).service_availability
      .flatMap((x: any) => x.availability)
      .filter((a: any) => a.start_sec === at20);
    // Parties of 1 and 2 fit all three tables, 3 and 4 only the 4-top; the 20:00 party holds one 2-top.
    expect(entries.map((a: any) => [a.resources.party_size, a.spots_total, a.spots_open])).toEqual([
      [1, 3, 2],
      [2, 3, 2],
      [3, 1, 1],
      [4, 1, 1],
    ]);
    expect(entries[0]).toMatchObject({
      merchant_id: m.merchantId,
      service_id: m.serviceId,
      duration_sec: 1800,
      confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
    });
  });

  it("agree with BatchAvailabilityLookup: every open slot of the feed is available, every full one is not", async () => {
    const m = await merchant({ settings: { max_days_ahead: 12 } });
    await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:30"), newToken()).request,
    );
    // From tomorrow on: a time of today could pass between the feed and the lookup.
    const slots = (await feed("availability", m.merchantId)).service_availability
      .flatMap((x: any) => x.availability)
      .filter((a: any) => a.start_sec > now() / 1000 + 86_400);
    expect(slots.some((a: any) => a.spots_open === 0)).toBe(true);
    const res = await v3("BatchAvailabilityLookup", {
      merchant_id: m.merchantId,
      slot_time: slots.map((a: any) => ({
        service_id: a.service_id,
        start_sec: a.start_sec,
        duration_sec: a.duration_sec,
        resource_ids: a.resources,
      })),
    });
    expect(res.slot_time_availability.map((a: any) => a.available)).toEqual(
      slots.map((a: any) => a.spots_open > 0),
    );
  });

  it("drop a merchant whose switch is turned off at once, and availability answers nothing for it", async () => {
    const m = await merchant();
    const start = romeSec(m.date, "19:00");
    expect(await lookup(m, [start])).toEqual([true]);
    await setSwitch(m.client, false);
    expect((await feed("merchants")).merchant.map((x: any) => x.merchant_id)).not.toContain(m.merchantId);
    expect((await feed("services", m.merchantId)).service).toEqual([]);
    expect((await feed("availability", m.merchantId)).service_availability).toEqual([]);
    expect(await lookup(m, [start])).toEqual([false]);
    const refused = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, start, newToken()).request,
    );
    expect(refused.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
    await setSwitch(m.client, true);
    expect(await lookup(m, [start])).toEqual([true]);
  });
});
