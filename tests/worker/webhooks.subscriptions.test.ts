import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectInvalid, expectProblem, newClient } from "./helpers";
import { subscribe } from "./webhooks.helpers";

const HOOK = "https://hooks.integrator.example/reservations";

describe("POST /webhooks/subscription", () => {
  it("creates a subscription for the Property header's property and shows its secret once", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/webhooks/subscription", {
      body: { endpoint: HOOK, webhook_type: "RESERVATION_CREATED" },
    });
    expect(res.status).toBe(201);
    const sub = res.json.data[0];
    expect(sub).toMatchObject({
      endpoint: HOOK,
      webhook_type: "RESERVATION_CREATED",
      property_id: client.propertyId,
      enabled: true,
      disabled_reason: null,
    });
    expect(sub.secret).toMatch(/^whsec_/);
    const read = await client.call(`/api/v2/webhooks/subscription/${sub.id}`);
    expect(read.status).toBe(200);
    expect(read.json.data[0]).toEqual(
      Object.fromEntries(Object.entries(sub).filter(([k]) => k !== "secret")),
    );
    expect(read.text).not.toContain(sub.secret);
  });

  it("needs the Property header, a known property and one of the client's own", async () => {
    const client = await newClient();
    const other = await newClient();
    const body = { endpoint: HOOK, webhook_type: "RESERVATION_CREATED" };
    expectProblem(
      await client.call("/api/v2/webhooks/subscription", { body, property: undefined }),
      400,
      "property header required",
    );
    expectProblem(
      await client.call("/api/v2/webhooks/subscription", { body, property: 99_999_999 }),
      404,
      "property not found",
    );
    expectProblem(
      await client.call("/api/v2/webhooks/subscription", { body, property: other.propertyId }),
      403,
      "property forbidden",
    );
  });

  it("refuses bad input field by field", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/webhooks/subscription", {
        body: { endpoint: "not a url", webhook_type: "RESERVATION_EATEN" },
      }),
      "endpoint",
      "webhook_type",
    );
    expectInvalid(
      await client.call("/api/v2/webhooks/subscription", { body: {} }),
      "endpoint",
      "webhook_type",
    );
    expectInvalid(
      await client.call("/api/v2/webhooks/subscription", {
        body: { endpoint: "javascript:alert(1)", webhook_type: "RESERVATION_CREATED" },
      }),
      "endpoint",
    );
    expectProblem(
      await client.call("/api/v2/webhooks/subscription", {
        body: "{",
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "invalid input data",
    );
  });

  it("sandbox properties may target http://localhost; production ones need https and a public address", async () => {
    const client = await newClient();
    expect(
      (
        await client.call("/api/v2/webhooks/subscription", {
          body: { endpoint: "http://localhost:3000/hook", webhook_type: "RESERVATION_CREATED" },
        })
      ).status,
    ).toBe(201);
    expectInvalid(
      await client.call("/api/v2/webhooks/subscription", {
        body: { endpoint: "http://hooks.example.com/", webhook_type: "RESERVATION_CREATED" },
      }),
      "endpoint",
    );

    await env.DB.prepare("UPDATE api_clients SET production_enabled = 1 WHERE id = ?").bind(client.id).run();
    const production = (
      await client.call("/api/v2/properties", { body: { name: "Live" }, property: undefined })
    ).json.data[0];
    expect(production.sandbox).toBe(false);
    for (const endpoint of [
      "http://localhost:3000/hook",
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://169.254.169.254/",
      "http://hooks.example.com/",
    ]) {
      const res = await client.call("/api/v2/webhooks/subscription", {
        body: { endpoint, webhook_type: "RESERVATION_CREATED" },
        property: production.id,
      });
      expectInvalid(res, "endpoint");
    }
    const ok = await client.call("/api/v2/webhooks/subscription", {
      body: { endpoint: HOOK, webhook_type: "RESERVATION_CREATED" },
      property: production.id,
    });
    expect(ok.status).toBe(201);
    expectInvalid(
      await client.call(`/api/v2/webhook/subscription/${ok.json.data[0].id}`, {
        method: "PUT",
        body: { endpoint: "https://192.168.0.1/" },
      }),
      "endpoint",
    );
  });

  it("replays the first answer for a repeated Idempotency-Key", async () => {
    const client = await newClient();
    const o = {
      body: { endpoint: HOOK, webhook_type: "RESERVATION_UPDATED" },
      headers: { "Idempotency-Key": "sub-1" },
    };
    const a = await client.call("/api/v2/webhooks/subscription", o);
    const b = await client.call("/api/v2/webhooks/subscription", o);
    expect(b.json).toEqual(a.json);
    expect((await client.call("/api/v2/webhooks/subscriptions")).json.data).toHaveLength(1);
  });
});

describe("GET /webhooks/subscriptions", () => {
  it("lists the client's subscriptions with cursor pagination", async () => {
    const client = await newClient();
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push(
        (await subscribe(client, `${HOOK}/${i}`, i % 2 ? "RESERVATION_UPDATED" : "RESERVATION_CREATED")).id,
      );
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await client.call(
        `/api/v2/webhooks/subscriptions?limit=2${cursor ? `&next_cursor=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(2);
      for (const s of res.json.data) expect(s.secret).toBeUndefined();
      seen.push(...res.json.data.map((s: { id: number }) => s.id));
      cursor = res.json.next_cursor;
    } while (cursor);
    expect(seen).toEqual(created);
    expectInvalid(await client.call("/api/v2/webhooks/subscriptions?limit=0"), "limit");
    expectInvalid(await client.call("/api/v2/webhooks/subscriptions?next_cursor=bogus"), "next_cursor");
  });
});

