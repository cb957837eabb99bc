/** Cross-cutting behaviour of every route: request ids, 404/405, rate limits, idempotency, docs. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { housekeeping } from "../../worker/cron";
import { now } from "../../worker/lib/clock";
import { call, expectProblem, newClient, type TestClient } from "./helpers";

async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** How the idempotency table names a key: its SHA-256 with the scope (the key itself is never stored). */
const storedKey = (scope: string, key: string) => sha256Hex(`${scope}\n${key}`);

/** Leaves a "running" claim for POST /api/v2/rooms with this body, as a request still in flight would. */
async function runningClaim(client: TestClient, key: string, body: string, startedAt = new Date(now())) {
  const hash = await sha256Hex(`POST /api/v2/rooms\n${client.propertyId}\n${body}`);
  await env.DB.prepare(
    "INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at) VALUES (?, ?, ?, 'running', ?)",
  )
    .bind(`client:${client.id}`, await storedKey(`client:${client.id}`, key), hash, startedAt.toISOString())
    .run();
}

describe("request ids", () => {
  it("puts an X-Request-Id on every response, errors included, and in problem bodies", async () => {
    const ok = await call("/healthz");
    expect(ok.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const err = await call("/api/v2/rooms");
    expect(err.json.request_id).toBe(err.headers.get("X-Request-Id"));
  });

  it("echoes a sane caller id and replaces an insane one", async () => {
    const echoed = await call("/healthz", { headers: { "X-Request-Id": "trace-abc_123" } });
    expect(echoed.headers.get("X-Request-Id")).toBe("trace-abc_123");
    const replaced = await call("/healthz", { headers: { "X-Request-Id": "bad id <script>" } });
    expect(replaced.headers.get("X-Request-Id")).not.toContain("script");
  });
});

describe("unknown routes and methods", () => {
  it("answers an unknown route with a 404 problem", async () => {
    const res = await call("/api/v2/nothing-here");
    expectProblem(res, 404, "not found");
  });

  it("answers a trailing slash with 404, not a misleading 405", async () => {
    const client = await newClient();
    expectProblem(await client.call("/api/v2/rooms/"), 404, "not found");
    expectProblem(await client.call("/api/v2/rooms/1/", { method: "PUT", body: {} }), 404, "not found");
  });

  it("answers a known path with another method with 405 and Allow", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/rooms", { method: "PATCH" });
    expectProblem(res, 405, "method not allowed");
    expect(res.headers.get("Allow")).toBe("GET, HEAD, POST");
    const item = await client.call("/api/v2/rooms/1", { method: "POST", body: {} });
    expectProblem(item, 405);
    expect(item.headers.get("Allow")).toBe("DELETE, GET, HEAD, PUT");
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a client spends its budget, and only that client", async () => {
    const greedy = await newClient();
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 400 && !limited; i++) {
      const res = await greedy.call("/api/v2/properties", { property: undefined });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(200);
    }
    expect(limited, "no 429 within 400 requests").toBeDefined();
    expectProblem(limited!, 429, "too many requests");
    expect(Number(limited!.headers.get("Retry-After"))).toBeGreaterThan(0);
    const other = await newClient();
    expect((await other.call("/api/v2/properties", { property: undefined })).status).toBe(200);
  });
});

