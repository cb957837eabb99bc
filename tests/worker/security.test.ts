/**
 * Isolation between clients, for every route of the OpenAPI document: another client's
 * token with this client's property or resources is refused, and nothing changes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { book, call, dateInDays, expectProblem, newClient, seedCatalog, type TestClient } from "./helpers";
import { type Operation, operations, urlOf } from "./openapi-walk";

let owner: TestClient;
let intruder: TestClient;
let catalog: Awaited<ReturnType<typeof seedCatalog>>;
let ops: Operation[];
let reservationId: number;
let customerId: number;
let subscriptionId: number;

/** The owner's resource id for a path like /api/v2/rooms/{id}. */
function ownerId(path: string): number {
  const resource = path.split("/")[3];
  const ids: Record<string, number> = {
    properties: owner.propertyId,
    rooms: catalog.room.id,
    tables: catalog.t1.id,
    services: catalog.service.id,
    closures: catalog.closure.id,
    reservations: reservationId,
    customers: customerId,
    webhooks: subscriptionId,
    webhook: subscriptionId,
  };
  const id = ids[resource!];
  if (id === undefined) throw new Error(`security walk: no owner resource for ${path}; add one here`);
  return id;
}

async function snapshot(client: TestClient) {
  const out: Record<string, unknown> = {};
  const paths = [
    "/api/v2/rooms",
    "/api/v2/tables",
    "/api/v2/services",
    "/api/v2/closures",
    `/api/v2/properties/${client.propertyId}`,
  ];
  if (client === owner)
    paths.push(
      `/api/v2/reservations/${reservationId}`,
      `/api/v2/reservations/${reservationId}/history`,
      "/api/v2/customers",
      `/api/v2/customers/${customerId}`,
    );
  for (const path of paths) {
    out[path] = (await client.call(path)).json;
  }
  return out;
}

beforeAll(async () => {
  owner = await newClient("Owner Restaurant");
  intruder = await newClient("Intruder Restaurant");
  catalog = await seedCatalog(owner);
  const booked = (await book(owner, { start_date: dateInDays(5), service_id: catalog.service.id })).json
    .data[0];
  reservationId = booked.id;
  customerId = booked.customer.id;
  subscriptionId = (
    await owner.call("/api/v2/webhooks/subscription", {
      body: { endpoint: "https://hooks.owner.example/", webhook_type: "RESERVATION_CREATED" },
    })
  ).json.data[0].id;
  // The public widget API (/api/v2/public/, no security in the document) has no owner to protect
  // from an intruder's token: public.security.test.ts checks it, and that every other route is here.
  ops = (await operations()).ops.filter((o) => o.path.startsWith("/api/v2/") && o.authenticated);
});

