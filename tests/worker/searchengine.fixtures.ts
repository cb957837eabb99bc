/**
 * The search engine's side of the tests: its calls with the partner's credentials, a restaurant
 * whose switch is on, and Google's published request and response samples of each method
 * (Actions Center, reservations end-to-end, "Dining payload samples" and the methods' samples and
 * definitions) with our merchant, service, times and booking in place of theirs.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { type CallOptions, call, dateInDays, newClient, type TestClient } from "./helpers";

export const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;
export const PARTNER_AUTH = basic(env.SEARCHENGINE_USER!, env.SEARCHENGINE_PASSWORD!);

/** A call to <origin>/searchengine<path> as the search engine makes it (Basic auth, JSON). */
export function partner(path: string, body?: unknown, o: CallOptions = {}) {
  return call(`/searchengine${path}`, {
    method: body === undefined ? "GET" : "POST",
    body,
    ...o,
    headers: { Authorization: PARTNER_AUTH, ...o.headers },
  });
}

/** A v3 method; its JSON answer when it is 200. */
export async function v3(method: string, body?: unknown): Promise<any> {
  const res = await partner(`/v3/${method}`, body);
  expect(res.status, `${method}: ${res.text}`).toBe(200);
  return res.json;
}

export const ZONE = "Europe/Rome";

