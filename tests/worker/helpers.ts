import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { localMinutes, localToUtc } from "../../worker/lib/localtime";
import { shardD1 } from "../../worker/shards/shards";

export const ORIGIN = "https://api.test";
export const AUTH = "/auth/api/v2/api-account/oauth2";

export interface CallOptions {
  method?: string;
  token?: string;
  property?: number | string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls the Worker like an integrator would; JSON bodies unless `body` is already a string. */
export async function call(path: string, o: CallOptions = {}) {
  const headers = new Headers(o.headers);
  if (o.token) headers.set("Authorization", `Bearer ${o.token}`);
  if (o.property !== undefined) headers.set("Property", String(o.property));
  let body: string | undefined;
  if (o.body !== undefined) {
    body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const res = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`${ORIGIN}${path}`, { method: o.method ?? (body ? "POST" : "GET"), headers, body }),
  );
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

let counter = 0;
export const unique = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}_${(counter++).toString(36)}_${Math.random().toString(36).slice(2, 6)}`;

export interface TestClient {
  id: number;
  clientId: string;
  clientSecret: string;
  /** the bearer token `call` sends (atArrival swaps in one valid at its instant) */
  token: string;
  propertyId: number;
  /** the shard that holds the sandbox property (the directory placed it) */
  d1: D1Database;
  /** calls with this client's token and, unless overridden, its sandbox property */
  call: (path: string, o?: CallOptions) => ReturnType<typeof call>;
}

/**
 * A caller address of its own: the per-IP limits (auth, public widget API) of one test never reach
 * another. The files of a pool worker share its runtime and its limiters, so the addresses are
 * counted on the runtime's global object, never drawn at random: no two calls of a run share one.
 */
const addresses = globalThis as { __lastAddress?: number };
export function freshIp(): string {
  // from 10.16.0.1 on: below it, the addresses some tests name themselves
  const n = (addresses.__lastAddress ?? 0x100000) + 1;
  addresses.__lastAddress = n;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export async function newClient(name = "Test Restaurant"): Promise<TestClient> {
  const username = unique("user");
  const created = await call(`${AUTH}/client`, {
    body: {
      name,
      email: `${username}@example.com`,
      username,
      password: "password-123",
      redirect_uri: "https://integrator.example",
    },
    headers: { "CF-Connecting-IP": freshIp() },
  });
  if (created.status !== 200) throw new Error(`client creation failed: ${created.status} ${created.text}`);
  const c = created.json.data[0];
  const token = await getToken(c.client_id, c.client_secret);
  const propertyId = c.properties[0].id;
  const client: TestClient = {
    id: c.id,
    clientId: c.client_id,
    clientSecret: c.client_secret,
    token,
    propertyId,
    d1: await shardOf(propertyId),
    call: (path, o = {}) => call(path, { token: client.token, property: propertyId, ...o }),
  };
  return client;
}

/** The shard that holds a property, as the directory in the control database says. */
export async function shardOf(propertyId: number): Promise<D1Database> {
  const row = await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
    .bind(propertyId)
    .first<{ shard: number }>();
  if (!row) throw new Error(`property ${propertyId} is not in the directory`);
  return shardD1(env, row.shard);
}

export async function getToken(clientId: string, clientSecret: string): Promise<string> {
  const res = await call(`${AUTH}/token`, {
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": freshIp() },
  });
  if (res.status !== 200) throw new Error(`token failed: ${res.status} ${res.text}`);
  return res.json.access_token;
}

/** A room with two single tables and a group of both, and a dinner service. */
export async function seedCatalog(client: TestClient) {
  const room = (await client.call("/api/v2/rooms", { body: { name: "Main" } })).json.data[0];
  const t1 = (await client.call("/api/v2/tables", { body: { name: "T1", room_id: room.id, guests_max: 2 } }))
    .json.data[0];
  const t2 = (await client.call("/api/v2/tables", { body: { name: "T2", room_id: room.id, guests_max: 4 } }))
    .json.data[0];
  const group = (
    await client.call("/api/v2/tables", {
      body: { name: "T1+T2", room_id: room.id, group: true, table_ids: [t1.id, t2.id] },
    })
  ).json.data[0];
  const service = (
    await client.call("/api/v2/services", {
      body: { name: "Dinner", start_hour: "19:00", end_hour: "22:00" },
    })
  ).json.data[0];
  const closure = (
    await client.call("/api/v2/closures", { body: { start_date: "2030-12-24", reason: "Christmas" } })
  ).json.data[0];
  return { room, t1, t2, group, service, closure };
}

export function expectProblem(
  res: { status: number; headers: Headers; json: any },
  status: number,
  title?: string,
) {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.json)}`);
  if (!res.headers.get("Content-Type")?.startsWith("application/problem+json")) {
    throw new Error(`expected problem+json, got ${res.headers.get("Content-Type")}`);
  }
  if (res.json?.status !== status) throw new Error(`problem status mismatch: ${JSON.stringify(res.json)}`);
  if (title !== undefined && res.json?.title !== title)
    throw new Error(`expected title "${title}", got "${res.json?.title}"`);
  if (typeof res.json?.request_id !== "string") throw new Error("problem without request_id");
}

