/** The API shapes of /bookings/rooms and of the booking links. */
import { toTableCore } from "../properties/tables.schemas";
import type { BookingLinkDto, BookingRoomDto } from "./availability.schemas";
import type { Catalog, EngineTable } from "./rules";

/** What /bookings/rooms says of a table at the time asked. */
export interface TableAtTime {
  free: boolean;
  closed: boolean;
  best_choice: boolean;
}

/** Every room of the catalog with all its tables, each with what `at` says of it. */
export function toBookingRooms(
  propertyId: number,
  catalog: Pick<Catalog, "rooms" | "tables">,
  at: (t: EngineTable) => TableAtTime,
): BookingRoomDto[] {
  return catalog.rooms.map((room) => ({
    id: room.id,
    property_id: propertyId,
    name: room.name,
    bookable: room.bookable,
    tables: catalog.tables.filter((t) => t.roomId === room.id).map((t) => ({ ...toTableCore(t), ...at(t) })),
  }));
}

/** The hosted pages of a property, by its public key. */
export function bookingLinks(origin: string, publicKey: string): BookingLinkDto[] {
  const home = `${origin}/p/${publicKey}`;
  return [
    { name: "BOOKING_ENGINE_PAGE" as const, link: `${home}/book` },
    { name: "SERVICES_PAGE" as const, link: `${home}/services` },
    { name: "WELCOME_PAGE" as const, link: home },
  ];
}
