import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { attemptMany } from "../../worker/webhooks/delivery";
import {
  atArrival,
  book,
  dateInDays,
  insertReservation,
  newClient,
  seedRestaurant,
  type TestClient,
} from "./helpers";
import { GUEST as PUBLIC_GUEST, smallRestaurant } from "./public.fixtures";
import {
  deliveries,
  eventsOf,
  receiverHook,
  settled,
  subscribe,
  verified,
  waitFor,
} from "./webhooks.helpers";

async function restaurant() {
  const client = await newClient();
  const r = await seedRestaurant(client);
  const booking = (body: Record<string, unknown> = {}) =>
    book(client, { start_date: r.date, service_id: r.service.id, ...body });
  return { client, ...r, booking };
}

/** Waits until the hook has received `n` messages. */
const received = (hook: Awaited<ReturnType<typeof receiverHook>>, n: number, timeoutMs?: number) =>
  waitFor(
    `${n} message(s) at the receiver`,
    async () => {
      const got = await hook.received();
      return got.length >= n && got;
    },
    timeoutMs,
  );

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

async function deliveryOf(client: TestClient, subscriptionId: number, state: string) {
  return waitFor(`a ${state} delivery`, async () =>
    (await deliveries(client, subscriptionId)).find((d) => d.state === state),
  );
}

