/** What rooms add to the catalog router: each room answers with its live tables. */
import { resolveSettings } from "../../shared/schemas";
import type { CatalogResource, CatalogScope } from "../lib/crud";
import type { RoomRow } from "./catalog.repo";
import * as repo from "./catalog.repo";
import { inUse } from "./catalog.rules";
import {
  type Room,
  type RoomCreateBody,
  type RoomUpdateBody,
  type RoomWithTables,
  toRoomDto,
} from "./rooms.schemas";

async function withTables({ db, property }: CatalogScope, rooms: RoomRow[]): Promise<RoomWithTables[]> {
  const tables = await repo.tablesOfRooms(
    db,
    property.id,
    rooms.map((r) => r.id),
  );
  return rooms.map((room) => ({ ...room, tables: tables.filter((t) => t.roomId === room.id) }));
}

async function withTablesOf(
  scope: CatalogScope,
  room: RoomRow | undefined,
): Promise<RoomWithTables | undefined> {
  return room && (await withTables(scope, [room]))[0];
}

export const rooms: CatalogResource<RoomWithTables, RoomCreateBody, RoomUpdateBody, Room> = {
  list: async (scope, limit, afterId) =>
    withTables(scope, await repo.listRooms(scope.db, scope.property.id, limit, afterId)),
  get: async (scope, id) => withTablesOf(scope, await repo.getRoom(scope.db, scope.property.id, id)),
  create: async ({ db, property }, body) => ({
    ...(await repo.insertRoom(db, property.id, body)),
    tables: [],
  }),
  update: async (scope, current, body) =>
    withTablesOf(scope, await repo.updateRoom(scope.db, current.id, body)),
  async remove({ db, property }, room) {
    const result = await repo.deleteRoom(
      db,
      property.id,
      room.id,
      resolveSettings(property.settings).timezone,
    );
    if (!result.deleted) throw inUse("room", room.id, result.usedBy);
  },
  toDto: toRoomDto,
};