describe("PUT and DELETE /webhook/subscription/{id} (singular, as documented)", () => {
  it("updates only the fields given and deletes", async () => {
    const client = await newClient();
    const sub = await subscribe(client, HOOK, "RESERVATION_CREATED");
    const put = await client.call(`/api/v2/webhook/subscription/${sub.id}`, {
      method: "PUT",
      body: { webhook_type: "RESERVATION_UPDATED" },
    });
    expect(put.status).toBe(200);
    expect(put.json.data[0]).toMatchObject({
      id: sub.id,
      endpoint: HOOK,
      webhook_type: "RESERVATION_UPDATED",
    });
    const del = await client.call(`/api/v2/webhook/subscription/${sub.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(del.json.data[0].id).toBe(sub.id);
    expectProblem(
      await client.call(`/api/v2/webhooks/subscription/${sub.id}`),
      404,
      "subscription not found",
    );
    expectProblem(
      await client.call(`/api/v2/webhook/subscription/${sub.id}`, { method: "DELETE" }),
      404,
      "subscription not found",
    );
    expect((await client.call("/api/v2/webhooks/subscriptions")).json.data).toEqual([]);
  });

  it("has exactly the API's paths: the plural PUT and DELETE paths do not exist", async () => {
    const client = await newClient();
    const sub = await subscribe(client, HOOK, "RESERVATION_CREATED");
    expect(
      (await client.call(`/api/v2/webhooks/subscription/${sub.id}`, { method: "PUT", body: {} })).status,
    ).toBe(405);
    expect((await client.call(`/api/v2/webhooks/subscription/${sub.id}`, { method: "DELETE" })).status).toBe(
      405,
    );
    expect((await client.call(`/api/v2/webhook/subscription/${sub.id}`)).status).toBe(405);
  });

  it("refuses odd ids as invalid input", async () => {
    const client = await newClient();
    expectInvalid(await client.call("/api/v2/webhooks/subscription/1e3"), "id");
    expectInvalid(await client.call("/api/v2/webhook/subscription/-1", { method: "DELETE" }), "id");
  });
});

describe("isolation between clients", () => {
  it("another client can neither see nor touch a subscription, its deliveries or its secret", async () => {
    const owner = await newClient();
    const intruder = await newClient();
    const sub = await subscribe(owner, HOOK, "RESERVATION_CREATED");
    const paths: [string, string, unknown?][] = [
      ["GET", `/api/v2/webhooks/subscription/${sub.id}`],
      ["PUT", `/api/v2/webhook/subscription/${sub.id}`, { endpoint: "https://attacker.example/" }],
      ["DELETE", `/api/v2/webhook/subscription/${sub.id}`],
      ["POST", `/api/v2/webhooks/subscription/${sub.id}/rotate-secret`, {}],
      ["GET", `/api/v2/webhooks/subscription/${sub.id}/deliveries`],
      ["POST", `/api/v2/webhooks/subscription/${sub.id}/deliveries/1/replay`],
    ];
    for (const [method, path, body] of paths)
      expectProblem(await intruder.call(path, { method, body }), 404, "subscription not found");
    expect((await intruder.call("/api/v2/webhooks/subscriptions")).json.data).toEqual([]);
    const still = (await owner.call(`/api/v2/webhooks/subscription/${sub.id}`)).json.data[0];
    expect(still.endpoint).toBe(HOOK);
    // The secret did not change: the owner's rotation is the first.
    const rotated = (
      await owner.call(`/api/v2/webhooks/subscription/${sub.id}/rotate-secret`, { method: "POST" })
    ).json.data[0];
    const row = await owner.d1
      .prepare("SELECT previous_secret FROM webhook_subscriptions WHERE id = ?")
      .bind(sub.id)
      .first<{ previous_secret: string }>();
    expect(row!.previous_secret).toBe(sub.secret);
    expect(rotated.secret).not.toBe(sub.secret);
  });

  it("a deleted property's subscriptions are gone with it", async () => {
    const client = await newClient();
    const second = (
      await client.call("/api/v2/properties", { body: { name: "Second" }, property: undefined })
    ).json.data[0];
    const sub = await subscribe(client, HOOK, "RESERVATION_CREATED", second.id);
    expect(
      (await client.call(`/api/v2/properties/${second.id}`, { method: "DELETE", property: undefined }))
        .status,
    ).toBe(200);
    expect((await client.call("/api/v2/webhooks/subscriptions")).json.data).toEqual([]);
    expectProblem(
      await client.call(`/api/v2/webhooks/subscription/${sub.id}`),
      404,
      "subscription not found",
    );
  });

  it("answers 401 without a token", async () => {
    expectProblem(await call("/api/v2/webhooks/subscriptions"), 401);
    expectProblem(await call("/api/v2/webhook/subscription/1", { method: "DELETE" }), 401);
  });
});

describe("GET /webhooks/subscription/{id}/deliveries and replay", () => {
  it("answers an empty log, filters by state, and 404s an unknown delivery", async () => {
    const client = await newClient();
    const sub = await subscribe(client, HOOK, "RESERVATION_CREATED");
    const log = await client.call(`/api/v2/webhooks/subscription/${sub.id}/deliveries`);
    expect(log.json).toEqual({ data: [], next_cursor: null });
    expectInvalid(
      await client.call(`/api/v2/webhooks/subscription/${sub.id}/deliveries?state=lost`),
      "state",
    );
    expectProblem(
      await client.call(`/api/v2/webhooks/subscription/${sub.id}/deliveries/999999/replay`, {
        method: "POST",
      }),
      404,
      "delivery not found",
    );
  });
});
