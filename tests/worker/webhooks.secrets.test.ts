/**
 * One signing secret per endpoint: a client's subscriptions of one property to the same endpoint
 * share it (creation, rotation, a move to the endpoint), and the shard migration that gave the
 * subscriptions of before one secret per endpoint keeps their old signatures valid for a while.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { book, newClient, seedRestaurant } from "./helpers";
import { receiverHook, subscribe, verified, waitFor } from "./webhooks.helpers";

async function restaurant() {
  const client = await newClient();
  const r = await seedRestaurant(client);
  return { client, booking: () => book(client, { start_date: r.date, service_id: r.service.id }) };
}

const received = (hook: Awaited<ReturnType<typeof receiverHook>>, n: number) =>
  waitFor(`${n} message(s) at the receiver`, async () => {
    const got = await hook.received();
    return got.length >= n && got;
  });

describe("POST /webhooks/subscription: one secret per endpoint", () => {
  it("answers the endpoint's existing secret to a second subscription there, and both event types verify with it", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const created = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const updated = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    expect(updated.id).not.toBe(created.id);
    expect(updated.secret).toBe(created.secret);
    const id = (await booking()).json.data[0].id;
    expect((await client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    const messages = await received(hook, 2);
    // standardwebhooks' own verification, with the one secret the receiver holds
    expect(messages.map((m) => verified(created.secret, m).type)).toEqual([
      "RESERVATION_CREATED",
      "RESERVATION_UPDATED",
    ]);
  });

  it("gives another endpoint, another property or another client a secret of its own", async () => {
    const { client } = await restaurant();
    const [one, two] = [await receiverHook(), await receiverHook()];
    const first = await subscribe(client, one.url, "RESERVATION_CREATED");
    const elsewhere = await subscribe(client, two.url, "RESERVATION_CREATED");
    const other = await restaurant();
    const stranger = await subscribe(other.client, one.url, "RESERVATION_CREATED");
    expect(new Set([first.secret, elsewhere.secret, stranger.secret]).size).toBe(3);
  });

  it("a deleted subscription's secret is not handed on", async () => {
    const { client } = await restaurant();
    const hook = await receiverHook();
    const gone = await subscribe(client, hook.url, "RESERVATION_CREATED");
    expect((await client.call(`/api/v2/webhook/subscription/${gone.id}`, { method: "DELETE" })).status).toBe(
      200,
    );
    expect((await subscribe(client, hook.url, "RESERVATION_CREATED")).secret).not.toBe(gone.secret);
  });
});

describe("POST /webhooks/subscription/{id}/rotate-secret, PUT /webhook/subscription/{id}", () => {
  it("rotates the secret of every subscription at the endpoint; the previous one signs alongside during the overlap", async () => {
    const { client, booking } = await restaurant();
    const hook = await receiverHook();
    const created = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const updated = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    const rotated = await client.call(`/api/v2/webhooks/subscription/${updated.id}/rotate-secret`, {
      method: "POST",
      body: { overlap_seconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    const secret = rotated.json.data[0].secret as string;
    expect(secret).not.toBe(created.secret);
    const rows = await client.d1
      .prepare("SELECT secret, previous_secret FROM webhook_subscriptions WHERE id IN (?, ?)")
      .bind(created.id, updated.id)
      .all();
    expect(rows.results).toEqual([
      { secret, previous_secret: created.secret },
      { secret, previous_secret: created.secret },
    ]);
    const id = (await booking()).json.data[0].id;
    expect((await client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    for (const m of await received(hook, 2)) {
      verified(secret, m);
      verified(created.secret, m);
    }
  });

  it("a subscription moved to an endpoint the client already subscribed takes that endpoint's secret", async () => {
    const { client } = await restaurant();
    const [one, two] = [await receiverHook(), await receiverHook()];
    const there = await subscribe(client, one.url, "RESERVATION_CREATED");
    const moving = await subscribe(client, two.url, "RESERVATION_UPDATED");
    expect(
      (
        await client.call(`/api/v2/webhook/subscription/${moving.id}`, {
          method: "PUT",
          body: { endpoint: one.url },
        })
      ).status,
    ).toBe(200);
    const row = await client.d1
      .prepare("SELECT secret FROM webhook_subscriptions WHERE id = ?")
      .bind(moving.id)
      .first<{ secret: string }>();
    expect(row!.secret).toBe(there.secret);
  });
});

describe("the shard migration to one secret per endpoint", () => {
  it("gives each endpoint its oldest subscription's secret and keeps the others' own as previous for 7 days", async () => {
    const { client } = await restaurant();
    const hook = await receiverHook();
    const oldest = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const younger = await subscribe(client, hook.url, "RESERVATION_UPDATED");
    // As before: each subscription with a secret of its own.
    await client.d1
      .prepare("UPDATE webhook_subscriptions SET secret = 'whsec_b2xkLW9uZS1vZi1pdHMtb3du' WHERE id = ?")
      .bind(younger.id)
      .run();
    const migration = env.SHARD_MIGRATIONS.find((m) => m.name.includes("webhook_secret_per_endpoint"));
    expect(migration).toBeDefined();
    for (const q of migration!.queries) await client.d1.prepare(q).run();
    const rows = await client.d1
      .prepare(
        "SELECT id, secret, previous_secret, previous_secret_expires_at FROM webhook_subscriptions WHERE id IN (?, ?) ORDER BY id",
      )
      .bind(oldest.id, younger.id)
      .all<Record<string, string | null>>();
    expect(rows.results.map((r) => [r.secret, r.previous_secret])).toEqual([
      [oldest.secret, null],
      [oldest.secret, "whsec_b2xkLW9uZS1vZi1pdHMtb3du"],
    ]);
    const window = Date.parse(rows.results[1]!.previous_secret_expires_at!) - Date.now();
    expect(window).toBeGreaterThan(6.9 * 86_400_000);
    expect(window).toBeLessThanOrEqual(7 * 86_400_000);
  });
});
