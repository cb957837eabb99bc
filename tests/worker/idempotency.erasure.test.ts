/**
 * A stored Idempotency-Key answer lives no longer than the right to see it: a client whose grant
 * was revoked is refused like any request of it, and an erasure forgets the stored answers that
 * hold the erased person's data.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { grant } from "./auth.fixtures";
import { call, expectProblem, newClient, seedRestaurant, unique } from "./helpers";
import { opsRevokeGrant } from "./oauth.fixtures";

const GUEST = {
  first_name: "Grace",
  last_name: "Hopper",
  email: "grace.hopper@example.com",
  phone: "+39 055 777777",
};

describe("Idempotency-Key replays after a revoked grant", () => {
  it("refuses the replay of a booking once the client's grant on the property is revoked (ops revoke-grant)", async () => {
    const owner = await newClient();
    const partner = await newClient();
    const { service, date } = await seedRestaurant(owner);
    await grant(partner.id, owner.propertyId);
    const key = unique("idem");
    const booking = {
      start_date: date,
      start_hour: "19:00:00",
      pax: 2,
      service_id: service.id,
      customer: GUEST,
    };
    const send = () =>
      call("/api/v2/reservations", {
        token: partner.token,
        property: owner.propertyId,
        body: booking,
        headers: { "Idempotency-Key": key },
      });
    expect((await send()).status).toBe(201);
    const again = await send();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");

    expect((await opsRevokeGrant(partner.clientId, owner.propertyId)).status).toBe(200);
    const replay = await send();
    expectProblem(replay, 403, "property forbidden");
    expect(replay.text).not.toContain(GUEST.email);
    expect(replay.text).not.toContain(GUEST.phone);
  });

  it("refuses the replay of a property's update once the grant is revoked", async () => {
    const owner = await newClient();
    const partner = await newClient();
    await grant(partner.id, owner.propertyId);
    const key = unique("idem");
    const send = () =>
      call(`/api/v2/properties/${owner.propertyId}`, {
        method: "PUT",
        token: partner.token,
        body: { phone: "+39 02 1" },
        headers: { "Idempotency-Key": key },
      });
    expect((await send()).status).toBe(200);
    expect((await opsRevokeGrant(partner.clientId, owner.propertyId)).status).toBe(200);
    expectProblem(await send(), 403, "property forbidden");
  });
});

describe("Idempotency-Key replays after DELETE /customers/{id}", () => {
  it("forgets the stored answers that show the erased guest: a replay no longer shows the email", async () => {
    const client = await newClient();
    const { service, date } = await seedRestaurant(client);
    const booked = await client.call("/api/v2/reservations", {
      body: { start_date: date, start_hour: "19:00:00", pax: 2, service_id: service.id, customer: GUEST },
      headers: { "Idempotency-Key": unique("idem") },
    });
    expect(booked.status, booked.text).toBe(201);
    const reservation = booked.json.data[0];
    const key = unique("idem");
    const note = () =>
      client.call(`/api/v2/reservations/${reservation.id}`, {
        method: "PUT",
        body: { notes: "by the window" },
        headers: { "Idempotency-Key": key },
      });
    const first = await note();
    expect(first.status, first.text).toBe(200);
    expect(first.text).toContain(GUEST.email);
    const stored = () =>
      env.DB.prepare(
        "SELECT count(*) AS n FROM idempotency_keys WHERE subjects IS NOT NULL AND response_body IS NOT NULL AND scope = ?",
      )
        .bind(`client:${client.id}`)
        .first<{ n: number }>();
    expect((await stored())!.n).toBe(2);

    expect(
      (await client.call(`/api/v2/customers/${reservation.customer.id}`, { method: "DELETE" })).status,
    ).toBe(200);
    expect((await stored())!.n).toBe(0);
    const replay = await note();
    expect(replay.headers.get("Idempotent-Replayed")).toBeNull();
    expect(replay.text).not.toContain(GUEST.email);
    expect(replay.text).not.toContain(GUEST.phone);
  });

  it("keeps the stored answers of other guests", async () => {
    const client = await newClient();
    const { service, date } = await seedRestaurant(client);
    const book = (guest: typeof GUEST, key: string, hour: string) =>
      client.call("/api/v2/reservations", {
        body: { start_date: date, start_hour: hour, pax: 2, service_id: service.id, customer: guest },
        headers: { "Idempotency-Key": key },
      });
    const other = { ...GUEST, email: "ada@example.com", phone: "+39 055 123456", first_name: "Ada" };
    const keep = unique("keep");
    const mine = (await book(GUEST, unique("gone"), "19:00:00")).json.data[0];
    expect((await book(other, keep, "20:00:00")).status).toBe(201);
    expect((await client.call(`/api/v2/customers/${mine.customer.id}`, { method: "DELETE" })).status).toBe(
      200,
    );
    const replay = await book(other, keep, "20:00:00");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
  });
});
