/** /rooms and /tables of the property named by the Property header (CONTRACT 4). */
import { z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import type { AppEnv } from "../env";
import { ApiError, invalidField as invalid } from "../errors";
import { catalogRoutes, namesNothing } from "../lib/crud";
import { decodeCursor, idCursor, page } from "../lib/pagination";
import { resolveSettings } from "../../shared/schemas";
import * as repo from "./catalog.repo";
import type { RoomRow, TableWithMembers } from "./catalog.repo";

export const TableSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    room_id: z.number().int(),
    guests_min: z.number().int(),
    guests_max: z.number().int(),
    bookable: z.boolean(),
    online: z.boolean().openapi({ description: "true: bookable online (booking engine, search engine); false: staff only" }),
    group: z.boolean().openapi({ description: "a combination of two or more tables of one room" }),
    table_ids: z.array(z.number().int()).openapi({ description: "for a group, its member tables; empty otherwise" }),
  })
  .openapi("Table");

export const RoomSchema = z
  .object({ id: z.number().int(), property_id: z.number().int(), name: z.string(), bookable: z.boolean(), tables: z.array(TableSchema) })
  .openapi("Room");

const name = z.string().trim().min(1).max(100);
const MAX_GUESTS = 1000;
const guests = z.number().int().min(1).max(MAX_GUESTS);
const ids = z.array(z.number().int().positive()).max(100);

const RoomCreate = z.object({ name, bookable: z.boolean().optional() }).openapi("RoomCreate", { example: { name: "Main hall", bookable: true } });
const RoomUpdate = z.object({ name: name.optional(), bookable: z.boolean().optional() }).openapi("RoomUpdate");

const TableCreate = z
  .object({
    name,
    room_id: z.number().int().positive(),
    guests_min: guests.optional().openapi({ description: "default 1" }),
    guests_max: guests
      .optional()
      .openapi({ description: "required for a single table; a group without it seats the sum of its members, and follows them when they change" }),
    bookable: z.boolean().optional(),
    online: z.boolean().optional(),
    group: z.boolean().optional(),
    table_ids: ids.optional().openapi({ description: "members of a group: at least two tables of the same room" }),
  })
  .openapi("TableCreate", { example: { name: "T1", room_id: 1, guests_min: 1, guests_max: 4 } });

const TableUpdate = z
  .object({
    name: name.optional(),
    room_id: z.number().int().positive().optional(),
    guests_min: guests.optional(),
    guests_max: guests
      .nullable()
      .optional()
      .openapi({ description: "a number fixes it; for a group, null makes it follow its members again (their sum, never below guests_min)" }),
    bookable: z.boolean().optional(),
    online: z.boolean().optional(),
    table_ids: ids.optional(),
  })
  .openapi("TableUpdate");

export function toTableDto(t: Pick<TableWithMembers, "id" | "name" | "roomId" | "guestsMin" | "guestsMax" | "bookable" | "online" | "isGroup" | "memberIds">) {
  return {
    id: t.id,
    name: t.name,
    room_id: t.roomId,
    guests_min: t.guestsMin,
    guests_max: t.guestsMax,
    bookable: t.bookable,
    online: t.online,
    group: t.isGroup,
    table_ids: t.memberIds,
  };
}

function toRoomDto(room: RoomRow, tables: TableWithMembers[]) {
  return {
    id: room.id,
    property_id: room.propertyId,
    name: room.name,
    bookable: room.bookable,
    tables: tables.filter((t) => t.roomId === room.id).map(toTableDto),
  };
}


const roomRoutes = catalogRoutes({
  tag: "Rooms",
  singular: "room",
  schema: RoomSchema,
  create: RoomCreate,
  update: RoomUpdate,
  notFound: "room_not_found",
  deleteErrors: ["resource_in_use"],
});

