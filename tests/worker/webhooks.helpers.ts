import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import { type TestClient, unique } from "./helpers";

export interface Received {
  at: number;
  headers: Record<string, string>;
  body: string;
  answered: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  hangMs?: number;
}

/** A fresh hook on the test receiver (tests/receiver.mjs) answering `answers` in order, then 200. */
export async function receiverHook(answers: Answer[] = []) {
  const name = unique("hook");
  const res = await fetch(`${env.RECEIVER_URL}/control/${name}`, {
    method: "PUT",
    body: JSON.stringify({ answers }),
  });
  expect(res.status).toBe(204);
  return {
    url: `${env.RECEIVER_URL}/hook/${name}`,
    async received(): Promise<Received[]> {
      return (await fetch(`${env.RECEIVER_URL}/control/${name}`)).json();
    },
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function subscribe(
  client: TestClient,
  endpoint: string,
  type: "RESERVATION_CREATED" | "RESERVATION_UPDATED",
  property = client.propertyId,
) {
  const res = await client.call("/api/v2/webhooks/subscription", {
    body: { endpoint, webhook_type: type },
    property,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data[0] as {
    id: number;
    secret: string;
    endpoint: string;
    webhook_type: string;
    enabled: boolean;
  };
}

/** Verifies a received message with the standardwebhooks library (not our code) and answers its payload. */
export function verified(secret: string, message: Received): any {
  return new Webhook(secret).verify(message.body, {
    "webhook-id": message.headers["webhook-id"]!,
    "webhook-timestamp": message.headers["webhook-timestamp"]!,
    "webhook-signature": message.headers["webhook-signature"]!,
  });
}

export async function deliveries(client: TestClient, subscriptionId: number, query = "") {
  const res = await client.call(`/api/v2/webhooks/subscription/${subscriptionId}/deliveries${query}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data as any[];
}

/** Waits until no delivery of the subscription is pending (each delivered or failed), and answers them. */
export async function settled(client: TestClient, subscriptionId: number) {
  return waitFor(`subscription ${subscriptionId} with nothing pending`, async () => {
    const list = await deliveries(client, subscriptionId);
    return list.every((d) => d.state !== "pending") && list;
  });
}

/** The outbox's events of one reservation, by type, straight from its shard. */
export async function eventsOf(d1: D1Database, reservationId: number): Promise<Record<string, number>> {
  const { results } = await d1
    .prepare("SELECT type, count(*) AS n FROM webhook_events WHERE reservation_id = ? GROUP BY type")
    .bind(reservationId)
    .all<{ type: string; n: number }>();
  return Object.fromEntries(results.map((r) => [r.type, r.n]));
}
