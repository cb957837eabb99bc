/**
 * The catalog's rules beyond what zod checks: a table's seats and a group's members, a
 * service's party sizes and dates, a closure's times and the records it names, and the words of
 * the 409 that refuses to remove what an upcoming reservation still uses.
 */
import type { Db } from "../env";
import { ApiError, invalidField as invalid } from "../errors";
import { notFound } from "../lib/crud";
import type { ClosureFields, TableFields, TableWithMembers } from "./catalog.repo";
import * as repo from "./catalog.repo";
import { MAX_GUESTS, type TableCreateBody, type TableUpdateBody } from "./tables.schemas";

/** The property's room, or its 404 (a table's room must exist). */
export async function requireRoom(db: Db, propertyId: number, id: number) {
  const room = await repo.getRoom(db, propertyId, id);
  if (!room) throw notFound("room_not_found", "room", id);
  return room;
}

/** "upcoming reservation 12", or a general phrase when the guard could not tell which. */
export function upcomingReservation(usedBy: number | undefined): string {
  return usedBy ? `upcoming reservation ${usedBy}` : "an upcoming reservation";
}

/** The 409 of a deletion an upcoming reservation refused. */
export function inUse(singular: string, id: number, usedBy: number | undefined): ApiError {
  return new ApiError(
    "resource_in_use",
    `${singular} ${id} is used by ${upcomingReservation(usedBy)}; move or cancel it first`,
  );
}

/** Members of a group: two or more distinct single tables of the group's room. */
export async function checkMembers(
  db: Db,
  propertyId: number,
  roomId: number,
  memberIds: number[],
  selfId?: number,
) {
  // sorted, as reads answer them from D1
  const unique = [...new Set(memberIds)].sort((a, b) => a - b);
  if (unique.length < 2) throw invalid("table_ids", "a group needs at least two distinct member tables");
  if (selfId !== undefined && unique.includes(selfId))
    throw invalid("table_ids", "a group cannot contain itself");
  const found = await repo.getTablesByIds(db, propertyId, unique);
  for (const id of unique) {
    const t = found.find((f) => f.id === id);
    if (!t) throw invalid("table_ids", `table ${id} does not exist in this property`);
    if (t.isGroup) throw invalid("table_ids", `table ${id} is itself a group`);
    if (t.roomId !== roomId)
      throw invalid("table_ids", `table ${id} is in another room; a group's tables share one room`);
  }
  return { unique, found };
}

/** A new table's row and members; a group given no guests_max seats the sum of its members. */
export async function newTable(
  db: Db,
  propertyId: number,
  body: TableCreateBody,
): Promise<{ fields: TableFields; memberIds: number[] }> {
  const isGroup = body.group ?? false;
  let memberIds: number[] = [];
  let guestsMax = body.guests_max;
  if (isGroup) {
    const members = await checkMembers(db, propertyId, body.room_id, body.table_ids ?? []);
    memberIds = members.unique;
    guestsMax ??= Math.min(
      MAX_GUESTS,
      members.found.reduce((sum, t) => sum + t.guestsMax, 0),
    );
  } else if (body.table_ids?.length) {
    throw invalid("table_ids", "only a group table has member tables; set group: true");
  }
  if (guestsMax === undefined) throw invalid("guests_max", "guests_max is required for a single table");
  const guestsMin = body.guests_min ?? 1;
  if (guestsMin > guestsMax) throw invalid("guests_min", "guests_min must not exceed guests_max");
  // a group given no guests_max follows its members (triggers keep it their sum)
  const guestsMaxAuto = isGroup && body.guests_max === undefined;
  const fields = {
    name: body.name,
    roomId: body.room_id,
    guestsMin,
    guestsMax,
    guestsMaxAuto,
    bookable: body.bookable ?? true,
    online: body.online ?? true,
    isGroup,
    layout: body.layout ?? null,
  };
  return { fields, memberIds };
}

/** A table's change, decided before it is written. */
export interface TableChange {
  fields: Partial<TableFields>;
  /** a group's new members; undefined: they stay */
  memberIds: number[] | undefined;
  /** the room or the members change: upcoming reservations' holds name the old ones */
  regrouped: boolean;
}

/** A table may change room only to a room of the property, and not while it is a group's member. */
async function checkMove(db: Db, propertyId: number, current: TableWithMembers, roomId: number) {
  if (roomId === current.roomId) return;
  await requireRoom(db, propertyId, roomId);
  const groups = await repo.groupsContaining(db, current.id);
  if (groups.length)
    throw new ApiError(
      "resource_in_use",
      `table ${current.id} belongs to group ${groups.join(", ")}; a group's tables share one room`,
    );
}