describe("webhook events", () => {
  it("sends RESERVATION_CREATED for a new reservation, signed (verified by the standardwebhooks library)", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const created = (await booking({ notes: "window" })).json.data[0];
    const [message] = await received(hook, 1);
    const payload = verified(sub.secret, message!);
    // the webhook-id is the event's id (unique across shards), and the event's row stores no copy of it
    const event = await client.d1
      .prepare("SELECT id, uid FROM webhook_events WHERE reservation_id = ?")
      .bind(created.id)
      .first<{ id: number; uid: string }>();
    expect(message!.headers["webhook-id"]).toBe(`msg_${event!.id}`);
    expect(event!.uid).toBe("");
    expect(payload).toMatchObject({
      id: message!.headers["webhook-id"],
      type: "RESERVATION_CREATED",
      property_id: client.propertyId,
    });
    expect(Date.parse(payload.created_at)).toBeGreaterThan(0);
    const read = (await client.call(`/api/v2/reservations/${created.id}`)).json.data[0];
    expect(payload.data.reservation).toEqual(read);
    expect(payload.data.previous_attributes).toBeUndefined();
  });

  it("a forged or altered message fails verification", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const [message] = await received(hook, 1);
    expect(() =>
      verified(sub.secret, { ...message!, body: message!.body.replace('"pax":2', '"pax":9') }),
    ).toThrow();
    const elsewhere = await subscribe(client, (await receiverHook()).url, "RESERVATION_UPDATED");
    expect(() => verified(elsewhere.secret, message!)).toThrow();
  });

  it("sends RESERVATION_UPDATED with previous_attributes for update, status, check-in, undo and cancel", async () => {
    const { client, booking, t2 } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    const created = (await booking()).json.data[0];
    const base = `/api/v2/reservations/${created.id}`;
    expect((await client.call(base, { method: "PUT", body: { pax: 3, table_ids: [t2.id] } })).status).toBe(
      200,
    );
    // Each change waits for its message, so they arrive in this order.
    await received(hook, 1);
    expect(
      (await atArrival(client, created, () => client.call(`${base}/checkin?undo=false`, { method: "PATCH" })))
        .status,
    ).toBe(200);
    await received(hook, 2);
    expect((await client.call(`${base}/checkin?undo=true`, { method: "PATCH" })).status).toBe(200);
    await received(hook, 3);
    expect((await client.call(base, { method: "DELETE" })).status).toBe(200);
    const messages = await received(hook, 4);
    const payloads = messages.map((m) => verified(sub.secret, m));
    expect(
      payloads.every((p) => p.type === "RESERVATION_UPDATED" && p.data.reservation.id === created.id),
    ).toBe(true);
    expect(payloads[0].data.previous_attributes).toMatchObject({ pax: 2 });
    expect(payloads[0].data.reservation.pax).toBe(3);
    expect(payloads[1].data.previous_attributes).toHaveProperty("checkin_date", null);
    expect(payloads[1].data.reservation.checkin_date).toEqual(expect.any(String));
    expect(payloads[2].data.previous_attributes.checkin_date).toEqual(
      payloads[1].data.reservation.checkin_date,
    );
    expect(payloads[3].data.previous_attributes.status).toBe("ACCEPTED");
    expect(payloads[3].data.reservation.status).toBe("CANCELLED");
    // Four changes, four distinct events, and no event for the creation (not subscribed).
    expect(new Set(messages.map((m) => m.headers["webhook-id"])).size).toBe(4);
  });

  it("a change of only the customer's details is a change: RESERVATION_UPDATED with the details before", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    const created = (await booking()).json.data[0];
    const put = await client.call(`/api/v2/reservations/${created.id}`, {
      method: "PUT",
      body: { customer: { id: created.customer.id, phone: "+39 333 0000000" } },
    });
    expect(put.status).toBe(200);
    const [message] = await received(hook, 1);
    const payload = verified(sub.secret, message!);
    expect(payload.data.reservation.customer.phone).toBe("+39 333 0000000");
    // the customer's record, and the guest as the reservation shows them
    expect(payload.data.previous_attributes).toEqual({ customer: created.customer, guest: created.guest });
    expect(payload.data.reservation.guest.phone).toBe("+39 333 0000000");
    // The same details again change nothing, and make no event: the outbox (written in the
    // change's own statement) holds none, so nothing more can reach the receiver.
    expect(
      (
        await client.call(`/api/v2/reservations/${created.id}`, {
          method: "PUT",
          body: { customer: { id: created.customer.id, phone: "+39 333 0000000" } },
        })
      ).status,
    ).toBe(200);
    expect(await eventsOf(client.d1, created.id)).toEqual({ RESERVATION_UPDATED: 1 });
    expect(await settled(client, sub.id)).toHaveLength(1);
    expect(await hook.received()).toHaveLength(1);
  });

  it("delivers one reservation's events in the order of its changes", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const created = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await subscribe(client, hook.url, "RESERVATION_UPDATED");
    // Changes back to back, without waiting for any delivery.
    const id = (await booking()).json.data[0].id;
    for (const pax of [3, 4, 2])
      expect((await client.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { pax } })).status).toBe(
        200,
      );
    expect((await client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    const messages = await received(hook, 5);
    const seen = messages
      .map((m) => JSON.parse(m.body))
      .map(
        (p) =>
          `${p.type === "RESERVATION_CREATED" ? "created" : p.data.reservation.status}:${p.data.reservation.pax}`,
      );
    expect(seen).toEqual(["created:2", "ACCEPTED:3", "ACCEPTED:4", "ACCEPTED:2", "CANCELLED:2"]);
    verified(created.secret, messages[0]!);
  });

  it("a guest's booking and cancellation through the public widget API fire their events too", async () => {
    const r = await smallRestaurant();
    const hook = await receiverHook();
    const created = await subscribe(r.client, hook.url, "RESERVATION_CREATED");
    const updated = await subscribe(r.client, hook.url, "RESERVATION_UPDATED");
    const booked = await r.guest.book({ date: r.date, hour: "19:00", pax: 2, guest: PUBLIC_GUEST });
    expect(booked.status, booked.text).toBe(201);
    const [first] = await received(hook, 1);
    const made = verified(created.secret, first!);
    expect(made.type).toBe("RESERVATION_CREATED");
    expect(made.data.reservation).toMatchObject({
      channel: "PLATFORM_BOOK",
      status: "ACCEPTED",
      start_day: r.date,
      start_hour: "19:00:00",
    });
    expect(
      (await r.guest.call(`/manage/${booked.json.data[0].manage_token}`, { method: "DELETE" })).status,
    ).toBe(200);
    const [, second] = await received(hook, 2);
    const cancelled = verified(updated.secret, second!);
    expect(cancelled.data.reservation).toMatchObject({ id: made.data.reservation.id, status: "CANCELLED" });
    expect(cancelled.data.previous_attributes.status).toBe("ACCEPTED");
  });

  it("a write the API refuses makes no event", async () => {
    const { client, booking, t1 } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    expect((await booking({ table_ids: [t1.id] })).status).toBe(201);
    expect((await booking({ table_ids: [t1.id] })).status).toBe(403);
    // One event in the outbox, delivered once: the refused write left nothing to send.
    const [delivery] = await settled(client, sub.id);
    expect(await deliveries(client, sub.id)).toHaveLength(1);
    expect(delivery.state).toBe("delivered");
    expect(await hook.received()).toHaveLength(1);
  });

  it("a PREPAY reservation expired by the cron reports RESERVATION_UPDATED", async () => {
    const { client, date } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    const id = await insertReservation(client.propertyId, { date, status: "PREPAY" });
    await client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(id)
      .run();
    // The direct write above was itself a change (payment_due_at), reported like any other.
    await runCron();
    const messages = await received(hook, 2);
    const last = verified(sub.secret, messages[1]!);
    expect(last.data.reservation).toMatchObject({ id, status: "EXPIRED" });
    expect(last.data.previous_attributes).toMatchObject({ status: "PREPAY" });
  });
});

