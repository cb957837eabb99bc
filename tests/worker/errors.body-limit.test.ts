/**
 * Bodies over 64 KiB are a clean 413 whether or not the caller sent a Content-Length: a chunked
 * body is read up to the limit (and an over-long one to its end, then dropped), on every write
 * route of the OpenAPI document; the OAuth endpoints answer it in RFC 6749's shape. A chunked
 * body within the limit works like any other.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { chunked, direct } from "./direct";
import { AUTH, expectProblem, freshIp, newClient, seedCatalog, type TestClient } from "./helpers";
import { type Operation, operations, urlOf } from "./openapi-walk";

let writes: Operation[];
const HUGE = JSON.stringify({ name: "x".repeat(70 * 1024) });

beforeAll(async () => {
  writes = (await operations()).ops.filter((o) => o.bodySchema);
});

const isOAuth = (op: Operation) => op.path.startsWith("/auth/") && !op.path.endsWith("/client");

describe("a chunked body (no Content-Length)", () => {
  it("over 64 KiB answers 413 on every write route, in RFC 6749's shape on the OAuth endpoints", async () => {
    expect(writes.length).toBeGreaterThan(15);
    const client = await newClient();
    const cat = await seedCatalog(client);
    const ids: Record<string, number> = {
      properties: client.propertyId,
      rooms: cat.room.id,
      tables: cat.t1.id,
      services: cat.service.id,
      closures: cat.closure.id,
    };
    for (const op of writes) {
      const oauth = isOAuth(op);
      const res = await direct(urlOf(op, ids[op.path.split("/")[3]!] ?? 1), {
        method: op.method,
        body: chunked(oauth ? `grant_type=client_credentials&pad=${"x".repeat(70 * 1024)}` : HUGE),
        token: op.authenticated ? client.token : undefined,
        property: op.authenticated ? client.propertyId : undefined,
        headers: {
          "Content-Type": oauth ? "application/x-www-form-urlencoded" : "application/json",
          "CF-Connecting-IP": freshIp(),
        },
      });
      if (oauth) {
        expect(res.status, `${op.method} ${op.path}: ${res.text.slice(0, 200)}`).toBe(413);
        expect(res.json).toEqual({
          error: "invalid_request",
          error_description: "request bodies are limited to 64 KiB",
        });
        expect(res.headers.get("Cache-Control")).toBe("no-store");
      } else {
        expectProblem(res, 413, "payload too large");
      }
    }
  });

  it("within 64 KiB is read as usual: a room, a token and a booking", async () => {
    const client: TestClient = await newClient();
    const room = await direct("/api/v2/rooms", {
      body: chunked(JSON.stringify({ name: "Chunked hall", pad: "y".repeat(60 * 1024) })),
      token: client.token,
      property: client.propertyId,
    });
    expect(room.status, room.text).toBe(201);
    expect(room.json.data[0].name).toBe("Chunked hall");
    const token = await direct(`${AUTH}/token`, {
      body: chunked(
        new URLSearchParams({
          grant_type: "client_credentials",
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }).toString(),
      ),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": freshIp() },
    });
    expect(token.status, token.text).toBe(200);
    expect(token.json.token_type).toBe("Bearer");
  });

  it("that is empty answers what an empty body with Content-Length: 0 answers", async () => {
    const client = await newClient();
    const cat = await seedCatalog(client);
    const put = (body: string | ReadableStream<Uint8Array>) =>
      direct(`/api/v2/rooms/${cat.room.id}`, {
        method: "PUT",
        body,
        token: client.token,
        property: client.propertyId,
      });
    const [streamed, sized] = [await put(chunked("")), await put("")];
    expectProblem(streamed, 400, "invalid input data");
    expect(streamed.json.errors).toEqual(sized.json.errors);
  });
});

describe("a body with a Content-Length over 64 KiB", () => {
  it("answers 413 before anything reads it, in RFC 6749's shape on the OAuth endpoints", async () => {
    const res = await direct(`${AUTH}/token`, {
      body: `grant_type=client_credentials&pad=${"x".repeat(70 * 1024)}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": freshIp() },
    });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      error: "invalid_request",
      error_description: "request bodies are limited to 64 KiB",
    });
    const client = await direct(`${AUTH}/client`, { body: HUGE, headers: { "CF-Connecting-IP": freshIp() } });
    expectProblem(client, 413, "payload too large");
  });
});