export const roomsRouter = createRouter()
  .openapi(roomRoutes.list, async (c) => {
    const { limit, next_cursor } = c.req.valid("query");
    const db = c.get("db");
    const propertyId = c.get("property").id;
    const rows = await repo.listRooms(db, propertyId, limit, decodeCursor(next_cursor, idCursor)?.id);
    const result = page(rows, limit, (r) => ({ id: r.id }));
    const tables = await repo.tablesOfRooms(db, propertyId, result.data.map((r) => r.id));
    return c.json({ data: result.data.map((r) => toRoomDto(r, tables)), next_cursor: result.next_cursor }, 200);
  })
  .openapi(roomRoutes.get, async (c) => {
    const room = await requireRoom(c.get("db"), c.get("property").id, c.req.valid("param").id);
    const tables = await repo.tablesOfRooms(c.get("db"), room.propertyId, [room.id]);
    return c.json({ data: [toRoomDto(room, tables)] }, 200);
  })
  .openapi(roomRoutes.create, async (c) => {
    const room = await repo.insertRoom(c.get("db"), c.get("property").id, c.req.valid("json"));
    return c.json({ data: [toRoomDto(room, [])] }, 201);
  })
  .openapi(roomRoutes.update, async (c) => {
    const db = c.get("db");
    const current = await requireRoom(db, c.get("property").id, c.req.valid("param").id);
    const body = c.req.valid("json");
    const room = namesNothing(body) ? current : ((await repo.updateRoom(db, current.id, body)) ?? roomGone(current.id));
    const tables = await repo.tablesOfRooms(db, room.propertyId, [room.id]);
    return c.json({ data: [toRoomDto(room, tables)] }, 200);
  })
  .openapi(roomRoutes.remove, async (c) => {
    const db = c.get("db");
    const property = c.get("property");
    const room = await requireRoom(db, property.id, c.req.valid("param").id);
    const result = await repo.deleteRoom(db, property.id, room.id, resolveSettings(property.settings).timezone);
    if (!result.deleted) throw new ApiError("resource_in_use", `room ${room.id} is used by ${result.usedBy ? `upcoming reservation ${result.usedBy}` : "an upcoming reservation"}; move or cancel it first`);
    return c.json({ data: [room.id] }, 200);
  });

function roomGone(id: number): never {
  throw new ApiError("room_not_found", `room ${id} does not exist in this property`);
}

async function requireRoom(db: AppEnv["Variables"]["db"], propertyId: number, id: number) {
  return (await repo.getRoom(db, propertyId, id)) ?? roomGone(id);
}

function tableGone(id: number): never {
  throw new ApiError("table_not_found", `table ${id} does not exist in this property`);
}

async function requireTable(db: AppEnv["Variables"]["db"], propertyId: number, id: number) {
  return (await repo.getTable(db, propertyId, id)) ?? tableGone(id);
}

/** Members of a group: two or more distinct single tables of the group's room. */
async function checkMembers(db: AppEnv["Variables"]["db"], propertyId: number, roomId: number, memberIds: number[], selfId?: number) {
  // sorted, as reads answer them from D1
  const unique = [...new Set(memberIds)].sort((a, b) => a - b);
  if (unique.length < 2) throw invalid("table_ids", "a group needs at least two distinct member tables");
  if (selfId !== undefined && unique.includes(selfId)) throw invalid("table_ids", "a group cannot contain itself");
  const found = await repo.getTablesByIds(db, propertyId, unique);
  for (const id of unique) {
    const t = found.find((f) => f.id === id);
    if (!t) throw invalid("table_ids", `table ${id} does not exist in this property`);
    if (t.isGroup) throw invalid("table_ids", `table ${id} is itself a group`);
    if (t.roomId !== roomId) throw invalid("table_ids", `table ${id} is in another room; a group's tables share one room`);
  }
  return { unique, found };
}

const tableRoutes = catalogRoutes({
  tag: "Tables",
  singular: "table",
  schema: TableSchema,
  create: TableCreate,
  update: TableUpdate,
  notFound: "table_not_found",
  writeErrors: ["room_not_found", "resource_in_use"],
  deleteErrors: ["resource_in_use"],
});

