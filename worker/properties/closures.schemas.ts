/** A closure's API shape, its create and update bodies, and the mappings between the API's names and the row's. */
import { z } from "@hono/zod-openapi";
import { dateString, hourString, lineField } from "../../shared/schemas";
import type { ClosureFields, ClosureRow } from "./catalog.repo";

// shared/ schemas are plain zod (made before the OpenAPI extension): no .openapi() on them.
const hour = hourString;
const date = dateString;
/** A closure's end: any time of day, or "24:00" for the end of the day (its last minute closed too). */
const endHour = z
  .string()
  .regex(
    /^(([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?|24:00(:00)?)$/,
    "expected a time HH:MM:SS, or 24:00 for the end of the day",
  )
  .transform((v) => (v.length === 5 ? `${v}:00` : v));

export const ClosureSchema = z
  .object({
    id: z.number().int(),
    start_date: z.string(),
    end_date: z.string(),
    start_hour: z.string().nullable(),
    end_hour: z.string().nullable().openapi({
      description:
        "exclusive; 24:00:00 is the end of the day; not after start_hour: the hour of the next date (past midnight)",
    }),
    room_ids: z.array(z.number().int()).nullable().openapi({ description: "null: every room" }),
    table_ids: z.array(z.number().int()).nullable().openapi({ description: "null: every table" }),
    service_ids: z.array(z.number().int()).nullable().openapi({ description: "null: every service" }),
    reason: z.string().nullable(),
  })
  .openapi("Closure");

const idList = z.array(z.number().int().positive()).min(1).max(200).nullable().optional();
const closureFields = {
  start_hour: hour
    .nullable()
    .optional()
    .openapi({
      description:
        "with end_hour: close only [start_hour, end_hour) of each date from start_date to end_date; both absent: whole days. " +
        "An end_hour not after start_hour runs past midnight: each night from start_hour to end_hour of the next date, " +
        "start_date naming the first night's date and end_date the last night's end (23:00 on 2030-12-31 to 01:00: start_date 2030-12-31, end_date 2031-01-01)",
    }),
  end_hour: endHour
    .nullable()
    .optional()
    .openapi({ description: 'exclusive; "24:00" closes to the end of the day, its last minute included' }),
  room_ids: idList,
  table_ids: idList,
  service_ids: idList,
  reason: lineField(500).nullable().optional(),
};
export const ClosureCreate = z
  .object({
    start_date: date,
    end_date: date.optional().openapi({ description: "default: start_date" }),
    ...closureFields,
  })
  .openapi("ClosureCreate", {
    example: { start_date: "2026-12-24", end_date: "2026-12-26", reason: "Christmas" },
  });
export const ClosureUpdate = z
  .object({ start_date: date.optional(), end_date: date.optional(), ...closureFields })
  .openapi("ClosureUpdate");

export type Closure = z.infer<typeof ClosureSchema>;
export type ClosureCreateBody = z.infer<typeof ClosureCreate>;
export type ClosureUpdateBody = z.infer<typeof ClosureUpdate>;

export function toClosureDto(c: ClosureRow): Closure {
  return {
    id: c.id,
    start_date: c.startDate,
    end_date: c.endDate,
    start_hour: c.startHour,
    end_hour: c.endHour,
    room_ids: c.roomIds ?? null,
    table_ids: c.tableIds ?? null,
    service_ids: c.serviceIds ?? null,
    reason: c.reason,
  };
}

/** The row fields a body names; id lists without repeats. */
export function closureFieldsOf(b: ClosureUpdateBody): Partial<ClosureFields> {
  const out: Partial<ClosureFields> = {};
  if (b.start_date !== undefined) out.startDate = b.start_date;
  if (b.end_date !== undefined) out.endDate = b.end_date;
  if (b.start_hour !== undefined) out.startHour = b.start_hour;
  if (b.end_hour !== undefined) out.endHour = b.end_hour;
  if (b.room_ids !== undefined) out.roomIds = b.room_ids && [...new Set(b.room_ids)];
  if (b.table_ids !== undefined) out.tableIds = b.table_ids && [...new Set(b.table_ids)];
  if (b.service_ids !== undefined) out.serviceIds = b.service_ids && [...new Set(b.service_ids)];
  if (b.reason !== undefined) out.reason = b.reason;
  return out;
}