describe("security: every authenticated route", () => {
  it("the walk covers the catalog and property routes", () => {
    const paths = new Set(ops.map((o) => `${o.method} ${o.path}`));
    for (const expected of [
      "GET /api/v2/rooms",
      "PUT /api/v2/tables/{id}",
      "DELETE /api/v2/services/{id}",
      "POST /api/v2/closures",
      "GET /api/v2/properties/{id}",
      "GET /api/v2/customers",
      "PUT /api/v2/customers/{id}",
      "POST /api/v2/customers/{id}/merge",
      "DELETE /api/v2/customers/{id}",
    ]) {
      expect(paths).toContain(expected);
    }
  });

  it("refuses every route without a token (401 with a Bearer challenge)", async () => {
    for (const op of ops) {
      const path = urlOf(op, op.hasPathId ? ownerId(op.path) : undefined);
      const res = await call(path, {
        method: op.method,
        property: owner.propertyId,
        body: op.bodySchema ? {} : undefined,
      });
      expectProblem(res, 401);
      expect(res.headers.get("WWW-Authenticate"), `${op.method} ${op.path}`).toMatch(/^Bearer realm="api"/);
    }
  });

  it("refuses another client's token with the owner's property: 403 property forbidden", async () => {
    const before = await snapshot(owner);
    for (const op of ops.filter((o) => o.propertyScoped)) {
      const path = urlOf(op, op.hasPathId ? ownerId(op.path) : undefined);
      const res = await intruder.call(path, {
        method: op.method,
        property: owner.propertyId,
        body: op.bodySchema ? { name: "hijack" } : undefined,
      });
      expectProblem(res, 403, "property forbidden");
    }
    expect(await snapshot(owner)).toEqual(before);
  });

  it("refuses another client on /properties/{id} of the owner: 403 property forbidden", async () => {
    const before = await snapshot(owner);
    for (const op of ops.filter((o) => o.path === "/api/v2/properties/{id}")) {
      const res = await intruder.call(`/api/v2/properties/${owner.propertyId}`, {
        method: op.method,
        property: undefined,
        body: op.bodySchema ? {} : undefined,
      });
      expectProblem(res, 403, "property forbidden");
    }
    expect(await snapshot(owner)).toEqual(before);
  });

  it("does not reach the owner's resources through the intruder's own property: 404", async () => {
    const before = await snapshot(owner);
    for (const op of ops.filter((o) => o.propertyScoped && o.hasPathId)) {
      const path = urlOf(op, ownerId(op.path));
      // {} is a valid partial update, so validation passes and the lookup must refuse.
      const res = await intruder.call(path, { method: op.method, body: op.bodySchema ? {} : undefined });
      expect(res.status, `${op.method} ${path}`).toBe(404);
      expect(res.json.title).toMatch(/ not found$/);
    }
    expect(await snapshot(owner)).toEqual(before);
  });

  it("does not reach the owner's webhook subscriptions, which name no property: 404", async () => {
    const walked = ops.filter((o) => /^\/api\/v2\/webhooks?\//.test(o.path) && o.hasPathId);
    expect(walked.length).toBeGreaterThanOrEqual(6);
    for (const op of walked) {
      // Every path id is the owner's subscription (a delivery id too): the subscription check comes first.
      const path = urlOf(op, subscriptionId).replace(/\{\w+\}/g, String(subscriptionId));
      const res = await intruder.call(path, { method: op.method, body: op.bodySchema ? {} : undefined });
      expectProblem(res, 404, "subscription not found");
    }
    const read = await owner.call(`/api/v2/webhooks/subscription/${subscriptionId}`);
    expect(read.json.data[0]).toMatchObject({ endpoint: "https://hooks.owner.example/", enabled: true });
  });

  it("does not let the intruder reference the owner's rooms, tables or services in its writes", async () => {
    const table = await intruder.call("/api/v2/tables", {
      body: { name: "X", room_id: catalog.room.id, guests_max: 2 },
    });
    expectProblem(table, 404, "room not found");
    const own = await seedCatalog(intruder);
    const group = await intruder.call("/api/v2/tables", {
      body: { name: "G", room_id: own.room.id, group: true, table_ids: [catalog.t1.id, catalog.t2.id] },
    });
    expectProblem(group, 400, "invalid input data");
    const closure = await intruder.call("/api/v2/closures", {
      body: { start_date: "2031-01-01", room_ids: [catalog.room.id], service_ids: [catalog.service.id] },
    });
    expectProblem(closure, 400, "invalid input data");
    const moved = await intruder.call(`/api/v2/tables/${own.t1.id}`, {
      method: "PUT",
      body: { room_id: catalog.room.id },
    });
    expectProblem(moved, 404, "room not found");
  });

  it("lists only the caller's own properties", async () => {
    const mine = await intruder.call("/api/v2/properties", { property: undefined });
    const ids = mine.json.data.map((p: { id: number }) => p.id);
    expect(ids).toContain(intruder.propertyId);
    expect(ids).not.toContain(owner.propertyId);
  });

  it("never returns secrets or password hashes in any read", async () => {
    const reads = [
      await owner.call("/api/v2/properties", { property: undefined }),
      await owner.call(`/api/v2/properties/${owner.propertyId}`),
    ];
    for (const res of reads) {
      expect(res.text).not.toMatch(/pbkdf2|password_hash|secret_hash|client_secret/);
      expect(res.text).not.toContain(owner.clientSecret);
    }
  });
});
