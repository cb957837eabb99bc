/**
 * Bad input never yields a 5xx: every write route of the OpenAPI document gets
 * malformed JSON, wrong types, a huge body, another media type and odd ids.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem, freshIp, newClient, seedCatalog, type TestClient } from "./helpers";
import { AUTH_CLIENT_PATH, type Operation, operations, urlOf, wrongTypes } from "./openapi-walk";

let ops: Operation[];
let doc: any;

/**
 * A client of its own with its catalog and a caller address of its own: real ids, and rate-limit
 * budgets no other test or file spends (the files of a runtime share its limiters).
 */
interface World {
  client: TestClient;
  ip: string;
  ids: Record<string, number>;
}

async function world(): Promise<World> {
  const client = await newClient();
  const cat = await seedCatalog(client);
  return {
    client,
    ip: freshIp(),
    ids: {
      properties: client.propertyId,
      rooms: cat.room.id,
      tables: cat.t1.id,
      services: cat.service.id,
      closures: cat.closure.id,
    },
  };
}

/**
 * Worlds for a walk over every route: a fresh one before the client's budget (150 requests a
 * minute in the tests, vitest.config.ts) is near, since the walk grows with every route.
 * `perOp`: the requests the test sends each operation.
 */
function worlds(perOp: number) {
  let current: World | undefined;
  let spent = Infinity;
  return async () => {
    // seeding the world spends a few of its client's requests too
    if (spent + perOp > 130) [current, spent] = [await world(), 10];
    spent += perOp;
    return current!;
  };
}

/** The operation's path with the world's own id of that resource (1 where it has none). */
function concrete(w: World, op: Operation) {
  return urlOf(op, w.ids[op.path.split("/")[3]!] ?? 1);
}

function send(w: World, op: Operation, body: string | undefined, headers: Record<string, string> = {}) {
  const target = op.authenticated ? w.client.call : call;
  return target(concrete(w, op), {
    method: op.method,
    body,
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": w.ip, ...headers },
  });
}

beforeAll(async () => {
  const walked = await operations();
  doc = walked.doc;
  // The public widget API's writes are walked too: no token, and the body is refused before the
  // (here unknown) public key is looked up. The search engine's routes take its partner's
  // credentials, not a client's token: searchengine.error.test.ts walks them.
  ops = walked.ops.filter(
    (o) =>
      o.bodySchema &&
      ((o.authenticated && !o.path.startsWith("/searchengine/")) ||
        o.path === AUTH_CLIENT_PATH ||
        o.path.startsWith("/api/v2/public/")),
  );
});