describe("webhook delivery under faults", () => {
  it("retries a receiver that answers 500 twice, then delivers once more with the same webhook-id and body", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook([{ status: 500, body: "database down" }, { status: 500 }]);
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const messages = await received(hook, 3);
    expect(messages.map((m) => m.answered)).toEqual([500, 500, 200]);
    expect(new Set(messages.map((m) => m.headers["webhook-id"])).size).toBe(1);
    expect(new Set(messages.map((m) => m.body)).size).toBe(1);
    for (const m of messages) verified(sub.secret, m);
    const delivery = await deliveryOf(client, sub.id, "delivered");
    expect(delivery.attempts.map((a: any) => a.status)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0]).toMatchObject({
      status: 500,
      error: null,
      response_excerpt: "database down",
    });
    expect(delivery.attempts.every((a: any) => Number.isInteger(a.latency_ms) && a.latency_ms >= 0)).toBe(
      true,
    );
    expect(delivery.webhook_id).toBe(messages[0]!.headers["webhook-id"]);
    // Delivered is final: no attempt after it, so the receiver has exactly the three.
    expect(await settled(client, sub.id)).toHaveLength(1);
    expect(await hook.received()).toHaveLength(3);
  });

  it("keeps an event's body while one of its deliveries is undelivered, and deletes it once all are delivered", async () => {
    const { client, booking } = await restaurant();
    const healthy = await receiverHook();
    // a Retry-After the tests' scaled-down schedule cannot shorten: the second attempt is 3 s away
    const flaky = await receiverHook([{ status: 500, headers: { "Retry-After": "3" } }]);
    const a = await subscribe(client, healthy.url, "RESERVATION_CREATED");
    const b = await subscribe(client, flaky.url, "RESERVATION_CREATED");
    const created = (await booking()).json.data[0];
    const event = () =>
      client.d1
        .prepare(
          "SELECT e.snapshot AS kept, b.snapshot, b.previous, b.payload FROM webhook_events e LEFT JOIN webhook_event_bodies b ON b.event_id = e.id WHERE e.reservation_id = ?",
        )
        .bind(created.id)
        .first<{ kept: string; snapshot: string | null; previous: string | null; payload: string | null }>();
    await deliveryOf(client, a.id, "delivered");
    // the flaky receiver's delivery is pending until its retry, so the body stays
    await waitFor("the flaky receiver's first answer", async () => (await flaky.received()).length >= 1);
    const pending = await event();
    // the event's own row is small from the start: its body lives beside it
    expect(pending!.kept).toBe("{}");
    expect(JSON.parse(pending!.snapshot!)).toMatchObject({ id: created.id });
    expect(pending!.payload).toBe((await healthy.received())[0]!.body);
    await deliveryOf(client, b.id, "delivered");
    expect(await event()).toEqual({ kept: "{}", snapshot: null, previous: null, payload: null });
    const [second] = (await flaky.received()).slice(1);
    expect(second!.body).toBe(pending!.payload);
    // the delivery log is whole: both deliveries, with every attempt
    expect((await deliveries(client, b.id))[0].attempts.map((x: { status: number }) => x.status)).toEqual([
      500, 200,
    ]);
    expect((await deliveries(client, a.id))[0].attempts.map((x: { status: number }) => x.status)).toEqual([
      200,
    ]);
  }, 30_000);

  it("keeps trying a receiver that is down and delivers when it is back", async () => {
    const { client, booking } = await restaurant();
    const { port } = await (await fetch(`${env.RECEIVER_URL}/listener`, { method: "POST" })).json<{
      port: number;
    }>();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url.replace(/:\d+\//, `:${port}/`), "RESERVATION_CREATED");
    await booking();
    const failing = await waitFor("two failed attempts", async () => {
      const [d] = await deliveries(client, sub.id);
      return d?.attempts.length >= 2 && d;
    });
    expect(failing.state).toBe("pending");
    expect(failing.attempts[0]).toMatchObject({
      status: null,
      error: expect.stringMatching(/^could not connect/),
    });
    expect(await hook.received()).toHaveLength(0);
    expect((await fetch(`${env.RECEIVER_URL}/listener/${port}/up`, { method: "POST" })).status).toBe(204);
    const [message] = await received(hook, 1);
    verified(sub.secret, message!);
    expect((await deliveryOf(client, sub.id, "delivered")).attempts.at(-1).status).toBe(200);
  });

  it("disables the subscription when the receiver answers 410 Gone", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook([{ status: 410 }]);
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const failed = await deliveryOf(client, sub.id, "failed");
    expect(failed.attempts).toHaveLength(1);
    expect(failed.last_error).toBe("the endpoint answered 410 Gone: subscription disabled");
    const read = (await client.call(`/api/v2/webhooks/subscription/${sub.id}`)).json.data[0];
    expect(read).toMatchObject({ enabled: false, disabled_reason: "the endpoint answered 410 Gone" });
    // Later changes make no deliveries while it is disabled, and the list still shows it.
    expect((await client.call("/api/v2/webhooks/subscriptions")).json.data.map((x: any) => x.id)).toContain(
      sub.id,
    );
    // The fan-out runs in the booking's own statement: no delivery row, so nothing to send.
    await booking({ start_hour: "21:00:00" });
    expect(await deliveries(client, sub.id)).toHaveLength(1);
    expect(await hook.received()).toHaveLength(1);
    // A PUT enables it again.
    expect(
      (await client.call(`/api/v2/webhook/subscription/${sub.id}`, { method: "PUT", body: {} })).json.data[0]
        .enabled,
    ).toBe(true);
    await booking({ start_hour: "20:00:00" });
    await received(hook, 2);
  });

  it("times out a receiver that hangs and retries it", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook([{ status: 200, hangMs: 3000 }]);
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const delivered = await deliveryOf(client, sub.id, "delivered");
    expect(delivered.attempts).toHaveLength(2);
    expect(delivered.attempts[0]).toMatchObject({ status: null, error: "no answer within 1000 ms" });
    // It waited for the whole timeout (how much longer is the bench's business, not a test's).
    expect(delivered.attempts[0].latency_ms).toBeGreaterThanOrEqual(1000);
    expect(delivered.attempts[1].status).toBe(200);
  });

  it("honours Retry-After", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook([{ status: 503, headers: { "Retry-After": "3" } }]);
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const [first, second] = await received(hook, 2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2900);
    expect((await deliveryOf(client, sub.id, "delivered")).attempts.map((a: any) => a.status)).toEqual([
      503, 200,
    ]);
  });

  it("disables a subscription whose endpoint stopped being allowed (the property left the sandbox)", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await client.d1.prepare("UPDATE properties SET sandbox = 0 WHERE id = ?").bind(client.propertyId).run();
    await booking();
    const failed = await deliveryOf(client, sub.id, "failed");
    expect(failed.attempts).toEqual([
      expect.objectContaining({
        status: null,
        error: expect.stringMatching(/^endpoint not allowed: endpoint must use https/),
      }),
    ]);
    expect(await hook.received()).toHaveLength(0);
    const read = (await client.call(`/api/v2/webhooks/subscription/${sub.id}`)).json.data[0];
    expect(read.enabled).toBe(false);
    expect(read.disabled_reason).toMatch(/^endpoint not allowed/);
  });

  it("does not follow redirects", async () => {
    const { client, booking } = await restaurant();
    const target = await receiverHook();
    const hook = await receiverHook([{ status: 307, headers: { Location: target.url } }]);
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const delivered = await deliveryOf(client, sub.id, "delivered");
    expect(delivered.attempts[0]).toMatchObject({
      status: 307,
      error: `redirect to ${target.url} not followed`,
    });
    expect(await target.received()).toHaveLength(0);
  });

  it("marks an event failed once the schedule is exhausted, and replays it with one call", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook(Array.from({ length: 8 }, () => ({ status: 500 })));
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    await booking();
    const failed = await waitFor(
      "a failed delivery",
      async () => (await deliveries(client, sub.id, "?state=failed"))[0],
      40_000,
      1000,
    );
    expect(failed.attempts).toHaveLength(8);
    expect(failed.last_error).toBe("the endpoint answered 500; retries exhausted");
    expect(failed.next_attempt_at).toBeNull();
    const replay = await client.call(
      `/api/v2/webhooks/subscription/${sub.id}/deliveries/${failed.id}/replay`,
      { method: "POST" },
    );
    expect(replay.status).toBe(202);
    expect(replay.json.data[0].state).toBe("pending");
    const messages = await received(hook, 9);
    expect(messages[8]!.answered).toBe(200);
    expect(messages[8]!.headers["webhook-id"]).toBe(failed.webhook_id);
    expect(messages[8]!.body).toBe(messages[0]!.body);
    const again = await client.call(
      `/api/v2/webhooks/subscription/${sub.id}/deliveries/${failed.id}/replay`,
      { method: "POST" },
    );
    expect(again.status).toBe(409);
    expect(again.json.title).toBe("delivery not failed");
  }, 60_000);

  it("delivers through the sweeper when the Worker stopped between the commit and the send", async () => {
    const { client, date } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    // A write committed by a Worker that then stopped: the outbox row exists, nothing was queued.
    const id = await insertReservation(client.propertyId, { date });
    const [pending] = await deliveries(client, sub.id);
    expect(pending).toMatchObject({ state: "pending", reservation_id: id, attempts: [] });
    // Never queued: without the sweeper no message is on its way.
    const row = await client.d1
      .prepare("SELECT queued_at FROM webhook_deliveries WHERE id = ?")
      .bind(pending.id)
      .first<{ queued_at: string | null }>();
    expect(row!.queued_at).toBeNull();
    expect(await hook.received()).toHaveLength(0);
    await runCron();
    const [message] = await received(hook, 1);
    expect(verified(sub.secret, message!).data.reservation.id).toBe(id);
  });

  it("signs with both secrets while a rotated one overlaps, then with the new one only", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const rotated = await client.call(`/api/v2/webhooks/subscription/${sub.id}/rotate-secret`, {
      method: "POST",
      body: { overlap_seconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    const secret = rotated.json.data[0].secret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(sub.secret);
    await booking();
    const [message] = await received(hook, 1);
    expect(message!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    verified(secret, message!);
    verified(sub.secret, message!);
    await client.call(`/api/v2/webhooks/subscription/${sub.id}/rotate-secret`, {
      method: "POST",
      body: { overlap_seconds: 0 },
    });
    const latest = (
      await client.call(`/api/v2/webhooks/subscription/${sub.id}/rotate-secret`, {
        method: "POST",
        body: { overlap_seconds: 0 },
      })
    ).json.data[0].secret;
    await booking({ start_hour: "21:00:00" });
    const [, next] = await received(hook, 2);
    expect(next!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    verified(latest, next!);
    expect(() => verified(secret, next!)).toThrow();
  });
});

describe("webhooks under concurrency", () => {
  it("many reservations changed in parallel: every change makes exactly one event, and every event reaches its subscriber", async () => {
    const client = await newClient();
    const room = (await client.call("/api/v2/rooms", { body: { name: "Hall" } })).json.data[0];
    const tables = await Promise.all(
      Array.from(
        { length: 12 },
        async (_, i) =>
          (await client.call("/api/v2/tables", { body: { name: `T${i}`, room_id: room.id, guests_max: 4 } }))
            .json.data[0],
      ),
    );
    const service = (
      await client.call("/api/v2/services", {
        body: { name: "Dinner", start_hour: "18:00", end_hour: "23:00" },
      })
    ).json.data[0];
    const created = await receiverHook();
    const updated = await receiverHook();
    const subCreated = await subscribe(client, created.url, "RESERVATION_CREATED");
    const subUpdated = await subscribe(client, updated.url, "RESERVATION_UPDATED");
    const date = dateInDays(20);
    const made = await Promise.all(
      tables.map((t, i) =>
        book(client, {
          start_date: date,
          start_hour: i % 2 ? "19:00:00" : "21:00:00",
          service_id: service.id,
          table_ids: [t.id],
        }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(tables.map(() => 201));
    const ids = made.map((r) => r.json.data[0].id as number);
    // Two changes of each, all at once: a pax change and a cancellation.
    const changes = await Promise.all(
      ids.flatMap((id) => [
        client.call(`/api/v2/reservations/${id}`, { method: "PUT", body: { pax: 3 } }),
        client.call(`/api/v2/reservations/${id}`, { method: "DELETE" }),
      ]),
    );
    const applied = changes.filter((r) => r.status === 200).length;
    // A PUT that loses the race to the cancellation may be refused; only applied changes count.
    const history = await client.d1
      .prepare(
        `SELECT count(*) AS n FROM reservation_history WHERE reservation_id IN (${ids.join(",")}) AND action <> 'created'`,
      )
      .first<{ n: number }>();
    const events = await client.d1
      .prepare(
        `SELECT type, count(*) AS n FROM webhook_events WHERE reservation_id IN (${ids.join(",")}) GROUP BY type ORDER BY type`,
      )
      .all<{ type: string; n: number }>();
    expect(events.results).toEqual([
      { type: "RESERVATION_CREATED", n: ids.length },
      { type: "RESERVATION_UPDATED", n: history!.n },
    ]);
    expect(history!.n).toBeGreaterThanOrEqual(ids.length);
    expect(applied).toBe(history!.n);
    const uids = (
      await client.d1
        .prepare(
          `SELECT 'msg_' || id AS uid FROM webhook_events WHERE reservation_id IN (${ids.join(",")}) ORDER BY id`,
        )
        .all<{ uid: string }>()
    ).results.map((r) => r.uid);
    const got = [
      ...(await received(created, ids.length, 30_000)),
      ...(await received(updated, history!.n, 30_000)),
    ];
    expect(new Set(got.map((m) => m.headers["webhook-id"]))).toEqual(new Set(uids));
    // At least once: a message comes again only after an attempt of it that did not succeed (on
    // a loaded machine the receiver may answer after the test's one-second timeout), never twice
    // from one attempt or from two attempts racing.
    const unaccepted = await client.d1
      .prepare(
        `SELECT 'msg_' || d.event_id AS uid, count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE d.reservation_id IN (${ids.join(",")}) AND (a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299) GROUP BY d.event_id`,
      )
      .all<{ uid: string; n: number }>();
    const retried = new Map(unaccepted.results.map((r) => [r.uid, r.n]));
    for (const uid of uids)
      expect(got.filter((m) => m.headers["webhook-id"] === uid).length, uid).toBeLessThanOrEqual(
        1 + (retried.get(uid) ?? 0),
      );
    for (const m of got)
      verified(
        m.headers["webhook-id"] && JSON.parse(m.body).type === "RESERVATION_CREATED"
          ? subCreated.secret
          : subUpdated.secret,
        m,
      );
  }, 60_000);
});

describe("webhook deliveries attempted together (a queue batch)", () => {
  it("sends each delivery of the batch once, and a reservation's events in the order of its changes", async () => {
    const { client, date } = await restaurant();
    const hook = await receiverHook();
    const created = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const updated = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    // Changes committed by a Worker that then stopped: outbox rows, nothing sent or queued.
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await insertReservation(client.propertyId, { date }));
    await client.d1.prepare("UPDATE reservations SET notes = 'changed' WHERE id = ?").bind(ids[0]).run();
    const { results: pending } = await client.d1
      .prepare("SELECT id FROM webhook_deliveries WHERE property_id = ? AND state = 'pending' ORDER BY id")
      .bind(client.propertyId)
      .all<{ id: number }>();
    expect(pending).toHaveLength(6);
    const { shard } = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(client.propertyId)
      .first<{ shard: number }>())!;
    // The later change first in the batch: it still waits for the reservation's earlier event.
    const failed = await attemptMany(env, shard, pending.map((d) => d.id).reverse());
    expect([...failed.keys()]).toEqual([]);
    const got = await received(hook, 6);
    expect(new Set(got.map((m) => m.headers["webhook-id"])).size).toBe(6);
    const first = got.map((m) => JSON.parse(m.body)).filter((b) => b.data.reservation.id === ids[0]);
    expect(first.map((b) => b.type)).toEqual(["RESERVATION_CREATED", "RESERVATION_UPDATED"]);
    for (const sub of [created, updated]) {
      for (const d of await settled(client, sub.id))
        expect(d).toMatchObject({ state: "delivered", attempts: [expect.objectContaining({ status: 200 })] });
    }
    // The same batch again (a duplicate message, the sweeper's re-send): nothing is sent twice.
    expect([
      ...(
        await attemptMany(
          env,
          shard,
          pending.map((d) => d.id),
        )
      ).keys(),
    ]).toEqual([]);
    expect(await hook.received()).toHaveLength(6);
    for (const sub of [created, updated]) {
      for (const d of await settled(client, sub.id)) expect(d.attempts).toHaveLength(1);
    }
  });

  it("delivers the rest of a batch when one endpoint fails, and retries only that endpoint's deliveries", async () => {
    const { client, date } = await restaurant();
    const healthy = await receiverHook();
    const failing = await receiverHook([{ status: 500 }, { status: 503 }, { status: 500 }]);
    const ok = await subscribe(client, healthy.url, "RESERVATION_CREATED");
    const down = await subscribe(client, failing.url, "RESERVATION_CREATED");
    // Committed by a Worker that then stopped: three events, each with a delivery to both endpoints.
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await insertReservation(client.propertyId, { date }));
    const { results: pending } = await client.d1
      .prepare(
        "SELECT id, subscription_id FROM webhook_deliveries WHERE property_id = ? AND state = 'pending' ORDER BY id",
      )
      .bind(client.propertyId)
      .all<{ id: number; subscription_id: number }>();
    expect(pending).toHaveLength(6);
    const { shard } = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(client.propertyId)
      .first<{ shard: number }>())!;
    expect([
      ...(
        await attemptMany(
          env,
          shard,
          pending.map((d) => d.id),
        )
      ).keys(),
    ]).toEqual([]);
    // Right after the batch: the healthy endpoint's three are delivered, the failing one's wait for their retry.
    const states = await client.d1
      .prepare(
        `SELECT subscription_id AS sub, state, attempts, last_status FROM webhook_deliveries WHERE id IN (${pending.map((d) => d.id).join(",")}) ORDER BY id`,
      )
      .all<{ sub: number; state: string; attempts: number; last_status: number }>();
    expect(states.results.filter((d) => d.sub === ok.id)).toEqual(
      ids.map(() => ({ sub: ok.id, state: "delivered", attempts: 1, last_status: 200 })),
    );
    expect(states.results.filter((d) => d.sub === down.id).map((d) => [d.state, d.attempts])).toEqual(
      ids.map(() => ["pending", 1]),
    );
    const first = await healthy.received();
    expect(new Set(first.map((m) => m.headers["webhook-id"])).size).toBe(3);
    for (const m of first) expect(verified(ok.secret, m).data.reservation.id).toBeOneOf(ids);
    // The retries reach the failing endpoint only, with the same webhook-ids; the healthy one hears nothing more.
    const retried = await received(failing, 6);
    const idsAt = (list: { headers: Record<string, string> }[]) =>
      list.map((m) => m.headers["webhook-id"]).sort();
    expect(idsAt(retried.slice(3))).toEqual(idsAt(retried.slice(0, 3)));
    expect(idsAt(retried.slice(0, 3))).toEqual(idsAt(first));
    const downLog = (await settled(client, down.id)).map((d) =>
      d.attempts.map((a: { status: number }) => a.status),
    );
    expect(downLog.map((statuses) => statuses[1])).toEqual([200, 200, 200]);
    expect(downLog.map((statuses) => statuses[0]).sort()).toEqual([500, 500, 503]);
    for (const d of await settled(client, ok.id))
      expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([200]);
    expect(await healthy.received()).toHaveLength(3);
    // Every delivery of the events done: their bodies are gone.
    const bodies = await client.d1
      .prepare(
        `SELECT count(*) AS n FROM webhook_event_bodies WHERE event_id IN (SELECT id FROM webhook_events WHERE reservation_id IN (${ids.join(",")}))`,
      )
      .first<{ n: number }>();
    expect(bodies!.n).toBe(0);
  }, 30_000);
});
