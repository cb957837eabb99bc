/** Reads more than one view makes. */
import type { ConsoleApi, Customer, Property, ReservationListItem, Schema, Service } from "../api.js";

/** The day's reservations (every page of them), in start order; `search`: a name, phone or email. */
export function dayOf(
  api: ConsoleApi,
  { date, search }: { date: string; search?: string | undefined },
  signal?: AbortSignal,
): Promise<ReservationListItem[]> {
  return api.pages((next_cursor) =>
    api.GET("/reservations", {
      params: { query: { start_date: date, end_date: date, limit: 200, text_search: search, next_cursor } },
      signal,
    }),
  );
}

/** The guests whose name, email or phone hold `search` (the first few), as the staff type it. */
export function customersLike(api: ConsoleApi, search: string, signal?: AbortSignal): Promise<Customer[]> {
  return api.list(api.GET("/customers", { params: { query: { search, limit: 8 } }, signal }));
}

/** The property's services (every one: a restaurant has a handful). */
export function servicesOf(api: ConsoleApi, signal?: AbortSignal): Promise<Service[]> {
  return api.list(api.GET("/services", { params: { query: { limit: 100 } }, signal }));
}

/** The restaurant's own record (name, phone, public key, settings). */
export function propertyOf(api: ConsoleApi, signal?: AbortSignal): Promise<Property> {
  return api.one(api.GET("/properties/{id}", { params: { path: { id: api.propertyId } }, signal }));
}

/**
 * Rooms and tables at one time for a party, the engine's choice marked (`best_choice`); none when
 * no table can seat the party (206).
 */
export async function roomsAt(
  api: ConsoleApi,
  q: { date: string; hour: string; pax: number; service_id: number },
  signal?: AbortSignal,
): Promise<Schema<"BookingRoom">[]> {
  const query = {
    start_date: q.date,
    start_hour: q.hour,
    pax: String(q.pax),
    service_id: String(q.service_id),
    best_choice: "true" as const,
  };
  const body = await api.answer(api.GET("/bookings/rooms", { params: { query }, signal }));
  return body && "data" in body ? (body.data[0] ?? []) : [];
}
