/**
 * A merchant moved to another shard keeps its search-engine bookings whole: the
 * booking server finds them by id and user during the move (once each, though two copies exist)
 * and after it, the idempotency token still answers the same booking, and the restaurant's later
 * changes are still reported.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, shardOf } from "./helpers";
import { merchant, newToken, partner, romeSec, SAMPLES, USER, v3 } from "./searchengine.fixtures";
import { waitFor } from "./webhooks.helpers";

const OPS = { Authorization: `Bearer ${env.OPS_TOKEN}` };

async function ops(step: Record<string, unknown>) {
  const res = await call("/__ops/move-property", { body: step, headers: OPS });
  if (res.status !== 200) throw new Error(`ops ${JSON.stringify(step)}: ${res.status} ${res.text}`);
  return res.json.data[0];
}

describe("a merchant moved between shards", () => {
  it("keeps its bookings findable, its tokens idempotent and its notifications flowing", async () => {
    const m = await merchant({ tables: [2, 2] });
    const user = { ...USER, user_id: `mover-${newToken()}` };
    const request = {
      ...SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
      user_information: user,
    };
    const booked = (await v3("CreateBooking", request)).booking;
    const from = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(m.client.propertyId)
      .first<{ shard: number }>())!.shard;
    const to = 1 - from;

    const begun = await ops({ step: "begin", property_id: m.client.propertyId, shard: to });
    for (const table of begun.tables as string[]) {
      for (let after = 0, done = false; !done; )
        ({ after, done } = await ops({
          step: "copy",
          property_id: m.client.propertyId,
          shard: to,
          table,
          after,
        }));
    }
    // Both shards hold a copy now: the search engine still sees one booking, and may look up availability.
    expect(
      (await v3("ListBookings", { user_id: user.user_id })).bookings.map((b: any) => b.booking_id),
    ).toEqual([booked.booking_id]);
    expect((await v3("GetBookingStatus", { booking_id: booked.booking_id })).booking_status).toBe(
      "CONFIRMED",
    );
    const lookup = await v3(
      "BatchAvailabilityLookup",
      SAMPLES.batchAvailabilityLookup(m.merchantId, m.serviceId, [romeSec(m.date, "20:00")]).request,
    );
    expect(lookup.slot_time_availability[0].available).toBe(true);
    // Writes wait for the move: 503 with Retry-After, as for the integrator API.
    const moving = await partner(
      "/v3/CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "20:00"), newToken()).request,
    );
    expect(moving.status).toBe(503);
    expect(moving.headers.get("Retry-After")).toBe("5");

    await ops({ step: "switch", property_id: m.client.propertyId, shard: to });
    for (let done = false; !done; )
      ({ done } = await ops({ step: "cleanup", property_id: m.client.propertyId, shard: begun.from }));
    const d1 = await shardOf(m.client.propertyId);
    expect(d1).not.toBe(m.client.d1);

    expect(await v3("CreateBooking", request)).toEqual({ booking: booked });
    expect((await v3("ListBookings", { user_id: user.user_id })).bookings).toEqual([booked]);
    const google = `${env.RECEIVER_URL}/control/google-booking-${booked.booking_id}`;
    expect((await fetch(google, { method: "PUT", body: JSON.stringify({ answers: [] }) })).status).toBe(204);
    const moved = await m.client.call(`/api/v2/reservations/${booked.booking_id}`, {
      method: "PUT",
      body: { start_hour: "20:30:00" },
    });
    expect(moved.status, moved.text).toBe(200);
    const [sent] = await waitFor("the notification of the move", async () => {
      const list = (await (await fetch(google)).json()) as { body: string; url: string }[];
      return list.length > 0 && list;
    });
    expect(sent!.url).toContain("updateMask=startTime");
    expect((await v3("UpdateBooking", SAMPLES.cancelBooking(booked.booking_id).request)).booking.status).toBe(
      "CANCELED",
    );
  });
});
