/**
 * Writes that name nothing (unknown fields are ignored): `{}`, a body of unknown
 * fields only, or no body at all. A partial update answers 200 with the record unchanged and
 * writes nothing; no write route of the OpenAPI document answers them with a 5xx.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { book, call, dateInDays, newClient, seedCatalog, type TestClient } from "./helpers";
import { type Operation, operations, urlOf } from "./openapi-walk";

/** `undefined`: no body and no Content-Type, as curl -X PUT sends it. */
const NOTHING: (string | undefined)[] = ["{}", '{"unknown_field":1,"another":"x"}', undefined];

let ops: Operation[];

beforeAll(async () => {
  ops = (await operations()).ops.filter((o) => ["POST", "PUT", "PATCH"].includes(o.method));
});

async function catalogVersion(client: TestClient): Promise<number> {
  const row = await client.d1
    .prepare("SELECT catalog_version AS v FROM properties WHERE id = ?")
    .bind(client.propertyId)
    .first<{ v: number }>();
  return row!.v;
}

function put(client: TestClient, path: string, body: string | undefined) {
  return client.call(path, {
    method: "PUT",
    body,
    ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" } }),
  });
}

describe("PUT that names nothing", () => {
  it("answers 200 with the room, table, service and closure unchanged, and writes nothing", async () => {
    const client = await newClient();
    const cat = await seedCatalog(client);
    const paths = [
      `/api/v2/rooms/${cat.room.id}`,
      `/api/v2/tables/${cat.t1.id}`,
      `/api/v2/tables/${cat.group.id}`,
      `/api/v2/services/${cat.service.id}`,
      `/api/v2/closures/${cat.closure.id}`,
    ];
    for (const path of paths) {
      const before = (await client.call(path)).json;
      const version = await catalogVersion(client);
      for (const body of NOTHING) {
        const res = await put(client, path, body);
        expect(res.status, `PUT ${path} ${body}: ${res.text}`).toBe(200);
        expect(res.json).toEqual(before);
      }
      // Not even the engine's cache key moved: no row was written.
      expect(await catalogVersion(client)).toBe(version);
      expect((await client.call(path)).json).toEqual(before);
    }
  });

  it("answers 200 with the property unchanged, its updated_at untouched", async () => {
    const client = await newClient();
    const path = `/api/v2/properties/${client.propertyId}`;
    const before = (await client.call(path, { property: undefined })).json;
    const stamp = () =>
      client.d1
        .prepare("SELECT updated_at AS at FROM properties WHERE id = ?")
        .bind(client.propertyId)
        .first<{ at: string }>();
    const updatedAt = (await stamp())!.at;
    for (const body of NOTHING) {
      const res = await client.call(path, {
        method: "PUT",
        body,
        property: undefined,
        ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" } }),
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual(before);
    }
    expect((await stamp())!.at).toBe(updatedAt);
  });

  it("answers 200 with the reservation and the subscription unchanged", async () => {
    const client = await newClient();
    const cat = await seedCatalog(client);
    const reservation = (await book(client, { start_date: dateInDays(6), service_id: cat.service.id })).json
      .data[0];
    const subscription = (
      await client.call("/api/v2/webhooks/subscription", {
        body: { endpoint: "https://hooks.example.com/", webhook_type: "RESERVATION_CREATED" },
      })
    ).json.data[0];
    for (const [path, read] of [
      [`/api/v2/reservations/${reservation.id}`, `/api/v2/reservations/${reservation.id}`],
      [`/api/v2/webhook/subscription/${subscription.id}`, `/api/v2/webhooks/subscription/${subscription.id}`],
    ] as const) {
      const before = (await client.call(read)).json;
      for (const body of NOTHING) {
        const res = await put(client, path, body);
        expect(res.status, `PUT ${path} ${body}: ${res.text}`).toBe(200);
      }
      expect((await client.call(read)).json).toEqual(before);
    }
    const history = (await client.call(`/api/v2/reservations/${reservation.id}/history`)).json.data;
    expect(history.map((h: { action: string }) => h.action)).toEqual(["created"]);
  });
});

describe("every write route of the OpenAPI document", () => {
  it("never answers {}, unknown fields only or no body with a 5xx", async () => {
    expect(ops.length).toBeGreaterThan(20);
    let client!: TestClient;
    let ids: Record<string, number> = {};
    let spent = Infinity;
    for (const op of ops) {
      // A fresh client (and per-client rate-limit budget) well before the limit of 150 a minute.
      if (spent > 100) {
        client = await newClient();
        const cat = await seedCatalog(client);
        const reservation = (await book(client, { start_date: dateInDays(6), service_id: cat.service.id }))
          .json.data[0];
        const subscription = (
          await client.call("/api/v2/webhooks/subscription", {
            body: { endpoint: "https://hooks.example.com/", webhook_type: "RESERVATION_CREATED" },
          })
        ).json.data[0];
        ids = {
          properties: client.propertyId,
          rooms: cat.room.id,
          tables: cat.t1.id,
          services: cat.service.id,
          closures: cat.closure.id,
          reservations: reservation.id,
          webhooks: subscription.id,
          webhook: subscription.id,
        };
        spent = 0;
      }
      const url = urlOf(op, ids[op.path.split("/")[3]!] ?? 1);
      for (const body of NOTHING) {
        spent++;
        const headers: Record<string, string> =
          body === undefined ? {} : { "Content-Type": "application/json" };
        const res = op.authenticated
          ? await client.call(url, { method: op.method, body, headers })
          : await call(url, { method: op.method, body, headers });
        expect(res.status, `${op.method} ${op.path} with ${body ?? "no body"}: ${res.text}`).toBeLessThan(
          500,
        );
        expect(res.headers.get("X-Request-Id")).toBeTruthy();
      }
    }
  });
});