/** A 400 "invalid input data" naming exactly these fields in errors[]. */
export function expectInvalid(res: { status: number; headers: Headers; json: any }, ...paths: string[]) {
  expectProblem(res, 400, "invalid input data");
  expect(res.json.code).toBe("invalid_input_data");
  expect(res.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
  for (const e of res.json.errors) expect(typeof e.message).toBe("string");
}

/** POSTs to a collection, expects 201, answers the created record. */
export async function createIn(client: TestClient, collection: string, body: Record<string, unknown>) {
  const res = await client.call(`/api/v2/${collection}`, { body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data[0];
}

/** The UTC date `days` from now by the Worker's clock (worker/lib/clock.ts), which the tests share. */
export const dateInDays = (days: number) => new Date(now() + days * 86_400_000).toISOString().slice(0, 10);

/** A reservation's start as the API shows it: `start_date` in lists and creation answers, `start_day` in single records. */
type Arrival = { start_hour: string } & ({ start_date: string } | { start_day: string });

/**
 * Runs `fn` with the Worker's clock pinned at the party's arrival, half an hour before its local
 * start (check-in opens three hours before), then unpins it. `timeZone`: the property's zone.
 * The client's token would have expired by then: it calls with one issued at that instant.
 */
export async function atArrival<T>(
  client: TestClient,
  r: Arrival,
  fn: () => Promise<T>,
  timeZone = "UTC",
): Promise<T> {
  const token = client.token;
  const date = "start_date" in r ? r.start_date : r.start_day;
  setClock(new Date(localToUtc(timeZone, localMinutes(date, r.start_hour) - 30)).toISOString());
  try {
    client.token = await getToken(client.clientId, client.clientSecret);
    return await fn();
  } finally {
    setClock(undefined);
    client.token = token;
  }
}

/** A reservation row written straight to D1, at 20:00 for an hour (default: a year ahead, ACCEPTED). */
export async function insertReservation(
  propertyId: number,
  o: {
    serviceId?: number | null;
    roomId?: number | null;
    tableIds?: number[];
    date?: string;
    status?: string;
  },
) {
  const date = o.date ?? dateInDays(365);
  const start = localMinutes(date, "20:00");
  const d1 = await shardOf(propertyId);
  const row = await d1
    .prepare(
      `INSERT INTO reservations (property_id, service_id, room_id, start_date, start_hour, start_min, end_min, pax, status, channel)
     VALUES (?, ?, ?, ?, '20:00:00', ?, ?, 2, ?, 'PLATFORM_ADMIN') RETURNING id`,
    )
    .bind(propertyId, o.serviceId ?? null, o.roomId ?? null, date, start, start + 60, o.status ?? "ACCEPTED")
    .first<{ id: number }>();
  for (const tableId of o.tableIds ?? []) {
    await d1
      .prepare(
        "INSERT INTO reservation_tables (reservation_id, table_id, start_min, end_min) VALUES (?, ?, ?, ?)",
      )
      .bind(row!.id, tableId, start, start + 60)
      .run();
  }
  return row!.id;
}

export const GUEST = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "+39 055 123456",
};

/** A restaurant that takes bookings every day: room Main with T1 (2), T2 (4) and the group T1+T2 (6), and Dinner 19:00-22:00. */
export async function seedRestaurant(client: TestClient) {
  const { room, t1, t2, group, service } = await seedCatalog(client);
  return { room, t1, t2, group, service, date: dateInDays(10) };
}

/** POST /reservations with a customer and sensible defaults. */
export function book(client: TestClient, body: Record<string, unknown>) {
  return client.call("/api/v2/reservations", {
    body: { start_hour: "19:00:00", pax: 2, customer: GUEST, ...body },
  });
}
