/** Shared set-up of the public widget API suites: a restaurant, its public key, a guest's calls from one IP. */
import { expect } from "vitest";
import { type CallOptions, call, dateInDays, freshIp, newClient, type TestClient } from "./helpers";

export interface Guest {
  ip: string;
  /** calls /api/v2/public/<public_key><path> from this guest's IP */
  call: (path: string, o?: CallOptions) => ReturnType<typeof call>;
  book: (body: Record<string, unknown>, headers?: Record<string, string>) => ReturnType<typeof call>;
}

export function guestOf(publicKey: string, ip = freshIp()): Guest {
  const g: Guest = {
    ip,
    call: (path, o = {}) =>
      call(`/api/v2/public/${publicKey}${path}`, { ...o, headers: { "CF-Connecting-IP": ip, ...o.headers } }),
    book: (body, headers = {}) => g.call("/reservations", { body, headers }),
  };
  return g;
}

export const GUEST = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "+39 055 123456",
};

export interface SmallRestaurant {
  client: TestClient;
  publicKey: string;
  room: { id: number };
  table: { id: number };
  service: { id: number; name: string };
  date: string;
  guest: Guest;
}

/**
 * One room, one online table of 2 and Dinner every day 19:00-20:00 every 15 minutes, stay 60:
 * small enough to book out in a test. Settings patch optional.
 */
export async function smallRestaurant(settings: Record<string, unknown> = {}): Promise<SmallRestaurant> {
  const client = await newClient("Small Trattoria");
  if (Object.keys(settings).length) {
    const res = await client.call(`/api/v2/properties/${client.propertyId}`, {
      method: "PUT",
      body: { settings },
      property: undefined,
    });
    expect(res.status, res.text).toBe(200);
  }
  const publicKey = await publicKeyOf(client);
  const room = (await client.call("/api/v2/rooms", { body: { name: "Sala" } })).json.data[0];
  const table = (
    await client.call("/api/v2/tables", { body: { name: "S1", room_id: room.id, guests_max: 2 } })
  ).json.data[0];
  const service = (
    await client.call("/api/v2/services", {
      body: {
        name: "Dinner",
        start_hour: "19:00",
        end_hour: "20:00",
        description: "Wood-fired oven",
        image_url: "https://img.example/dinner.jpg",
      },
    })
  ).json.data[0];
  return { client, publicKey, room, table, service, date: dateInDays(10), guest: guestOf(publicKey) };
}

export async function publicKeyOf(client: TestClient): Promise<string> {
  const res = await client.call(`/api/v2/properties/${client.propertyId}`, { property: undefined });
  expect(res.status).toBe(200);
  return res.json.data[0].public_key;
}

/** The times a guest is offered for one day and service. */
export async function listed(guest: Guest, date: string, pax: number, serviceId?: number): Promise<string[]> {
  const res = await guest.call(
    `/slots?date=${date}&pax=${pax}${serviceId ? `&service_id=${serviceId}` : ""}`,
  );
  expect(res.status, res.text).toBe(200);
  return res.json.data[0].services.flatMap((s: { times: string[] }) => s.times);
}

export const GRID = ["19:00:00", "19:15:00", "19:30:00", "19:45:00", "20:00:00"];
