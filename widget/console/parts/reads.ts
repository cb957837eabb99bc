/** Reads more than one view makes. */
import type {
  ConsoleApi,
  Customer,
  Property,
  Reservation,
  ReservationListItem,
  Schema,
  Service,
} from "../api.js";

/** The guests whose name, email or phone hold `search` (the first `limit`; all of them when `search` is empty). */
export function customersLike(
  api: ConsoleApi,
  search: string,
  signal?: AbortSignal,
  limit = 8,
): Promise<Customer[]> {
  return api.list(
    api.GET("/customers", { params: { query: { search: search || undefined, limit } }, signal }),
  );
}

/** Reservations on any day from `from` to `to` whose guest's name, phone (any format) or email matches. */
export function searchDays(
  api: ConsoleApi,
  q: { text: string; from: string; to: string },
  signal?: AbortSignal,
): Promise<ReservationListItem[]> {
  const query = { start_date: q.from, end_date: q.to, text_search: q.text, limit: 100 };
  return api.list(api.GET("/reservations", { params: { query }, signal }));
}

/** The property's services (every one: a restaurant has a handful). */
export function servicesOf(api: ConsoleApi, signal?: AbortSignal): Promise<Service[]> {
  return api.list(api.GET("/services", { params: { query: { limit: 100 } }, signal }));
}

/** The restaurant's own record (name, phone, public key, settings). */
export function propertyOf(api: ConsoleApi, signal?: AbortSignal): Promise<Property> {
  return api.one(api.GET("/properties/{id}", { params: { path: { id: api.propertyId } }, signal }));
}

/** One reservation, as a single record (its day as `start_day`). */
export function reservationOf(api: ConsoleApi, id: number, signal?: AbortSignal): Promise<Reservation> {
  return api.one(
    api.GET("/reservations/{reservation_id}", { params: { path: { reservation_id: id } }, signal }),
  );
}

type BookingRoom = Schema<"BookingRoom">;

/**
 * Rooms and tables at one time for a party, the engine's choice marked (`best_choice`). When no
 * one table seats the party (206), the floor for a couple, so that tables can be put together.
 */
export async function roomsAt(
  api: ConsoleApi,
  q: { date: string; hour: string; pax: number; service_id: number },
  signal?: AbortSignal,
): Promise<BookingRoom[]> {
  const query = {
    start_date: q.date,
    start_hour: q.hour,
    pax: String(q.pax),
    service_id: String(q.service_id),
    best_choice: "true" as const,
  };
  const { data, response } = await api.GET("/bookings/rooms", { params: { query }, signal });
  if (response.status !== 206) {
    const body = await api.answer(Promise.resolve({ data, response }));
    return body && "data" in body ? (body.data[0] ?? []) : [];
  }
  if (q.pax <= 2) return [];
  const couple = await roomsAt(api, { ...q, pax: 2 }, signal);
  return couple.map((room) => ({ ...room, tables: room.tables.map((t) => ({ ...t, best_choice: false })) }));
}
