/**
 * The operator's door (/__ops) takes every write of `npm run ops`: granting a client a property,
 * production on and off, the list of clients. The command never writes the local database from a
 * second process beside `npm start` (tests/e2e/start.test.mjs runs it so).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem, newClient } from "./helpers";

const ops = (path: string, body?: unknown) =>
  call(`/__ops${path}`, {
    ...(body !== undefined && { body }),
    headers: { Authorization: `Bearer ${env.OPS_TOKEN}` },
  });

describe("POST /__ops/grant", () => {
  it("lets the client act on the property, once, and says so", async () => {
    const owner = await newClient();
    const partner = await newClient();
    expectProblem(
      await call("/api/v2/rooms", { token: partner.token, property: owner.propertyId }),
      403,
      "property forbidden",
    );
    const first = await ops("/grant", { client_id: partner.clientId, property_id: owner.propertyId });
    expect(first.status, first.text).toBe(200);
    expect(first.json.data[0]).toEqual({ added: true });
    expect((await call("/api/v2/rooms", { token: partner.token, property: owner.propertyId })).status).toBe(
      200,
    );
    expect(
      (await ops("/grant", { client_id: partner.clientId, property_id: owner.propertyId })).json.data[0],
    ).toEqual({ added: false });
  });

  it("answers 404 for an unknown client or property, 400 for a bad body, 401 without the operator's token", async () => {
    const owner = await newClient();
    expect(
      (await ops("/grant", { client_id: "ci_nobody_at_all", property_id: owner.propertyId })).status,
    ).toBe(404);
    expect((await ops("/grant", { client_id: owner.clientId, property_id: 999_999_999 })).status).toBe(404);
    expect((await ops("/grant", { client_id: owner.clientId })).status).toBe(400);
    expect(
      (await call("/__ops/grant", { body: { client_id: owner.clientId, property_id: owner.propertyId } }))
        .status,
    ).toBe(401);
  });
});

describe("POST /__ops/production and GET /__ops/clients", () => {
  it("turns production on and off, and lists the client with its flag and properties", async () => {
    const client = await newClient();
    const on = await ops("/production", { client_id: client.clientId, enabled: true });
    expect(on.status, on.text).toBe(200);
    expect(on.json.data[0]).toMatchObject({ client_id: client.clientId, production_enabled: true });
    const created = await call("/api/v2/properties", { token: client.token, body: { name: "Real" } });
    expect(created.json.data[0].sandbox).toBe(false);
    const listed = (await ops("/clients")).json.data.find(
      (r: { client_id: string }) => r.client_id === client.clientId,
    );
    expect(listed.production_enabled).toBe(true);
    expect(String(listed.properties).split(",").map(Number).sort()).toEqual(
      [client.propertyId, created.json.data[0].id].sort(),
    );
    expect(
      (await ops("/production", { client_id: client.clientId, enabled: false })).json.data[0]
        .production_enabled,
    ).toBe(false);
    expect((await ops("/production", { client_id: "ci_nobody_at_all", enabled: true })).status).toBe(404);
  });
});
