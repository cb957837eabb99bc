/** Cursor pagination: limit 1..200, default 50; the cursor is opaque, never an offset. */
import { z } from "@hono/zod-openapi";
import { ApiError } from "../errors";
import { base64url } from "./crypto";

export const paginationQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .openapi({
      param: { name: "limit", in: "query" },
      description: "elements per page (1..200, default 50)",
      example: 50,
    }),
  next_cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({
      param: { name: "next_cursor", in: "query" },
      description: "the `next_cursor` of the previous page",
    }),
};

export const nextCursorSchema = z
  .string()
  .nullable()
  .openapi({ description: "pass as `next_cursor` for the next page; null on the last page" });

/** The cursor of lists ordered by id. */
export const idCursor = z.object({ id: z.number().int() });

export function encodeCursor(value: Record<string, string | number>): string {
  return base64url(new TextEncoder().encode(JSON.stringify(value)));
}

/** Decodes a cursor made by encodeCursor; anything else is a 400 on the next_cursor field. */
export function decodeCursor<T extends Record<string, string | number>>(
  cursor: string | undefined,
  shape: z.ZodType<T>,
): T | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const json = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    return shape.parse(JSON.parse(json));
  } catch {
    throw new ApiError("invalid_input_data", "next_cursor is not a cursor this API returned", {
      errors: [{ path: "next_cursor", message: "unknown cursor" }],
    });
  }
}

/** Takes limit + 1 rows; answers the page and the cursor of the row after it. */
export function page<T>(rows: T[], limit: number, cursorOf: (row: T) => Record<string, string | number>) {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, next_cursor: hasMore && last ? encodeCursor(cursorOf(last)) : null };
}
