/**
 * Booking notifications: a change of a search-engine booking made outside the
 * booking server reaches the notification API (the test receiver plays it and Google's token
 * endpoint) through the webhook outbox, with its retries and records. The receiver accepts only
 * tokens it issued for assertions signed by the service-account key it handed out.
 */
import { env } from "cloudflare:workers";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import {
  accessToken,
  forgetToken,
  MAPSBOOKING_SCOPE,
  sendNotification,
} from "../../worker/searchengine/notify";
import { book } from "./helpers";
import { merchant, newToken, romeSec, SAMPLES, setSwitch, v3 } from "./searchengine.fixtures";
import { type Answer, type Received, waitFor } from "./webhooks.helpers";

const PARTNER_ID = env.SEARCHENGINE_PARTNER_ID!;
const KEY = JSON.parse(env.SEARCHENGINE_SERVICE_ACCOUNT!);

/** The receiver's record of notifications for booking `id`, answering `answers` in order, then 200. */
async function googleSide(id: string, answers: Answer[] = []) {
  const name = `google-booking-${id}`;
  const res = await fetch(`${env.RECEIVER_URL}/control/${name}`, {
    method: "PUT",
    body: JSON.stringify({ answers }),
  });
  expect(res.status).toBe(204);
  return {
    received: async (): Promise<(Received & { method: string; url: string })[]> =>
      (await fetch(`${env.RECEIVER_URL}/control/${name}`)).json(),
    /** waits until `n` notifications came */
    async got(n: number) {
      return waitFor(`${n} notification(s) of booking ${id}`, async () => {
        const list = await this.received();
        return list.length >= n && list;
      });
    },
  };
}

async function googleBooking(m: Awaited<ReturnType<typeof merchant>>, hour = "19:00") {
  return (
    await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, hour), newToken()).request,
    )
  ).booking.booking_id as string;
}

/** The outbox's search-engine deliveries of a reservation, with their attempts' statuses. */
async function records(d1: D1Database, id: string) {
  const { results } = await d1
    .prepare(
      `SELECT d.id, d.state, d.attempts, (SELECT group_concat(coalesce(a.status_code, 'none')) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS statuses
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE e.reservation_id = ? AND e.type = 'SEARCHENGINE_BOOKING' ORDER BY d.id`,
    )
    .bind(Number(id))
    .all<{ id: number; state: string; attempts: number; statuses: string | null }>();
  return results;
}

