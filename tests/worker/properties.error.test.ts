import { describe, expect, it } from "vitest";
import { grant } from "./auth.fixtures";
import { call, expectInvalid, expectProblem, newClient, type TestClient } from "./helpers";
import { connected } from "./oauth.fixtures";

/** Property calls carry no Property header. */
const props = (client: TestClient, path = "", o: Parameters<TestClient["call"]>[1] = {}) =>
  client.call(`/api/v2/properties${path}`, { property: undefined, ...o });

describe("GET /api/v2/properties", () => {
  it("refuses a limit outside 1..200", async () => {
    const client = await newClient();
    for (const limit of ["0", "201", "ten"]) expectInvalid(await props(client, `?limit=${limit}`), "limit");
  });

  it("refuses a next_cursor it did not issue", async () => {
    const client = await newClient();
    expectInvalid(await props(client, "?next_cursor=not-a-cursor"), "next_cursor");
  });

  it("needs a bearer token", async () => {
    const res = await call("/api/v2/properties");
    expectProblem(res, 401, "authentication required");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });
});

describe("POST /api/v2/properties", () => {
  it("requires a name", async () => {
    const client = await newClient();
    const res = await props(client, "", { body: { email: "a@b.example" } });
    expectInvalid(res, "name");
    expect((await props(client)).json.data).toHaveLength(1);
  });

  it("refuses a blank name", async () => {
    const client = await newClient();
    expectInvalid(await props(client, "", { body: { name: "   " } }), "name");
  });

  it("refuses an unknown time zone with the path settings.timezone", async () => {
    const client = await newClient();
    const res = await props(client, "", {
      body: { name: "Nowhere", settings: { timezone: "Mars/Olympus_Mons" } },
    });
    expectInvalid(res, "settings.timezone");
    expect(res.json.errors).toHaveLength(1);
  });

  it("names every bad field, each with its own path", async () => {
    const client = await newClient();
    const res = await props(client, "", {
      body: {
        name: "X",
        email: "not-an-email",
        website: "no url",
        settings: { average_stay: 0, locale: "xx", slot_interval: "15" },
      },
    });
    expectInvalid(
      res,
      "email",
      "website",
      "settings.average_stay",
      "settings.locale",
      "settings.slot_interval",
    );
  });

  it("refuses a body that is not JSON", async () => {
    const client = await newClient();
    expectProblem(await props(client, "", { body: "{name:" }), 400, "invalid input data");
  });

  it("refuses a body of another media type", async () => {
    const client = await newClient();
    const res = await props(client, "", {
      body: "name=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectProblem(res, 415, "unsupported media type");
  });
});

describe("GET /api/v2/properties/{id}", () => {
  it("answers 404 property not found for an id that does not exist", async () => {
    const client = await newClient();
    const res = await props(client, "/999999999");
    expectProblem(res, 404, "property not found");
    expect(res.json.code).toBe("property_not_found");
  });

  it("answers 403 property forbidden for another client's property", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const res = await props(stranger, `/${owner.propertyId}`);
    expectProblem(res, 403, "property forbidden");
    expect(res.text).not.toContain(owner.clientId);
  });

  // The Property header's entry is read with the token; it serves the property it names, no other.
  it("answers for the property of its path whatever property the Property header names", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const asked = (client: TestClient, path: number, header: number) =>
      client.call(`/api/v2/properties/${path}`, { property: header });
    expectProblem(await asked(stranger, owner.propertyId, stranger.propertyId), 403, "property forbidden");
    expect((await asked(stranger, stranger.propertyId, owner.propertyId)).json.data[0].id).toBe(
      stranger.propertyId,
    );
    expectProblem(await asked(stranger, 999999999, stranger.propertyId), 404, "property not found");
    expect((await asked(owner, owner.propertyId, 999999999)).status).toBe(200);
    expectProblem(await stranger.call("/api/v2/rooms", { property: 999999999 }), 404, "property not found");
    expectProblem(
      await stranger.call("/api/v2/rooms", { property: owner.propertyId }),
      403,
      "property forbidden",
    );
    expect((await stranger.call("/api/v2/rooms", { property: stranger.propertyId })).status).toBe(200);
  });

  it("refuses an id that is not a positive integer", async () => {
    const client = await newClient();
    expectInvalid(await props(client, "/abc"), "id");
    expectInvalid(await props(client, "/0"), "id");
  });
});