export const tablesRouter = createRouter()
  .openapi(tableRoutes.list, async (c) => {
    const { limit, next_cursor } = c.req.valid("query");
    const rows = await repo.listTables(c.get("db"), c.get("property").id, limit, decodeCursor(next_cursor, idCursor)?.id);
    const result = page(rows, limit, (t) => ({ id: t.id }));
    return c.json({ data: result.data.map(toTableDto), next_cursor: result.next_cursor }, 200);
  })
  .openapi(tableRoutes.get, async (c) => {
    const table = await requireTable(c.get("db"), c.get("property").id, c.req.valid("param").id);
    return c.json({ data: [toTableDto(table)] }, 200);
  })
  .openapi(tableRoutes.create, async (c) => {
    const db = c.get("db");
    const propertyId = c.get("property").id;
    const body = c.req.valid("json");
    await requireRoom(db, propertyId, body.room_id);
    const isGroup = body.group ?? false;
    let memberIds: number[] = [];
    let guestsMax = body.guests_max;
    if (isGroup) {
      const members = await checkMembers(db, propertyId, body.room_id, body.table_ids ?? []);
      memberIds = members.unique;
      guestsMax ??= Math.min(MAX_GUESTS, members.found.reduce((sum, t) => sum + t.guestsMax, 0));
    } else if (body.table_ids?.length) {
      throw invalid("table_ids", "only a group table has member tables; set group: true");
    }
    if (guestsMax === undefined) throw invalid("guests_max", "guests_max is required for a single table");
    const guestsMin = body.guests_min ?? 1;
    if (guestsMin > guestsMax) throw invalid("guests_min", "guests_min must not exceed guests_max");
    const table = await repo.insertTable(
      db,
      propertyId,
      {
        name: body.name,
        roomId: body.room_id,
        guestsMin,
        guestsMax,
        // a group given no guests_max follows its members (triggers keep it their sum)
        guestsMaxAuto: isGroup && body.guests_max === undefined,
        bookable: body.bookable ?? true,
        online: body.online ?? true,
        isGroup,
      },
      memberIds,
    );
    return c.json({ data: [toTableDto({ ...table, memberIds })] }, 201);
  })
  .openapi(tableRoutes.update, async (c) => {
    const db = c.get("db");
    const propertyId = c.get("property").id;
    const current = await requireTable(db, propertyId, c.req.valid("param").id);
    const body = c.req.valid("json");
    if (namesNothing(body)) return c.json({ data: [toTableDto(current)] }, 200);
    const roomId = body.room_id ?? current.roomId;
    if (roomId !== current.roomId) {
      await requireRoom(db, propertyId, roomId);
      const groups = await repo.groupsContaining(db, current.id);
      if (groups.length) throw new ApiError("resource_in_use", `table ${current.id} belongs to group ${groups.join(", ")}; a group's tables share one room`);
    }
    let memberIds: number[] | undefined;
    if (current.isGroup && (body.table_ids !== undefined || roomId !== current.roomId)) {
      memberIds = (await checkMembers(db, propertyId, roomId, body.table_ids ?? current.memberIds, current.id)).unique;
    } else if (!current.isGroup && body.table_ids?.length) {
      throw invalid("table_ids", "only a group table has member tables");
    }
    if (body.guests_max === null && !current.isGroup) throw invalid("guests_max", "only a group's seats can follow its members; give a number");
    const guestsMin = body.guests_min ?? current.guestsMin;
    const guestsMax = body.guests_max ?? current.guestsMax;
    if (guestsMin > guestsMax && body.guests_max !== null) throw invalid("guests_min", "guests_min must not exceed guests_max");
    const regrouped = roomId !== current.roomId || (memberIds !== undefined && memberIds.join() !== current.memberIds.join());
    const result = await repo.updateTable(
      db,
      current.id,
      {
        ...(body.name !== undefined && { name: body.name }),
        roomId,
        guestsMin,
        // a number fixes a group's seats; null lets them follow its members again (a trigger sums them)
        ...(typeof body.guests_max === "number" && { guestsMax, guestsMaxAuto: false }),
        ...(body.guests_max === null && { guestsMaxAuto: true }),
        ...(guestsMin > guestsMax && body.guests_max === null && { guestsMax: guestsMin }),
        ...(body.bookable !== undefined && { bookable: body.bookable }),
        ...(body.online !== undefined && { online: body.online }),
      },
      memberIds,
      regrouped ? { propertyId, timeZone: resolveSettings(c.get("property").settings).timezone } : undefined,
    );
    if ("usedBy" in result) {
      const by = result.usedBy ? `upcoming reservation ${result.usedBy}` : "an upcoming reservation";
      throw new ApiError("resource_in_use", `table ${current.id} is held by ${by}; its members or room cannot change until it is moved or cancelled`);
    }
    let table = result.table ?? tableGone(current.id);
    // A group's seats may have followed its new members after the row was written: read it back.
    if (current.isGroup) table = (await repo.getTable(db, propertyId, current.id)) ?? tableGone(current.id);
    return c.json({ data: [toTableDto({ ...table, memberIds: memberIds ?? current.memberIds })] }, 200);
  })
  .openapi(tableRoutes.remove, async (c) => {
    const db = c.get("db");
    const property = c.get("property");
    const table = await requireTable(db, property.id, c.req.valid("param").id);
    const groups = await repo.groupsContaining(db, table.id);
    if (groups.length) throw new ApiError("resource_in_use", `table ${table.id} belongs to group ${groups.join(", ")}; change or delete the group first`);
    const result = await repo.deleteTable(db, property.id, table.id, resolveSettings(property.settings).timezone);
    if (!result.deleted) throw new ApiError("resource_in_use", `table ${table.id} is held by ${result.usedBy ? `upcoming reservation ${result.usedBy}` : "an upcoming reservation"}; move or cancel it first`);
    return c.json({ data: [table.id] }, 200);
  });

