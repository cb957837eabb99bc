import { describe, expect, it } from "vitest";
import { newClient, type TestClient, unique } from "./helpers";

const DEFAULT_SETTINGS = {
  timezone: "UTC",
  locale: "en",
  average_stay: 60,
  turn_times: [],
  slot_interval: 15,
  min_notice: 0,
  max_days_ahead: 90,
  max_days_ahead_staff: 730,
  no_show_after_minutes: null,
  cancel_notice: 0,
  max_online_pax: 10,
  max_online_bookings_per_guest: 3,
  welcome_message: null,
  logo_url: null,
  photos: [],
  accent_color: null,
  translations: {},
  reminder_hours: 24,
  notify_restaurant: true,
  email_staff_bookings: true,
  offer_minutes: 15,
};

/** Property calls carry no Property header. */
const props = (client: TestClient, path = "", o: Parameters<TestClient["call"]>[1] = {}) =>
  client.call(`/api/v2/properties${path}`, { property: undefined, ...o });

async function createProperty(client: TestClient, body: Record<string, unknown>) {
  const res = await props(client, "", { body });
  expect(res.status).toBe(201);
  return res.json.data[0];
}

describe("GET /api/v2/properties", () => {
  it("lists the client's sandbox property created with the client", async () => {
    const client = await newClient("Trattoria Uno");
    const res = await props(client);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.json.next_cursor).toBeNull();
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({
      id: client.propertyId,
      name: "Trattoria Uno",
      enabled: true,
      sandbox: true,
      position: {},
    });
  });

  it("lists only the client's own properties, by id", async () => {
    const alice = await newClient("Alice");
    const bob = await newClient("Bob");
    const aliceSecond = await createProperty(alice, { name: "Alice Two" });

    const aliceList = (await props(alice)).json.data.map((p: any) => p.id);
    expect(aliceList).toEqual([alice.propertyId, aliceSecond.id]);

    const bobList = (await props(bob)).json.data.map((p: any) => p.id);
    expect(bobList).toEqual([bob.propertyId]);
  });

  it("pages with limit and an opaque next_cursor until next_cursor is null", async () => {
    const client = await newClient();
    const second = await createProperty(client, { name: "Second" });
    const third = await createProperty(client, { name: "Third" });

    const first = await props(client, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.json.data.map((p: any) => p.id)).toEqual([client.propertyId, second.id]);
    expect(typeof first.json.next_cursor).toBe("string");
    // opaque: not an offset or an id a caller could guess
    expect(first.json.next_cursor).not.toMatch(/^\d+$/);

    const next = await props(client, `?limit=2&next_cursor=${encodeURIComponent(first.json.next_cursor)}`);
    expect(next.status).toBe(200);
    expect(next.json.data.map((p: any) => p.id)).toEqual([third.id]);
    expect(next.json.next_cursor).toBeNull();
  });

  it("answers next_cursor null when the page is exactly full", async () => {
    const client = await newClient();
    await createProperty(client, { name: "Second" });
    const res = await props(client, "?limit=2");
    expect(res.json.data).toHaveLength(2);
    expect(res.json.next_cursor).toBeNull();
  });
});

describe("POST /api/v2/properties", () => {
  it("creates a sandbox property with only a name, filling every settings default", async () => {
    const client = await newClient();
    const res = await props(client, "", { body: { name: "  Osteria  " } });
    expect(res.status).toBe(201);
    const p = res.json.data[0];
    expect(res.json.data).toHaveLength(1);
    expect(p).toMatchObject({
      name: "Osteria",
      enabled: true,
      sandbox: true,
      position: {},
      email: null,
      website: null,
      phone: null,
      description: null,
      settings: DEFAULT_SETTINGS,
    });
    expect(p.id).toBeGreaterThan(client.propertyId);
    // Random, not derived from the id: 128 bits of base64url after the prefix.
    expect(p.public_key).toMatch(/^pk_[A-Za-z0-9_-]{22}$/);
    expect(typeof p.sandbox_expires_at).toBe("string");
  });

  it("stores the writeable attributes and never returns the password", async () => {
    const client = await newClient();
    const body = {
      name: "Trattoria Roma",
      email: "info@trattoria.example",
      username: unique("roma"),
      password: "secret-password",
      website: "https://trattoria.example",
      phone: "+39 02 1234567",
      description: "Roman cooking",
      position: {
        latitude: 41.9,
        longitude: 12.5,
        country: "IT",
        address: "Via Roma 1",
        city: "Roma",
        zip: "00100",
      },
    };
    const res = await props(client, "", { body });
    expect(res.status).toBe(201);
    const { password: _password, ...visible } = body;
    expect(res.json.data[0]).toMatchObject(visible);
    expect(res.text).not.toContain("secret-password");
    expect(res.json.data[0]).not.toHaveProperty("password");
    expect(res.json.data[0]).not.toHaveProperty("password_hash");
  });

  it("keeps the given settings and defaults the rest", async () => {
    const client = await newClient();
    const p = await createProperty(client, {
      name: "Roma",
      settings: { timezone: "Europe/Rome", locale: "it", turn_times: [{ max_pax: 2, minutes: 75 }] },
    });
    expect(p.settings).toEqual({
      ...DEFAULT_SETTINGS,
      timezone: "Europe/Rome",
      locale: "it",
      turn_times: [{ max_pax: 2, minutes: 75 }],
    });
  });

  it("keeps turn_times sorted by max_pax, whatever order they were sent in", async () => {
    const client = await newClient();
    const rules = [
      { max_pax: 6, minutes: 120 },
      { max_pax: 2, minutes: 75 },
      { max_pax: 4, minutes: 90 },
    ];
    const p = await createProperty(client, { name: "Turns", settings: { turn_times: rules } });
    expect(p.settings.turn_times.map((r: { max_pax: number }) => r.max_pax)).toEqual([2, 4, 6]);
  });

  it("grants the new property to its creator, so the catalog accepts it in the Property header", async () => {
    const client = await newClient();
    const p = await createProperty(client, { name: "Second" });
    const room = await client.call("/api/v2/rooms", { property: p.id, body: { name: "Terrace" } });
    expect(room.status).toBe(201);
    expect(room.json.data[0].property_id).toBe(p.id);
  });
});

