/** What tables add to the catalog router: a group's members and seats, and the guard on regrouping. */
import { resolveSettings } from "../../shared/schemas";
import { ApiError } from "../errors";
import type { CatalogResource, CatalogScope } from "../lib/crud";
import type { TableWithMembers } from "./catalog.repo";
import * as repo from "./catalog.repo";
import {
  checkTableRemovable,
  newTable,
  requireRoom,
  tableChange,
  upcomingReservation,
} from "./catalog.rules";
import { type Table, type TableCreateBody, type TableUpdateBody, toTableDto } from "./tables.schemas";

async function createTable({ db, property }: CatalogScope, body: TableCreateBody): Promise<TableWithMembers> {
  await requireRoom(db, property.id, body.room_id);
  const { fields, memberIds } = await newTable(db, property.id, body);
  const table = await repo.insertTable(db, property.id, fields, memberIds);
  return { ...table, memberIds };
}

/** A change of room or members waits until no upcoming reservation holds the table. */
async function updateTable({ db, property }: CatalogScope, current: TableWithMembers, body: TableUpdateBody) {
  const change = await tableChange(db, property.id, current, body);
  const guard = change.regrouped
    ? { propertyId: property.id, timeZone: resolveSettings(property.settings).timezone }
    : undefined;
  const result = await repo.updateTable(db, current.id, change.fields, change.memberIds, guard);
  if ("usedBy" in result) {
    const by = upcomingReservation(result.usedBy);
    throw new ApiError(
      "resource_in_use",
      `table ${current.id} is held by ${by}; its members or room cannot change until it is moved or cancelled`,
    );
  }
  if (!result.table) return undefined;
  // A group's seats may have followed its new members after the row was written: read it back.
  const table = current.isGroup ? await repo.getTable(db, property.id, current.id) : result.table;
  return table && { ...table, memberIds: change.memberIds ?? current.memberIds };
}

async function removeTable({ db, property }: CatalogScope, table: TableWithMembers) {
  await checkTableRemovable(db, table.id);
  const result = await repo.deleteTable(
    db,
    property.id,
    table.id,
    resolveSettings(property.settings).timezone,
  );
  if (!result.deleted)
    throw new ApiError(
      "resource_in_use",
      `table ${table.id} is held by ${upcomingReservation(result.usedBy)}; move or cancel it first`,
    );
}

export const tables: CatalogResource<TableWithMembers, TableCreateBody, TableUpdateBody, Table> = {
  list: ({ db, property }, limit, afterId) => repo.listTables(db, property.id, limit, afterId),
  get: ({ db, property }, id) => repo.getTable(db, property.id, id),
  create: createTable,
  update: updateTable,
  remove: removeTable,
  toDto: toTableDto,
};