describe("error suite: every write route", () => {
  it("covers the write routes", () => {
    expect(ops.length).toBeGreaterThanOrEqual(11);
    expect(ops.map((o) => `${o.method} ${o.path}`)).toContain(
      "POST /api/v2/public/{public_key}/reservations",
    );
  });

  it("answers malformed JSON with 400 invalid input data", async () => {
    const next = worlds(4);
    for (const op of ops) {
      const w = await next();
      for (const body of ['{"name":', "{'name': 'x'}", "nul", '{"a":1}}']) {
        const res = await send(w, op, body);
        expectProblem(res, 400, "invalid input data");
      }
    }
  });

  it("answers bodies of the wrong JSON type with 400 and names the fields", async () => {
    const next = worlds(6);
    for (const op of ops) {
      const w = await next();
      // The API names the 400 of POST /reservations/searchengine "validation error".
      const title = op.path.endsWith("/searchengine") ? "validation error" : "invalid input data";
      for (const body of ["[]", '"text"', "123", "null", "true"]) {
        expectProblem(await send(w, op, body), 400, title);
      }
      const res = await send(w, op, JSON.stringify(wrongTypes(doc, op.bodySchema)));
      expectProblem(res, 400, title);
      expect(res.json.errors.length, `${op.method} ${op.path}`).toBeGreaterThan(0);
      for (const e of res.json.errors)
        expect(e).toEqual({ path: expect.any(String), message: expect.any(String) });
    }
  });

  it("answers out-of-range values with 400", async () => {
    const { client } = await world();
    const cases: [string, string, unknown][] = [
      ["POST", "/api/v2/tables", { name: "x", room_id: -1, guests_max: 0 }],
      ["POST", "/api/v2/tables", { name: "", room_id: 1, guests_max: 100000 }],
      ["POST", "/api/v2/services", { name: "x", start_hour: "25:00", end_hour: "26:61" }],
      ["POST", "/api/v2/services", { name: "x", start_hour: "12:00", end_hour: "13:00", weekdays: [0, 8] }],
      ["POST", "/api/v2/closures", { start_date: "2026-02-30" }],
      ["POST", "/api/v2/closures", { start_date: "2026-13-01" }],
      ["POST", "/api/v2/properties", { name: "x".repeat(1000) }],
      [
        "POST",
        "/api/v2/properties",
        { name: "x", settings: { timezone: "Mars/Olympus", average_stay: -5, locale: "xx" } },
      ],
      ["POST", "/api/v2/properties", { name: "x", position: { latitude: 1000 } }],
      // Pages will render these: only http(s) URLs are taken.
      ["POST", "/api/v2/properties", { name: "x", website: "javascript:alert(document.cookie)" }],
      [
        "POST",
        "/api/v2/services",
        { name: "x", start_hour: "12:00", end_hour: "13:00", image_url: "javascript:alert(1)" },
      ],
      [
        "POST",
        "/api/v2/properties",
        { name: "x", settings: { logo_url: "data:text/html,<script>alert(1)</script>" } },
      ],
    ];
    for (const [method, path, body] of cases) {
      const res = await client.call(path, { method, body });
      expectProblem(res, 400, "invalid input data");
      expect(res.json.errors.length).toBeGreaterThan(0);
    }
  });

  it("answers bodies over 64 KiB with 413", async () => {
    const next = worlds(1);
    const huge = JSON.stringify({ name: "x".repeat(70 * 1024) });
    for (const op of ops) {
      const w = await next();
      expectProblem(await send(w, op, huge), 413, "payload too large");
    }
  });

  it("answers another media type with 415", async () => {
    const next = worlds(1);
    for (const op of ops) {
      const w = await next();
      const res = await send(w, op, "name=x", { "Content-Type": "text/plain" });
      expectProblem(res, 415, "unsupported media type");
    }
  });

  it("answers odd path ids with 400, never 5xx", async () => {
    const odd = ["abc", "0", "-1", "1.5", "99999999999999999999", "1e3", "%20", "0x10", "null"];
    let client!: TestClient;
    let spent = Infinity;
    for (const op of (await operations()).ops.filter((o) => o.hasPathId && o.authenticated)) {
      // A fresh client (and rate-limit budget) before the per-client limit of 150 a minute is near.
      if (spent + odd.length > 140) [client, spent] = [await newClient(), 0];
      spent += odd.length;
      // the ids of one route side by side: the walk grows with every route, the test's time must not
      const answers = await Promise.all(
        odd.map((id) =>
          client.call(urlOf(op, id), { method: op.method, body: op.bodySchema ? {} : undefined }),
        ),
      );
      for (const res of answers) {
        expectProblem(res, 400, "invalid input data");
        expect(res.json.errors[0].path).toBe(op.pathParam);
      }
    }
    // Over 200 requests in a row: on a busy machine that takes longer than one test usually may.
  }, 120_000);

  it("answers odd list queries with 400", async () => {
    const client = await newClient();
    for (const path of [
      "/api/v2/rooms",
      "/api/v2/tables",
      "/api/v2/services",
      "/api/v2/closures",
      "/api/v2/properties",
    ]) {
      for (const query of [
        "limit=abc",
        "limit=0",
        "limit=201",
        "limit=-3",
        "next_cursor=garbage!",
        `next_cursor=${btoa('{"id":"x"}')}`,
      ]) {
        const res = await client.call(`${path}?${query}`);
        expectProblem(res, 400, "invalid input data");
      }
    }
  });
});