describe("a change made by the restaurant", () => {
  it("a cancellation is PATCHed with updateMask=status and status CANCELED, with an access token of the service account", async () => {
    const m = await merchant();
    const id = await googleBooking(m);
    const google = await googleSide(id);
    expect((await m.client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    const [sent] = await google.got(1);
    expect(sent!.method).toBe("PATCH");
    expect(sent!.url).toBe(
      `/google/v1alpha/notification/partners/${PARTNER_ID}/bookings/${id}?updateMask=status`,
    );
    expect(sent!.headers.authorization).toMatch(/^Bearer ya29\.test-/);
    expect(JSON.parse(sent!.body)).toEqual({
      name: `partners/${PARTNER_ID}/bookings/${id}`,
      merchantId: m.merchantId,
      serviceId: m.serviceId,
      status: "CANCELED",
    });
    await waitFor("the delivery recorded", async () =>
      (await records(m.client.d1, id)).find((r) => r.state === "delivered"),
    );
    expect(await records(m.client.d1, id)).toMatchObject([
      { state: "delivered", attempts: 1, statuses: "200" },
    ]);
  });

  it("a move sends startTime, a new party size partySize, a new length duration: only what changed", async () => {
    const m = await merchant({ tables: [2, 4] });
    const id = await googleBooking(m);
    const google = await googleSide(id);
    const put = (body: Record<string, unknown>) =>
      m.client.call(`/api/v2/reservations/${id}`, { method: "PUT", body });
    expect((await put({ start_hour: "20:00:00" })).status).toBe(200);
    expect((await put({ pax: 3 })).status).toBe(200);
    expect((await put({ duration: 90 })).status).toBe(200);
    const sent = await google.got(3);
    expect(sent.map((s) => new URL(s.url, "http://x").searchParams.get("updateMask"))).toEqual([
      "startTime",
      "partySize",
      "duration",
    ]);
    const [moved, party, longer] = sent.map((s) => JSON.parse(s.body));
    expect(moved.startTime).toBe(
      new Date(romeSec(m.date, "20:00") * 1000).toISOString().replace(".000Z", "Z"),
    );
    expect(party).toMatchObject({ partySize: 3, merchantId: m.merchantId });
    expect(longer).toMatchObject({ duration: "5400s" });
  });

  it("is retried on the webhook schedule while the API fails, every attempt recorded", async () => {
    const m = await merchant();
    const id = await googleBooking(m);
    const google = await googleSide(id, [{ status: 500 }, { status: 503 }]);
    expect((await m.client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    const sent = await google.got(3);
    expect(sent.map((s) => s.answered)).toEqual([500, 503, 200]);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    const delivered = await waitFor("the delivery delivered", async () =>
      (await records(m.client.d1, id)).find((r) => r.state === "delivered"),
    );
    expect(delivered).toMatchObject({ attempts: 3, statuses: "500,503,200" });
  });

  it("still reports bookings made before the switch went off", async () => {
    const m = await merchant();
    const id = await googleBooking(m);
    await setSwitch(m.client, false);
    const google = await googleSide(id);
    expect((await m.client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(JSON.parse((await google.got(1))[0]!.body).status).toBe("CANCELED");
  });
});

describe("what is not reported", () => {
  it("the booking server's own changes, reservations it did not make, and changes the search engine does not show", async () => {
    const m = await merchant({ tables: [2, 2] });
    const id = await googleBooking(m);
    const outbox = async (rid: number | string) =>
      (await m.client.d1
        .prepare(
          "SELECT count(*) AS n FROM webhook_events WHERE reservation_id = ? AND type = 'SEARCHENGINE_BOOKING'",
        )
        .bind(Number(rid))
        .first<{ n: number }>())!.n;
    // Google moves it and then cancels it itself: it knows.
    await v3("UpdateBooking", {
      booking: { booking_id: id, slot: { start_sec: romeSec(m.date, "20:00"), duration_sec: 1800 } },
    });
    // Notes, and ACCEPTED -> CONFIRMED (both CONFIRMED to the search engine), are not its business.
    expect(
      (await m.client.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { notes: "regulars" } }))
        .status,
    ).toBe(200);
    expect(
      (await m.client.call(`/api/v2/reservations/${id}/status?status=confirmed`, { method: "PATCH" })).status,
    ).toBe(200);
    await v3("UpdateBooking", { booking: { booking_id: id, status: "CANCELED" } });
    expect(await outbox(id)).toBe(0);
    const staff = (await book(m.client, { start_date: m.date, service_id: m.service.id })).json.data[0];
    expect((await m.client.call(`/api/v2/reservations/${staff.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await outbox(staff.id)).toBe(0);
  });
});

describe("the sender", () => {
  it("signs an RS256 assertion for the mapsbooking scope and keeps the token until it nearly expires", async () => {
    const key = { ...KEY, client_email: `cache-${newToken()}@partner-test.iam.gserviceaccount.com` };
    const asked: string[] = [];
    const fetcher = (async (_url: string, init: RequestInit) => {
      asked.push(new URLSearchParams(String(init.body)).get("assertion")!);
      return new Response(
        JSON.stringify({ access_token: `token-${asked.length}`, expires_in: asked.length === 1 ? 3600 : 30 }),
        { status: 200 },
      );
    }) as typeof fetch;
    expect(await accessToken(key, 1000, fetcher)).toBe("token-1");
    expect(await accessToken(key, 1000, fetcher)).toBe("token-1");
    expect(asked).toHaveLength(1);
    expect(decodeProtectedHeader(asked[0]!)).toMatchObject({ alg: "RS256", kid: KEY.private_key_id });
    expect(decodeJwt(asked[0]!)).toMatchObject({
      iss: key.client_email,
      aud: KEY.token_uri,
      scope: MAPSBOOKING_SCOPE,
    });
    forgetToken(key);
    expect(await accessToken(key, 1000, fetcher)).toBe("token-2");
    // A token that expires within the margin is not kept.
    expect(await accessToken(key, 1000, fetcher)).toBe("token-3");
  });

  it("records why nothing was sent when the service account or the partner id is missing", async () => {
    const event = {
      id: 0,
      uid: "msg_x",
      propertyId: 1,
      reservationId: 1,
      type: "SEARCHENGINE_BOOKING",
      snapshot: "{}",
      previous: null,
      payload: null,
      actor: null,
      createdAt: "",
    };
    const noKey = await sendNotification(
      { ...env, SEARCHENGINE_SERVICE_ACCOUNT: undefined },
      env.SHARD_0!,
      event,
      1000,
    );
    expect(noKey).toMatchObject({
      status: null,
      error: expect.stringContaining("SEARCHENGINE_SERVICE_ACCOUNT is not set"),
    });
    const noPartner = await sendNotification(
      { ...env, SEARCHENGINE_PARTNER_ID: "" },
      env.SHARD_0!,
      event,
      1000,
    );
    expect(noPartner.error).toContain("SEARCHENGINE_PARTNER_ID");
  });
});