describe("Idempotency-Key", () => {
  it("replays the first response for the same key and body, creating once", async () => {
    const client = await newClient();
    const headers = { "Idempotency-Key": "create-room-1" };
    const first = await client.call("/api/v2/rooms", { body: { name: "Patio" }, headers });
    const second = await client.call("/api/v2/rooms", { body: { name: "Patio" }, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    const rooms = await client.call("/api/v2/rooms");
    expect(rooms.json.data.filter((r: { name: string }) => r.name === "Patio")).toHaveLength(1);
  });

  it("refuses the same key with another body: 422", async () => {
    const client = await newClient();
    const headers = { "Idempotency-Key": "k-422" };
    expect((await client.call("/api/v2/rooms", { body: { name: "A" }, headers })).status).toBe(201);
    expectProblem(
      await client.call("/api/v2/rooms", { body: { name: "B" }, headers }),
      422,
      "idempotency key reused",
    );
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const client = await newClient();
    const body = JSON.stringify({ name: "Busy" });
    await runningClaim(client, "k-running", body);
    const res = await client.call("/api/v2/rooms", { body, headers: { "Idempotency-Key": "k-running" } });
    expectProblem(res, 409, "idempotency key in use");
  });

  it("scopes keys to the caller: another client's identical key runs anew", async () => {
    const a = await newClient();
    const b = await newClient();
    const headers = { "Idempotency-Key": "shared-key" };
    const ra = await a.call("/api/v2/rooms", { body: { name: "Same" }, headers });
    const rb = await b.call("/api/v2/rooms", { body: { name: "Same" }, headers });
    expect(rb.headers.get("Idempotent-Replayed")).toBeNull();
    expect(rb.json.data[0].id).not.toBe(ra.json.data[0].id);
    expect(rb.json.data[0].property_id).toBe(b.propertyId);
  });

  it("forgets a key after 24 hours", async () => {
    const client = await newClient();
    const headers = { "Idempotency-Key": "old-key" };
    const first = await client.call("/api/v2/rooms", { body: { name: "Old" }, headers });
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = '2000-01-01T00:00:00.000Z' WHERE key = ?")
      .bind(await storedKey(`client:${client.id}`, "old-key"))
      .run();
    const again = await client.call("/api/v2/rooms", { body: { name: "Old" }, headers });
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(again.json.data[0].id).not.toBe(first.json.data[0].id);
  });

  it("does not keep a failed request: a 4xx is replayed, but the key is tied to its body", async () => {
    const client = await newClient();
    const headers = { "Idempotency-Key": "bad-body" };
    const first = await client.call("/api/v2/rooms", { body: { name: "" }, headers });
    expectProblem(first, 400);
    const replay = await client.call("/api/v2/rooms", { body: { name: "" }, headers });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.status).toBe(400);
  });

  it("keeps this request's X-Request-Id on a replay", async () => {
    const client = await newClient();
    const headers = { "Idempotency-Key": "rid" };
    await client.call("/api/v2/rooms", {
      body: { name: "R" },
      headers: { ...headers, "X-Request-Id": "first-1" },
    });
    const replay = await client.call("/api/v2/rooms", {
      body: { name: "R" },
      headers: { ...headers, "X-Request-Id": "second-2" },
    });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("X-Request-Id")).toBe("second-2");
  });

  it("tells requests apart by their query string: same key, other query -> 422", async () => {
    const client = await newClient();
    const headers = { "Idempotency-Key": "q" };
    expect((await client.call("/api/v2/rooms?x=1", { body: { name: "Q" }, headers })).status).toBe(201);
    expectProblem(
      await client.call("/api/v2/rooms?x=2", { body: { name: "Q" }, headers }),
      422,
      "idempotency key reused",
    );
  });

  it("lets a retry take over a claim left running for over a minute (the first was cut off)", async () => {
    const client = await newClient();
    const body = JSON.stringify({ name: "Cut" });
    await runningClaim(client, "k-stale", body, new Date(now() - 120_000));
    const res = await client.call("/api/v2/rooms", { body, headers: { "Idempotency-Key": "k-stale" } });
    expect(res.status).toBe(201);
    expect(res.json.data[0].name).toBe("Cut");
  });

  it("never stores a client_secret: client creation keeps no idempotency record", async () => {
    const username = `idem_${Date.now()}`;
    const res = await call("/auth/api/v2/api-account/oauth2/client", {
      body: {
        name: "X",
        email: `${username}@example.com`,
        username,
        password: "password-123",
        redirect_uri: "https://x.example",
      },
      headers: { "Idempotency-Key": `client-${username}` },
    });
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT response_body FROM idempotency_keys WHERE key = ?")
      .bind(`client-${username}`)
      .first();
    expect(row).toBeNull();
    const again = await call("/auth/api/v2/api-account/oauth2/client", {
      body: {
        name: "X",
        email: `${username}@example.com`,
        username,
        password: "password-123",
        redirect_uri: "https://x.example",
      },
      headers: { "Idempotency-Key": `client-${username}` },
    });
    expectProblem(again, 409, "username taken");
    expect(again.text).not.toContain(res.json.data[0].client_secret);
  });

  it("stores neither the key nor the response readably: a replay needs the key", async () => {
    const client = await newClient();
    const res = await client.call("/api/v2/rooms", {
      body: { name: "Sealed room" },
      headers: { "Idempotency-Key": "sealed-1" },
    });
    expect(res.status).toBe(201);
    const rows = await env.DB.prepare("SELECT key, response_body FROM idempotency_keys WHERE scope = ?")
      .bind(`client:${client.id}`)
      .all<{ key: string; response_body: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]!.key).toBe(await storedKey(`client:${client.id}`, "sealed-1"));
    expect(rows.results[0]!.response_body).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(rows.results[0]!.response_body).not.toContain("Sealed room");
    const replay = await client.call("/api/v2/rooms", {
      body: { name: "Sealed room" },
      headers: { "Idempotency-Key": "sealed-1" },
    });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("Cache-Control")).toBe("no-store");
    expect(replay.json).toEqual(res.json);
  });

  it("refuses a malformed key", async () => {
    const client = await newClient();
    expectProblem(
      await client.call("/api/v2/rooms", {
        body: { name: "x" },
        headers: { "Idempotency-Key": "x".repeat(300) },
      }),
      400,
      "invalid input data",
    );
  });

  it("housekeeping drops keys older than a day", async () => {
    await env.DB.prepare(
      "INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at) VALUES ('s', 'stale', 'h', 'done', '2000-01-01T00:00:00.000Z')",
    ).run();
    await housekeeping(env);
    const row = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE key = 'stale'").first();
    expect(row).toBeNull();
  });
});

