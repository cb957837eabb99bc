/** A room's API shape (with its tables), its create and update bodies, and its mapper. */
import { z } from "@hono/zod-openapi";
import { lineField } from "../../shared/schemas";
import type { RoomRow, TableWithMembers } from "./catalog.repo";
import { TableSchema, toTableDto } from "./tables.schemas";

export const RoomSchema = z
  .object({
    id: z.number().int(),
    property_id: z.number().int(),
    name: z.string(),
    bookable: z.boolean(),
    tables: z.array(TableSchema),
  })
  .openapi("Room");

const name = lineField(100).min(1);

export const RoomCreate = z
  .object({ name, bookable: z.boolean().optional() })
  .openapi("RoomCreate", { example: { name: "Main hall", bookable: true } });
export const RoomUpdate = z
  .object({ name: name.optional(), bookable: z.boolean().optional() })
  .openapi("RoomUpdate");

export type Room = z.infer<typeof RoomSchema>;
export type RoomCreateBody = z.infer<typeof RoomCreate>;
export type RoomUpdateBody = z.infer<typeof RoomUpdate>;

/** A room as the API shows it: with its live tables. */
export type RoomWithTables = RoomRow & { tables: TableWithMembers[] };

export function toRoomDto(room: RoomWithTables): Room {
  return {
    id: room.id,
    property_id: room.propertyId,
    name: room.name,
    bookable: room.bookable,
    tables: room.tables.map(toTableDto),
  };
}
