import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../../worker/lib/clock";
import { basic, enableProduction, formToken, grant, revoke, revokeGrant } from "./auth.fixtures";
import { call, expectProblem, getToken, newClient, shardOf } from "./helpers";

const ids = (res: { json: any }) => (res.json.data as { id: number }[]).map((p) => p.id);

describe("sandbox and production", () => {
  it("lets a sandbox-only client create sandbox properties only", async () => {
    const c = await newClient();
    const res = await call("/api/v2/properties", { token: c.token, body: { name: "Second Sandbox" } });
    expect(res.status).toBe(201);
    const property = res.json.data[0];
    expect(property).toMatchObject({ name: "Second Sandbox", sandbox: true, enabled: true });
    expect(property.sandbox_expires_at).toEqual(expect.any(String));
    expect(Date.parse(property.sandbox_expires_at)).toBeGreaterThan(now() + 89 * 86_400_000);
  });

  it("after enable-production, the same token creates production properties", async () => {
    const c = await newClient();
    await enableProduction(c.clientId);

    const res = await call("/api/v2/properties", { token: c.token, body: { name: "Live Restaurant" } });
    expect(res.status).toBe(201);
    expect(res.json.data[0]).toMatchObject({
      name: "Live Restaurant",
      sandbox: false,
      enabled: true,
      sandbox_expires_at: null,
    });
  });

  it("after enable-production, a fresh token creates production properties and keeps the sandbox one", async () => {
    const c = await newClient();
    await enableProduction(c.clientId);
    const token = await getToken(c.clientId, c.clientSecret);

    const created = await call("/api/v2/properties", { token, body: { name: "Live Restaurant" } });
    expect(created.status).toBe(201);
    expect(created.json.data[0].sandbox).toBe(false);

    const list = await call("/api/v2/properties", { token });
    expect(list.status).toBe(200);
    const byId = new Map(
      (list.json.data as { id: number; sandbox: boolean }[]).map((p) => [p.id, p.sandbox]),
    );
    expect(byId.get(c.propertyId)).toBe(true);
    expect(byId.get(created.json.data[0].id)).toBe(false);
  });

  it("a production property never expires as a sandbox", async () => {
    const c = await newClient();
    await enableProduction(c.clientId);
    const live = (await call("/api/v2/properties", { token: c.token, body: { name: "Live" } })).json.data[0];
    // Even a stray expiry date on a production property must not lock it.
    await (await shardOf(live.id))
      .prepare("UPDATE properties SET sandbox_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(live.id)
      .run();
    expect((await call("/api/v2/rooms", { token: c.token, property: live.id })).status).toBe(200);
  });
});

describe("property grants", () => {
  it("lets a second client act on the first client's property once granted", async () => {
    const owner = await newClient();
    const partner = await newClient();
    const room = await owner.call("/api/v2/rooms", { body: { name: "Terrace" } });
    expect(room.status).toBe(201);

    expectProblem(
      await call("/api/v2/rooms", { token: partner.token, property: owner.propertyId }),
      403,
      "property forbidden",
    );

    await grant(partner.id, owner.propertyId);

    const rooms = await call("/api/v2/rooms", { token: partner.token, property: owner.propertyId });
    expect(rooms.status).toBe(200);
    expect(rooms.json.data.map((r: { name: string }) => r.name)).toEqual(["Terrace"]);

    const read = await call(`/api/v2/properties/${owner.propertyId}`, { token: partner.token });
    expect(read.status).toBe(200);
    expect(read.json.data[0].id).toBe(owner.propertyId);

    const list = await call("/api/v2/properties", { token: partner.token });
    expect(ids(list).sort((a, b) => a - b)).toEqual(
      [owner.propertyId, partner.propertyId].sort((a, b) => a - b),
    );
  });

  it("a grant is one-way: the owner gains nothing on the partner's property", async () => {
    const owner = await newClient();
    const partner = await newClient();
    await grant(partner.id, owner.propertyId);
    expectProblem(
      await call("/api/v2/rooms", { token: owner.token, property: partner.propertyId }),
      403,
      "property forbidden",
    );
    expect(ids(await call("/api/v2/properties", { token: owner.token }))).toEqual([owner.propertyId]);
  });

  it("removing the grant takes the access away again", async () => {
    const owner = await newClient();
    const partner = await newClient();
    await grant(partner.id, owner.propertyId);
    expect((await call("/api/v2/rooms", { token: partner.token, property: owner.propertyId })).status).toBe(
      200,
    );

    await revokeGrant(partner.id, owner.propertyId);
    expectProblem(
      await call("/api/v2/rooms", { token: partner.token, property: owner.propertyId }),
      403,
      "property forbidden",
    );
    expect(ids(await call("/api/v2/properties", { token: partner.token }))).toEqual([partner.propertyId]);
  });
});

describe("isolation between clients", () => {
  it("client A never lists client B's properties", async () => {
    const a = await newClient();
    const b = await newClient();
    const bSecond = (await call("/api/v2/properties", { token: b.token, body: { name: "B Two" } })).json
      .data[0];

    const list = await call("/api/v2/properties", { token: a.token, headers: {} });
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([a.propertyId]);
    expect(list.text).not.toContain("B Two");

    // Walking the pages cannot reach them either.
    const paged = await call("/api/v2/properties?limit=1", { token: a.token });
    expect(ids(paged)).toEqual([a.propertyId]);
    expect(paged.json.next_cursor).toBeNull();
    expect(ids(await call("/api/v2/properties", { token: b.token })).sort((x, y) => x - y)).toEqual(
      [b.propertyId, bSecond.id].sort((x, y) => x - y),
    );
  });

  it("client A cannot read, update or delete client B's property", async () => {
    const a = await newClient();
    const b = await newClient("B's Bistro");
    const path = `/api/v2/properties/${b.propertyId}`;

    const read = await call(path, { token: a.token });
    expectProblem(read, 403, "property forbidden");
    expect(read.text).not.toContain("B's Bistro");

    expectProblem(
      await call(path, { token: a.token, method: "PUT", body: { name: "Hijacked" } }),
      403,
      "property forbidden",
    );
    expectProblem(await call(path, { token: a.token, method: "DELETE" }), 403, "property forbidden");

    const mine = await call(path, { token: b.token });
    expect(mine.status).toBe(200);
    expect(mine.json.data[0]).toMatchObject({ id: b.propertyId, name: "B's Bistro" });
  });

  it("client A cannot reach client B's catalog through the Property header", async () => {
    const a = await newClient();
    const b = await newClient();
    const room = (await b.call("/api/v2/rooms", { body: { name: "B Room" } })).json.data[0];

    const asA = { token: a.token, property: b.propertyId };
    expectProblem(await call("/api/v2/rooms", asA), 403, "property forbidden");
    expectProblem(await call(`/api/v2/rooms/${room.id}`, asA), 403, "property forbidden");
    expectProblem(
      await call("/api/v2/rooms", { ...asA, body: { name: "Intruder" } }),
      403,
      "property forbidden",
    );
    expectProblem(
      await call(`/api/v2/rooms/${room.id}`, { ...asA, method: "DELETE" }),
      403,
      "property forbidden",
    );

    const rooms = await b.call("/api/v2/rooms");
    expect(rooms.json.data.map((r: { name: string }) => r.name)).toEqual(["B Room"]);
  });

  it("client A cannot reach client B's room through its own Property header", async () => {
    const a = await newClient();
    const b = await newClient();
    const room = (await b.call("/api/v2/rooms", { body: { name: "B Room" } })).json.data[0];
    const res = await a.call(`/api/v2/rooms/${room.id}`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("B Room");
  });

  it("a revoked token can no longer create properties", async () => {
    const c = await newClient();
    await revoke({ token: c.token }, { Authorization: basic(c.clientId, c.clientSecret) });
    expectProblem(
      await call("/api/v2/properties", { token: c.token, body: { name: "Ghost" } }),
      401,
      "invalid token",
    );
    // The directory knows every property there is: only the client's sandbox.
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM property_directory WHERE owner_client_id = ?",
    )
      .bind(c.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("client B cannot revoke client A's token", async () => {
    const a = await newClient();
    const b = await newClient();
    const res = await revoke({ token: a.token }, { Authorization: basic(b.clientId, b.clientSecret) });
    // RFC 7009: the server answers 200 without revealing whether the token existed.
    expect(res.status).toBe(200);
    expect((await call("/api/v2/properties", { token: a.token })).status).toBe(200);
  });

  it("client A's secret does not authenticate client B", async () => {
    const a = await newClient();
    const b = await newClient();
    const res = await formToken({
      grant_type: "client_credentials",
      client_id: b.clientId,
      client_secret: a.clientSecret,
    });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe("invalid_client");
  });

  it("a token acts as the client that obtained it, whatever client id a header names", async () => {
    const a = await newClient();
    const b = await newClient();
    const res = await call("/api/v2/properties", { token: a.token, headers: { "X-Client-Id": b.clientId } });
    expect(ids(res)).toEqual([a.propertyId]);
  });
});
