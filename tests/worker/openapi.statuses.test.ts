/**
 * The OpenAPI document lists the statuses the API really answers: every operation of it is
 * called without credentials, with a body over 64 KiB, with another media type and once its
 * rate limit is spent, and every status that comes back must be documented for that operation
 * (413 in RFC 6749's shape on the OAuth endpoints, 429 with its Retry-After header).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type DirectOptions, direct } from "./direct";
import { freshIp, newClient, seedCatalog, type TestClient } from "./helpers";
import { type Operation, operations, urlOf } from "./openapi-walk";
import { PARTNER_AUTH } from "./searchengine.fixtures";

let ops: Operation[];
let doc: any;

beforeAll(async () => {
  ({ ops, doc } = await operations());
});

const isPublic = (op: Operation) => op.path.startsWith("/api/v2/public/");
const isAuthArea = (op: Operation) => op.path.startsWith("/auth/");
/** The OAuth endpoints answering in RFC 6749's shape (client creation and the hosted sign-in pages answer problems). */
const isOAuth = (op: Operation) => isAuthArea(op) && /\/(token|revoke)$/.test(op.path);
/** The search engine's booking server and feeds: the partner's Basic credentials, and no rate limit. */
const isPartner = (op: Operation) => op.path.startsWith("/searchengine/");

function documented(op: Operation): Record<string, any> {
  return doc.paths[op.path][op.method.toLowerCase()].responses;
}

/** The answer's status is one the document lists for the operation, with the media type it lists. */
function expectDocumented(op: Operation, res: { status: number; headers: Headers }, why: string) {
  const responses = documented(op);
  const label = `${op.method} ${op.path} (${why}) answered ${res.status}`;
  expect(Object.keys(responses), label).toContain(String(res.status));
  const type = res.headers.get("Content-Type")?.split(";")[0];
  const content = responses[String(res.status)].content;
  if (type && content) expect(Object.keys(content), `${label} as ${type}`).toContain(type);
}

interface World {
  client: TestClient;
  ids: Record<string, number>;
  publicKey: string;
  ip: string;
}

async function world(): Promise<World> {
  const client = await newClient();
  const cat = await seedCatalog(client);
  const publicKey = (await client.call(`/api/v2/properties/${client.propertyId}`, { property: undefined }))
    .json.data[0].public_key;
  const ids = {
    properties: client.propertyId,
    rooms: cat.room.id,
    tables: cat.t1.id,
    services: cat.service.id,
    closures: cat.closure.id,
  };
  return { client, ids, publicKey, ip: freshIp() };
}

/** The operation called as its caller would: token and Property for the integrator API, the public key for the widget's. */
function callOp(w: World, op: Operation, o: DirectOptions & { anonymous?: boolean } = {}) {
  const url = urlOf(op, w.ids[op.path.split("/")[3]!] ?? 1)
    .replace("{public_key}", w.publicKey)
    .replace("{token}", "x".repeat(43));
  const authed = op.authenticated && !o.anonymous;
  const partner: Record<string, string> = authed && isPartner(op) ? { Authorization: PARTNER_AUTH } : {};
  return direct(url, {
    method: op.method,
    ...(authed && !isPartner(op) ? { token: w.client.token, property: w.client.propertyId } : {}),
    ...o,
    headers: { "CF-Connecting-IP": w.ip, ...partner, ...o.headers },
  });
}

/** A cheap request on the limiter the operation sits behind, sent until that limiter refuses. */
async function spendBudget(w: World, op: Operation) {
  const probe = isPartner(op)
    ? () => direct("/searchengine/v3/HealthCheck", { headers: { "CF-Connecting-IP": w.ip } })
    : isAuthArea(op)
      ? () =>
          direct("/auth/api/v2/api-account/oauth2/token", {
            body: "grant_type=client_credentials",
            headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": w.ip },
          })
      : isPublic(op)
        ? () => direct(`/api/v2/public/${w.publicKey}`, { headers: { "CF-Connecting-IP": w.ip } })
        : () => direct("/api/v2/properties", { token: w.client.token });
  for (let i = 0; i < 400; i++) if ((await probe()).status === 429) return;
  throw new Error(`no 429 after 400 requests before ${op.method} ${op.path}`);
}

