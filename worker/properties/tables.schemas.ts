/** A table's API shape (also in the availability answers), its create and update bodies, and its mapper. */
import { z } from "@hono/zod-openapi";
import { FLOOR_HEIGHT, FLOOR_WIDTH, TABLE_SHAPES, TABLE_SIZE } from "../../shared/floor";
import { lineField } from "../../shared/schemas";
import type { TableWithMembers } from "./catalog.repo";

/** A table on its room's floor plan (1000 x 700 units, the origin top left): the owner places it in the console. */
const size = z.number().int().min(TABLE_SIZE.min).max(TABLE_SIZE.max);
const TableLayout = z
  .object({
    x: z.number().int().min(0).max(FLOOR_WIDTH),
    y: z.number().int().min(0).max(FLOOR_HEIGHT),
    width: size,
    height: size,
    shape: z.enum(TABLE_SHAPES),
    rotation: z.number().int().min(0).max(359),
  })
  .refine((l) => l.x + l.width <= FLOOR_WIDTH, {
    message: "the table must fit the plan's width",
    path: ["width"],
  })
  .refine((l) => l.y + l.height <= FLOOR_HEIGHT, {
    message: "the table must fit the plan's height",
    path: ["height"],
  })
  .openapi("TableLayout", {
    description:
      "x, y: the top left corner; width, height: its size (20 to 400); shape: rect or round; rotation: degrees clockwise (0 to 359). The table fits the plan.",
    example: { x: 120, y: 80, width: 80, height: 80, shape: "round", rotation: 0 },
  });
const layoutField = TableLayout.nullable()
  .optional()
  .openapi({ description: "where it stands on the floor plan; null takes it off the plan" });

export const TableSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    room_id: z.number().int(),
    guests_min: z.number().int(),
    guests_max: z.number().int(),
    bookable: z.boolean(),
    online: z
      .boolean()
      .openapi({ description: "true: bookable online (booking engine, search engine); false: staff only" }),
    group: z.boolean().openapi({ description: "a combination of two or more tables of one room" }),
    table_ids: z
      .array(z.number().int())
      .openapi({ description: "for a group, its member tables; empty otherwise" }),
    layout: TableLayout.nullable().openapi({
      description: "where the table stands on its room's floor plan; null: not placed yet",
    }),
  })
  .openapi("Table");

/** The most guests a table seats, a group given no guests_max included. */
export const MAX_GUESTS = 1000;
const name = lineField(100).min(1);
const guests = z.number().int().min(1).max(MAX_GUESTS);
const ids = z.array(z.number().int().positive()).max(100);

export const TableCreate = z
  .object({
    name,
    room_id: z.number().int().positive(),
    guests_min: guests.optional().openapi({ description: "default 1" }),
    guests_max: guests.optional().openapi({
      description:
        "required for a single table; a group without it seats the sum of its members, and follows them when they change",
    }),
    bookable: z.boolean().optional(),
    online: z.boolean().optional(),
    group: z.boolean().optional(),
    table_ids: ids
      .optional()
      .openapi({ description: "members of a group: at least two tables of the same room" }),
    layout: layoutField,
  })
  .openapi("TableCreate", { example: { name: "T1", room_id: 1, guests_min: 1, guests_max: 4 } });

export const TableUpdate = z
  .object({
    name: name.optional(),
    room_id: z.number().int().positive().optional(),
    guests_min: guests.optional(),
    guests_max: guests.nullable().optional().openapi({
      description:
        "a number fixes it; for a group, null makes it follow its members again (their sum, never below guests_min)",
    }),
    bookable: z.boolean().optional(),
    online: z.boolean().optional(),
    table_ids: ids.optional(),
    layout: layoutField,
  })
  .openapi("TableUpdate");

export type Table = z.infer<typeof TableSchema>;
export type TableCreateBody = z.infer<typeof TableCreate>;
export type TableUpdateBody = z.infer<typeof TableUpdate>;

/** A table's fields without its place on the floor plan (the availability answers, which the engine's catalog serves). */
export function toTableCore(
  t: Pick<
    TableWithMembers,
    "id" | "name" | "roomId" | "guestsMin" | "guestsMax" | "bookable" | "online" | "isGroup" | "memberIds"
  >,
): Omit<Table, "layout"> {
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

export function toTableDto(t: TableWithMembers): Table {
  return { ...toTableCore(t), layout: t.layout ?? null };
}