/** A group's members after the change (checked again when its room changes); undefined: they stay. */
async function membersAfter(
  db: Db,
  propertyId: number,
  current: TableWithMembers,
  body: TableUpdateBody,
  roomId: number,
) {
  if (current.isGroup && (body.table_ids !== undefined || roomId !== current.roomId)) {
    return (await checkMembers(db, propertyId, roomId, body.table_ids ?? current.memberIds, current.id))
      .unique;
  }
  if (!current.isGroup && body.table_ids?.length)
    throw invalid("table_ids", "only a group table has member tables");
  return undefined;
}

/** A number fixes a table's seats; null lets a group's follow its members again (a trigger sums them). */
function seatsAfter(current: TableWithMembers, body: TableUpdateBody): Partial<TableFields> {
  if (body.guests_max === null && !current.isGroup)
    throw invalid("guests_max", "only a group's seats can follow its members; give a number");
  const guestsMin = body.guests_min ?? current.guestsMin;
  const guestsMax = body.guests_max ?? current.guestsMax;
  if (guestsMin > guestsMax && body.guests_max !== null)
    throw invalid("guests_min", "guests_min must not exceed guests_max");
  return {
    guestsMin,
    ...(typeof body.guests_max === "number" && { guestsMax, guestsMaxAuto: false }),
    ...(body.guests_max === null && { guestsMaxAuto: true }),
    ...(guestsMin > guestsMax && body.guests_max === null && { guestsMax: guestsMin }),
  };
}

export async function tableChange(
  db: Db,
  propertyId: number,
  current: TableWithMembers,
  body: TableUpdateBody,
): Promise<TableChange> {
  const roomId = body.room_id ?? current.roomId;
  await checkMove(db, propertyId, current, roomId);
  const memberIds = await membersAfter(db, propertyId, current, body, roomId);
  const seats = seatsAfter(current, body);
  const fields = {
    ...(body.name !== undefined && { name: body.name }),
    roomId,
    ...seats,
    ...(body.bookable !== undefined && { bookable: body.bookable }),
    ...(body.online !== undefined && { online: body.online }),
    ...(body.layout !== undefined && { layout: body.layout }),
  };
  const regrouped =
    roomId !== current.roomId || (memberIds !== undefined && memberIds.join() !== current.memberIds.join());
  return { fields, memberIds, regrouped };
}

/** A table that is a group's member goes only once the group lets it go. */
export async function checkTableRemovable(db: Db, tableId: number) {
  const groups = await repo.groupsContaining(db, tableId);
  if (groups.length)
    throw new ApiError(
      "resource_in_use",
      `table ${tableId} belongs to group ${groups.join(", ")}; change or delete the group first`,
    );
}

// An end_hour earlier than start_hour is a service past midnight: nothing to refuse.
export function checkService(s: {
  paxMin: number;
  paxMax: number | null;
  validFrom: string | null;
  validTo: string | null;
}) {
  if (s.paxMax !== null && s.paxMax < s.paxMin) throw invalid("pax_max", "pax_max must not be below pax_min");
  if (s.validFrom && s.validTo && s.validTo < s.validFrom)
    throw invalid("valid_to", "valid_to must not be before valid_from");
}

/** Cross-field rules and references: the ids named must exist in this property. */
export async function checkClosure(db: Db, propertyId: number, c: ClosureFields) {
  if (c.endDate < c.startDate) throw invalid("end_date", "end_date must not be before start_date");
  if ((c.startHour == null) !== (c.endHour == null))
    throw invalid("end_hour", "give both start_hour and end_hour, or neither for whole days");
  // An end_hour not after start_hour runs past midnight: it ends on a later date.
  if (c.startHour && c.endHour && c.endHour <= c.startHour && c.endDate <= c.startDate) {
    throw invalid(
      "end_hour",
      "end_hour must be after start_hour, or, past midnight, end on an end_date after start_date",
    );
  }
  const checks = [
    ["room_ids", "room", c.roomIds, repo.getRoomsByIds],
    ["table_ids", "table", c.tableIds, repo.getTablesByIds],
    ["service_ids", "service", c.serviceIds, repo.getServicesByIds],
  ] as const;
  for (const [path, noun, ids, find] of checks) {
    if (!ids?.length) continue;
    const found = new Set((await find(db, propertyId, ids)).map((r) => r.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid(path, `${noun} ${missing} does not exist in this property`);
  }
}