describe("the OpenAPI document against the real answers", () => {
  it("documents 401 wherever a call without a token is refused", async () => {
    const w = await world();
    for (const op of ops.filter((o) => o.authenticated)) {
      const res = await callOp(w, op, { anonymous: true, body: op.bodySchema ? {} : undefined });
      expect(res.status).toBe(401);
      expectDocumented(op, res, "no token");
    }
  });

  it("documents 413 on every operation that takes a body (RFC 6749's shape on the OAuth endpoints)", async () => {
    const w = await world();
    const writes = ops.filter((o) => o.bodySchema || isOAuth(o));
    expect(writes.length).toBeGreaterThan(15);
    for (const op of writes) {
      const res = await callOp(w, op, {
        body: isOAuth(op)
          ? `grant_type=client_credentials&pad=${"x".repeat(70 * 1024)}`
          : JSON.stringify({ name: "x".repeat(70 * 1024) }),
        headers: {
          "Content-Type": isOAuth(op) ? "application/x-www-form-urlencoded" : "application/json",
          "CF-Connecting-IP": freshIp(),
        },
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(413);
      expectDocumented(op, res, "70 KiB body");
      if (isOAuth(op)) {
        expect(documented(op)["413"].content["application/json"].schema.$ref).toBe(
          "#/components/schemas/OAuthError",
        );
        expect(res.json.error).toBe("invalid_request");
      }
    }
  });

  it("documents 415 on every operation that takes only JSON", async () => {
    const w = await world();
    for (const op of ops.filter((o) => o.bodySchema && !isOAuth(o))) {
      const res = await callOp(w, op, {
        body: "name=x",
        headers: { "Content-Type": "text/plain", "CF-Connecting-IP": freshIp() },
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(415);
      expectDocumented(op, res, "text/plain");
    }
  });

  it("documents 415 exactly where it is answered, every operation of the document asked", async () => {
    const w = await world();
    const answered: string[] = [];
    for (const op of ops) {
      const name = `${op.method} ${op.path}`;
      // A body only goes with a write (GET carries none; DELETE takes none and is not refused for one).
      if (!["POST", "PUT", "PATCH"].includes(op.method)) {
        expect(Object.keys(documented(op)), name).not.toContain("415");
        continue;
      }
      const res = await callOp(w, op, {
        body: "name=x",
        headers: { "Content-Type": "text/plain", "CF-Connecting-IP": freshIp() },
      });
      expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(
        Object.keys(documented(op)).includes("415"),
        `${name} answered ${res.status}: 415 documented?`,
      ).toBe(res.status === 415);
      if (res.status === 415) answered.push(name);
    }
    expect(answered).toEqual(
      expect.arrayContaining([
        "PATCH /api/v2/reservations/{reservation_id}",
        "PATCH /api/v2/reservations/{reservation_id}/checkin",
        "PATCH /api/v2/reservations/{reservation_id}/checkout",
      ]),
    );
    expect(ops.length).toBeGreaterThan(75);
  });

  it("documents 429 and its Retry-After on every rate-limited operation, the OAuth routes included", async () => {
    const w = await world();
    const limited = new Set<string>();
    // The static RFC 8414 metadata has no limit, and documents none.
    const unlimited = ops.filter((op) => op.path.startsWith("/.well-known/"));
    for (const op of unlimited)
      expect(Object.keys(documented(op)), `${op.method} ${op.path}`).not.toContain("429");
    const rated = ops.filter((op) => !unlimited.includes(op));
    // One budget per limiter (the client's; the address's on the widget API, the auth routes and
    // failed partner credentials on the search engine's, whose partner itself is not limited).
    for (const op of rated) {
      const o = { body: op.bodySchema ? {} : undefined, anonymous: isPartner(op) };
      let res = await callOp(w, op, o);
      if (res.status !== 429) {
        // That limiter's budget is not spent yet (or a new minute began): spend it, then ask again.
        await spendBudget(w, op);
        res = await callOp(w, op, o);
      }
      expect(res.status, `${op.method} ${op.path}: ${res.text.slice(0, 200)}`).toBe(429);
      expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
      expectDocumented(op, res, "rate limit spent");
      expect(
        Object.keys(documented(op)["429"].headers ?? {}),
        `${op.method} ${op.path}: Retry-After documented`,
      ).toContain("Retry-After");
      if (isOAuth(op)) expect(res.json.error).toBe("slow_down");
      limited.add(`${op.method} ${op.path}`);
    }
    expect(limited.size).toBe(rated.length);
    expect([...limited]).toEqual(
      expect.arrayContaining([
        "POST /auth/api/v2/api-account/oauth2/revoke",
        "POST /auth/api/v2/api-account/oauth2/token",
        "POST /auth/api/v2/api-account/oauth2/client",
      ]),
    );
  });
});

/** The operation of the document whose path template matches `path`, for `method`. */
function operationAt(method: string, path: string): Operation | undefined {
  return ops.find(
    (op) =>
      op.method === method &&
      new RegExp(`^${op.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path) &&
      // a literal segment beats a parameter (/api/v2/services is not /api/v2/public/{public_key})
      !ops.some(
        (other) =>
          other !== op &&
          other.method === method &&
          other.path.split("{").length < op.path.split("{").length &&
          new RegExp(`^${other.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path),
      ),
  );
}

describe("a path parameter that is a dot segment", () => {
  it("is refused by the document's own parameter schema, and its URL answers as the operation it resolves to", async () => {
    const w = await world();
    const named = ops.filter((op) => /\{(public_key|token|client_id)\}/.test(op.path));
    expect(named.length).toBeGreaterThan(5);
    for (const op of named) {
      const params: any[] = doc.paths[op.path][op.method.toLowerCase()].parameters ?? [];
      for (const p of params.filter(
        (x) => x.in === "path" && ["public_key", "token", "client_id"].includes(x.name),
      )) {
        const pattern = new RegExp(p.schema.pattern, "u");
        const name = `${op.method} ${op.path} {${p.name}}`;
        for (const dots of [".", ".."]) expect(pattern.test(dots), `${name} takes "${dots}"`).toBe(false);
        expect(
          pattern.test({ public_key: w.publicKey, token: "x".repeat(43) }[p.name as string] ?? "cl_1"),
          name,
        ).toBe(true);
      }
      // %2e%2e is ".." to every URL parser, the runtime's included: the request names another path.
      const path = op.path.replace(/\{(public_key|token|client_id)\}/g, "%2e%2e").replace(/\{\w+\}/g, "1");
      const resolved = new URL(`https://api.test${path}`).pathname;
      expect(resolved, op.path).not.toContain("%2e");
      const res = await direct(path, {
        method: op.method,
        body: op.bodySchema ? {} : undefined,
        headers: { "CF-Connecting-IP": freshIp() },
      });
      const target = operationAt(op.method, resolved);
      if (target) expectDocumented(target, res, `${path}, which is ${resolved}`);
      // no operation there: under the token's area the token is asked first, else no such route
      else expect([401, 404, 405], `${op.method} ${resolved}`).toContain(res.status);
    }
  });
});