describe("PUT /api/v2/properties/{id}", () => {
  it("refuses an unknown time zone and leaves the settings as they were", async () => {
    const client = await newClient();
    const id = client.propertyId;
    await props(client, `/${id}`, { method: "PUT", body: { settings: { timezone: "Europe/Rome" } } });

    const res = await props(client, `/${id}`, {
      method: "PUT",
      body: { name: "Renamed", settings: { timezone: "Europe/Atlantis" } },
    });
    expectInvalid(res, "settings.timezone");

    const after = (await props(client, `/${id}`)).json.data[0];
    expect(after.settings.timezone).toBe("Europe/Rome");
    expect(after.name).not.toBe("Renamed");
  });

  it("refuses turn_times that are not {max_pax, minutes}", async () => {
    const client = await newClient();
    const res = await props(client, `/${client.propertyId}`, {
      method: "PUT",
      body: { settings: { turn_times: [{ max_pax: 2 }] } },
    });
    expectInvalid(res, "settings.turn_times.0.minutes");
  });

  it("answers 403 property forbidden for another client's property and changes nothing", async () => {
    const owner = await newClient("Owner's place");
    const stranger = await newClient();
    const res = await props(stranger, `/${owner.propertyId}`, { method: "PUT", body: { name: "Hijacked" } });
    expectProblem(res, 403, "property forbidden");
    expect((await props(owner, `/${owner.propertyId}`)).json.data[0].name).toBe("Owner's place");
  });

  it("answers 404 property not found for a deleted property", async () => {
    const client = await newClient();
    const p = (await props(client, "", { body: { name: "Gone" } })).json.data[0];
    await props(client, `/${p.id}`, { method: "DELETE" });
    expectProblem(
      await props(client, `/${p.id}`, { method: "PUT", body: { name: "Back" } }),
      404,
      "property not found",
    );
  });
});

describe("DELETE /api/v2/properties/{id}", () => {
  it("answers 403 property forbidden for another client's property and keeps it", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    expectProblem(
      await props(stranger, `/${owner.propertyId}`, { method: "DELETE" }),
      403,
      "property forbidden",
    );
    expect((await props(owner, `/${owner.propertyId}`)).status).toBe(200);
  });

  it("refuses a client granted the property (ops grant): only its creator deletes it", async () => {
    const owner = await newClient();
    const granted = await newClient();
    await grant(granted.id, owner.propertyId);
    expectProblem(
      await props(granted, `/${owner.propertyId}`, { method: "DELETE" }),
      403,
      "property forbidden",
    );
    expect((await props(owner, `/${owner.propertyId}`)).status).toBe(200);
    expect((await props(granted, `/${owner.propertyId}`)).status).toBe(200);
  });

  it("refuses a connected app (a token of the code flow) and its client's own token, and keeps the restaurant", async () => {
    const { owner, integrator, propertyId, tokens } = await connected();
    const res = await call(`/api/v2/properties/${propertyId}`, {
      token: tokens.access_token,
      method: "DELETE",
    });
    expectProblem(res, 403, "property forbidden");
    expect(res.json.detail).toMatch(/only the client that created this property/);
    expectProblem(
      await call(`/api/v2/properties/${propertyId}`, { token: integrator.token, method: "DELETE" }),
      403,
      "property forbidden",
    );
    expect((await props(owner, `/${propertyId}`)).status).toBe(200);
    expect((await props(owner, `/${propertyId}`, { method: "DELETE" })).status).toBe(200);
  });

  it("answers 404 property not found when deleting twice", async () => {
    const client = await newClient();
    const p = (await props(client, "", { body: { name: "Twice" } })).json.data[0];
    expect((await props(client, `/${p.id}`, { method: "DELETE" })).status).toBe(200);
    expectProblem(await props(client, `/${p.id}`, { method: "DELETE" }), 404, "property not found");
  });

  it("makes the property unusable in the Property header of catalog calls", async () => {
    const client = await newClient();
    const p = (await props(client, "", { body: { name: "Gone" } })).json.data[0];
    await props(client, `/${p.id}`, { method: "DELETE" });
    expectProblem(await client.call("/api/v2/rooms", { property: p.id }), 404, "property not found");
  });
});