describe("GET /api/v2/properties/{id}", () => {
  it("answers the property in a data array, with settings and public_key", async () => {
    const client = await newClient("Da Mario");
    const res = await props(client, `/${client.propertyId}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({
      id: client.propertyId,
      name: "Da Mario",
      sandbox: true,
      enabled: true,
      settings: DEFAULT_SETTINGS,
    });
    expect(res.json.data[0].public_key).toMatch(/^pk_/);
  });
});

describe("PUT /api/v2/properties/{id}", () => {
  it("changes only the fields given", async () => {
    const client = await newClient();
    const created = await createProperty(client, { name: "Old", phone: "+39 1", description: "kept" });
    const res = await props(client, `/${created.id}`, {
      method: "PUT",
      body: { name: "New", website: "https://new.example" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      id: created.id,
      name: "New",
      website: "https://new.example",
      phone: "+39 1",
      description: "kept",
      public_key: created.public_key,
    });

    const read = await props(client, `/${created.id}`);
    expect(read.json.data[0]).toMatchObject({ name: "New", website: "https://new.example", phone: "+39 1" });
  });

  it("merges settings: earlier settings survive a later partial update", async () => {
    const client = await newClient();
    const id = client.propertyId;
    await props(client, `/${id}`, {
      method: "PUT",
      body: { settings: { timezone: "Europe/Rome", average_stay: 90 } },
    });
    const res = await props(client, `/${id}`, {
      method: "PUT",
      body: { settings: { locale: "it", max_online_pax: 6 } },
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0].settings).toEqual({
      ...DEFAULT_SETTINGS,
      timezone: "Europe/Rome",
      average_stay: 90,
      locale: "it",
      max_online_pax: 6,
    });
    expect((await props(client, `/${id}`)).json.data[0].settings).toEqual(res.json.data[0].settings);
  });

  it("takes back the body of a GET unchanged, ignoring its read-only fields", async () => {
    const client = await newClient("Keep");
    const current = (await props(client, `/${client.propertyId}`)).json.data[0];
    const res = await props(client, `/${client.propertyId}`, {
      method: "PUT",
      body: { ...current, id: 999999, public_key: "pk_forged", sandbox: false, name: "Renamed" },
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      id: client.propertyId,
      name: "Renamed",
      sandbox: true,
      public_key: current.public_key,
    });
  });

  it("clears an optional attribute sent as null", async () => {
    const client = await newClient();
    const created = await createProperty(client, {
      name: "Clear",
      phone: "+39 1",
      website: "https://x.example",
    });
    const res = await props(client, `/${created.id}`, { method: "PUT", body: { phone: null } });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({ phone: null, website: "https://x.example" });
  });
});

describe("DELETE /api/v2/properties/{id}", () => {
  it("answers data: [id], then the property is not found and leaves the list", async () => {
    const client = await newClient();
    const p = await createProperty(client, { name: "Closing down" });

    const res = await props(client, `/${p.id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [p.id] });

    const read = await props(client, `/${p.id}`);
    expect(read.status).toBe(404);
    expect(read.json.title).toBe("property not found");

    const list = (await props(client)).json.data.map((x: any) => x.id);
    expect(list).toEqual([client.propertyId]);
  });
});
