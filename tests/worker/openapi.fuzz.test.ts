/**
 * A fuzz pass over every operation of the OpenAPI document: 32 generated requests each (path ids,
 * query parameters and JSON bodies built from the document's own names, examples and wrong
 * values, control characters and broken JSON among them). None may answer 5xx, and every status
 * answered must be one the document lists for that operation, with the media type it lists.
 * fast-check draws the requests from a fixed seed per operation, so a failure replays the same.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { direct } from "./direct";
import { freshIp, newClient, seedCatalog } from "./helpers";
import { type Operation, operations, resolve } from "./openapi-walk";
import { PARTNER_AUTH } from "./searchengine.fixtures";

const RUNS = 32;
let ops: Operation[];
let doc: any;

beforeAll(async () => {
  ({ ops, doc } = await operations());
});

const specOf = (op: Operation) => doc.paths[op.path][op.method.toLowerCase()];

/** Values that go wrong in many ways: types, formats, bounds, control characters, injections. */
const oddValue = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.integer({ min: -3, max: 3 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "",
    " ",
    "2027-05-10",
    "2027-02-30",
    "19:00:00",
    "24:00",
    "ada@example.com",
    "not-an-email",
    "\u0000",
    "a\r\nBcc: x@evil.test",
    "'; DROP TABLE x; --",
    "ACCEPTED",
    "-1",
    "1e309",
    "x".repeat(300),
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A JSON body: the operation's example with one field changed, an object of its field names with odd values, any JSON, or broken JSON. */
function bodyArb(op: Operation) {
  const schema = resolve(doc, op.bodySchema);
  const example = specOf(op).requestBody?.content?.["application/json"]?.example ?? schema?.example;
  const names = Object.keys(schema?.properties ?? {});
  const fromNames = names.length
    ? fc.dictionary(fc.constantFrom(...names), oddValue, { maxKeys: names.length })
    : fc.object({ maxDepth: 1 });
  const arbs: fc.Arbitrary<unknown>[] = [
    fromNames,
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant("{not json"),
    fc.constant(undefined),
  ];
  if (example && typeof example === "object" && names.length) {
    arbs.unshift(fc.tuple(fc.constantFrom(...names), oddValue).map(([k, v]) => ({ ...example, [k]: v })));
  }
  return fc.oneof(...arbs);
}

/** The path's id: the world's own, another number, or not a number at all. */
const idArb = (own: number) =>
  fc.oneof(
    fc.constant(String(own)),
    fc.integer({ min: -2, max: 2 ** 40 }).map(String),
    fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  );

/** Query parameters the operation names, each left out, its example, or an odd value. */
function queryArb(op: Operation) {
  const params: any[] = (specOf(op).parameters ?? []).filter((p: any) => p.in === "query");
  if (!params.length) return fc.constant("");
  const one = (p: any) =>
    fc.option(
      fc.oneof(
        fc.constant(String(p.schema?.example ?? p.example ?? "1")),
        oddValue.map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
      ),
      { nil: undefined },
    );
  return fc.tuple(...params.map(one)).map((values) =>
    params
      .map((p, i) =>
        values[i] === undefined ? "" : `${encodeURIComponent(p.name)}=${encodeURIComponent(values[i]!)}`,
      )
      .filter(Boolean)
      .join("&"),
  );
}

interface World {
  token: string;
  propertyId: number;
  ids: Record<string, number>;
  publicKey: string;
}

async function world(): Promise<World> {
  const client = await newClient();
  const cat = await seedCatalog(client);
  const publicKey = (await client.call(`/api/v2/properties/${client.propertyId}`, { property: undefined }))
    .json.data[0].public_key;
  return {
    token: client.token,
    propertyId: client.propertyId,
    ids: {
      properties: client.propertyId,
      rooms: cat.room.id,
      tables: cat.t1.id,
      services: cat.service.id,
      closures: cat.closure.id,
    },
    publicKey,
  };
}

function send(w: World, op: Operation, r: { id: string; query: string; body: unknown }) {
  const own = w.ids[op.path.split("/")[3]!] ?? 1;
  let path = op.path.replace("{public_key}", w.publicKey).replace("{token}", "x".repeat(43));
  path = path.replace(/\{\w+\}/, op.path.includes("{public_key}") ? String(own) : r.id);
  const url = r.query ? `${path}?${r.query}` : path;
  const partner = op.path.startsWith("/searchengine/");
  const withBody = r.body !== undefined && op.method !== "GET" && op.method !== "HEAD";
  return direct(url, {
    method: op.method,
    ...(op.authenticated && !partner ? { token: w.token, property: w.propertyId } : {}),
    ...(withBody ? { body: r.body } : {}),
    headers: { "CF-Connecting-IP": freshIp(), ...(partner ? { Authorization: PARTNER_AUTH } : {}) },
  });
}

describe("a fuzz pass over every operation of the OpenAPI document", () => {
  it("covers every operation", () => {
    expect(ops.length).toBeGreaterThan(75);
  });

  it(`answers ${RUNS} generated requests per operation without a 5xx, with documented statuses only`, {
    timeout: 900_000,
  }, async () => {
    let w = await world();
    for (const [index, op] of ops.entries()) {
      // A fresh restaurant now and then keeps each client under its rate limit (600 a minute),
      // and after a deletion, so that the next operations still meet a restaurant.
      if (index % 12 === 11 || ops[index - 1]?.method === "DELETE") w = await world();
      const responses = specOf(op).responses as Record<string, { content?: Record<string, unknown> }>;
      const request = fc.record({
        id: idArb(w.ids[op.path.split("/")[3]!] ?? 1),
        query: queryArb(op),
        body: op.bodySchema ? bodyArb(op) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const res = await send(w, op, r);
          const label = `${op.method} ${op.path} ${JSON.stringify(r).slice(0, 300)} answered ${res.status}: ${res.text.slice(0, 200)}`;
          expect(res.status, label).toBeLessThan(500);
          expect(Object.keys(responses), label).toContain(String(res.status));
          const type = res.headers.get("Content-Type")?.split(";")[0];
          const content = responses[String(res.status)]!.content;
          if (type && content) expect(Object.keys(content), `${label} as ${type}`).toContain(type);
        }),
        { numRuns: RUNS, seed: 2600 + index, endOnFailure: true },
      );
    }
  });
});