describe("OpenAPI document and docs", () => {
  it("is OpenAPI 3.1 generated from the routes, with bearer security and problem responses", async () => {
    const res = await call("/api/v2/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const path of [
      "/api/v2/properties",
      "/api/v2/properties/{id}",
      "/api/v2/rooms",
      "/api/v2/tables/{id}",
      "/api/v2/services",
      "/api/v2/closures/{id}",
      "/auth/api/v2/api-account/oauth2/client",
      "/auth/api/v2/api-account/oauth2/token",
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.summary, `${method} ${path} summary`).toBeTruthy();
        expect(
          Object.keys(op.responses).some((s) => s.startsWith("2")),
          `${method} ${path} 2xx`,
        ).toBe(true);
        if (path.startsWith("/api/v2/")) expect(op.responses["400"], `${method} ${path} 400`).toBeDefined();
      }
    }
    expect(
      doc.paths["/api/v2/rooms"].get.parameters.some(
        (p: any) => p.in === "header" && p.name === "Property" && p.required,
      ),
    ).toBe(true);
  });

  it("has a webhooks section: each event type with its signed headers and its payload schema, previous_attributes on updates", async () => {
    const doc = (await call("/api/v2/openapi.json")).json;
    expect(Object.keys(doc.webhooks).sort()).toEqual(["RESERVATION_CREATED", "RESERVATION_UPDATED"]);
    const schemas = doc.components.schemas;
    const resolve = (s: any) => (s.$ref ? schemas[s.$ref.replace("#/components/schemas/", "")] : s);
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const op = item.post;
      expect(op.summary).toBe(type);
      expect(
        op.parameters
          .filter((p: any) => p.in === "header" && p.required)
          .map((p: any) => p.name)
          .sort(),
      ).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
      expect(Object.keys(op.responses)).toContain("200");
      const payload = resolve(op.requestBody.content["application/json"].schema);
      expect(payload.required).toEqual(
        expect.arrayContaining(["id", "type", "created_at", "property_id", "data"]),
      );
      expect(payload.properties.type).toMatchObject({ type: "string", enum: [type] });
      const data = resolve(payload.properties.data);
      expect(data.properties.reservation.$ref).toBe("#/components/schemas/Reservation");
      if (type === "RESERVATION_UPDATED") {
        expect(data.required).toEqual(["reservation", "previous_attributes"]);
        const previous = resolve(data.properties.previous_attributes);
        expect(Object.keys(previous.properties)).toEqual(Object.keys(schemas.Reservation.properties));
        expect(previous.required ?? []).toEqual([]);
      } else expect(data.properties.previous_attributes).toBeUndefined();
    }
    // every reference in the document resolves
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    for (const name of new Set(refs)) expect(schemas[name], name).toBeDefined();
  });

  it("serves /docs with local assets only (works offline)", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
    const urls = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls).toContain("/docs/assets/swagger-ui-bundle.js");
    // the service's icon, so the browser asks for no /favicon.ico of its own
    expect(res.text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    for (const url of urls) expect(url, url).toMatch(/^\//);
  });

  it("lists every error code at /docs/errors", async () => {
    const res = await call("/docs/errors");
    expect(res.text).toContain('id="property_forbidden"');
    expect(res.text).toContain("room capacity has been exceeded");
  });
});