/** The UTC epoch second of a wall-clock time in Rome, found by Intl (not by the Worker's code). */
export function romeSec(date: string, hour: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = hour.split(":").map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const fmt = new Intl.DateTimeFormat("sv-SE", {
    timeZone: ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  // Rome is UTC+1 or UTC+2: of the instants that show this wall-clock time, the later one (as the Worker's canonical instant).
  const hits = [120, 60]
    .map((off) => wall - off * 60_000)
    .filter((t) => fmt.format(t) === `${date} ${hour.slice(0, 5)}`);
  if (!hits.length) throw new Error(`${date} ${hour} does not exist in ${ZONE}`);
  return hits.at(-1)! / 1000;
}

export interface Merchant {
  client: TestClient;
  merchantId: string;
  service: { id: number; name: string };
  serviceId: string;
  tables: { id: number; guests_max: number }[];
  room: { id: number };
  /** a day the service runs, inside the booking window */
  date: string;
}

export interface MerchantOptions {
  settings?: Record<string, unknown>;
  /** guests_max of each online table (default one table of 2) */
  tables?: number[];
  service?: Record<string, unknown>;
  /** false: the switch stays off */
  enabled?: boolean;
}

/** A client whose property is a production one (only those reach the search engine), as the operator would arrange. */
export async function productionClient(name: string): Promise<TestClient> {
  const client = await newClient(name);
  await makeProduction(client);
  return client;
}

/** The client's property made a production one by hand (tests only: the operator's work). */
export async function makeProduction(client: TestClient): Promise<void> {
  await client.d1
    .prepare("UPDATE properties SET sandbox = 0, sandbox_expires_at = NULL WHERE id = ?")
    .bind(client.propertyId)
    .run();
}

/** A restaurant in Rome (a production property), with a stay of 30 minutes (the samples' 1800 s), Dinner 19:00-21:00, and its switch on. */
export async function merchant(o: MerchantOptions = {}): Promise<Merchant> {
  const client = await productionClient("Osteria del Motore");
  const settings = { timezone: ZONE, average_stay: 30, ...o.settings };
  const put = await client.call(`/api/v2/properties/${client.propertyId}`, {
    method: "PUT",
    body: { settings, phone: "+39 06 1234567", website: "https://osteria.example" },
    property: undefined,
  });
  expect(put.status, put.text).toBe(200);
  const room = (await client.call("/api/v2/rooms", { body: { name: "Sala" } })).json.data[0];
  const tables = [];
  for (const [i, max] of (o.tables ?? [2]).entries()) {
    tables.push(
      (
        await client.call("/api/v2/tables", {
          body: { name: `T${i + 1}`, room_id: room.id, guests_max: max },
        })
      ).json.data[0],
    );
  }
  const service = (
    await client.call("/api/v2/services", {
      body: {
        name: "Dinner",
        start_hour: "19:00",
        end_hour: "21:00",
        description: "From the wood oven",
        ...o.service,
      },
    })
  ).json.data[0];
  if (o.enabled !== false) await setSwitch(client, true);
  const merchantId = (await client.call(`/api/v2/properties/${client.propertyId}`, { property: undefined }))
    .json.data[0].public_key;
  return { client, merchantId, service, serviceId: String(service.id), tables, room, date: dateInDays(10) };
}

export async function setSwitch(client: TestClient, on: boolean) {
  const res = await client.call("/api/v2/reservations/searchengine", { body: { enable_searchengine: on } });
  expect(res.status, res.text).toBe(201);
}

export const USER = {
  email: "john.smith@gmail.com",
  family_name: "Smith",
  given_name: "John",
  telephone: "+12091111111",
  user_id: "1111111111111111111",
};
let tokens = 0;
export const newToken = () =>
  `${Date.now()}${(tokens++).toString().padStart(4, "0")}${Math.floor(Math.random() * 1e6)}`;

/** int64 fields may come back as numbers or strings: compare as numbers. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        ["start_sec", "duration_sec", "party_size"].includes(k) && typeof v === "string"
          ? Number(v)
          : normalise(v),
      ]),
    );
  }
  return value;
}

/** Google's samples, with our ids: `m` merchant, `s` service, `start` epoch second, `booking` id, `user` user_id. */
export const SAMPLES = {
  batchAvailabilityLookup: (m: string, s: string, starts: number[]) => ({
    request: {
      merchant_id: m,
      slot_time: starts.map((start) => ({
        duration_sec: "1800",
        resource_ids: { party_size: 2 },
        service_id: s,
        start_sec: String(start),
      })),
    },
    response: {
      slot_time_availability: starts.map((start) => ({
        available: true,
        slot_time: {
          duration_sec: "1800",
          resource_ids: { party_size: 2 },
          service_id: s,
          start_sec: String(start),
        },
      })),
    },
  }),
  createBooking: (m: string, s: string, start: number, token: string) => ({
    request: {
      idempotency_token: token,
      payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
      slot: {
        confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
        duration_sec: "1800",
        merchant_id: m,
        resources: { party_size: 2 },
        service_id: s,
        start_sec: String(start),
      },
      user_information: USER,
    },
    response: (booking: string) => ({
      booking: {
        booking_id: booking,
        payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
        slot: {
          confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
          duration_sec: "1800",
          merchant_id: m,
          resources: { party_size: 2 },
          service_id: s,
          start_sec: String(start),
        },
        status: "CONFIRMED",
        user_information: USER,
      },
    }),
  }),
  updateBooking: (m: string, s: string, booking: string, start: number) => ({
    request: { booking: { booking_id: booking, slot: { duration_sec: "1800", start_sec: String(start) } } },
    // The sample's answer, plus the fields every Booking we send carries (confirmation_mode, payment_information).
    response: {
      booking: {
        booking_id: booking,
        slot: {
          duration_sec: 1800,
          merchant_id: m,
          resources: { party_size: 2 },
          service_id: s,
          start_sec: start,
          confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
        },
        status: "CONFIRMED",
        user_information: USER,
        payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
      },
    },
  }),
  cancelBooking: (booking: string) => ({ request: { booking: { booking_id: booking, status: "CANCELED" } } }),
  getBookingStatus: (booking: string) => ({
    request: { booking_id: booking },
    response: {
      booking_id: booking,
      booking_status: "CONFIRMED",
      prepayment_status: "PREPAYMENT_NOT_PROVIDED",
    },
  }),
  listBookings: (user: string) => ({ request: { user_id: user } }),
};
