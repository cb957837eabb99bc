/** Query-string fields: everything arrives as text and is checked before it is converted. */
import { z } from "@hono/zod-openapi";
import { dateString, hourString } from "../../shared/schemas";

// shared/ schemas were built before the OpenAPI extension loaded: a pipe made here can carry .openapi().
/** A calendar date YYYY-MM-DD. */
export const dateField = z.string().pipe(dateString);
/** A time HH:MM[:SS], normalised to HH:MM:SS. */
export const hourField = z.string().pipe(hourString);

/** true/false/1/0: flags such as out_of_order are documented as integers with a boolean meaning. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"], { message: "expected true, false, 1 or 0" })
  .transform((v) => v === "true" || v === "1");

/** A positive integer id in plain digits. */
export const queryId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "expected a positive integer id")
  .transform(Number);

/** A party size 1..1000 in plain digits. */
export const queryPax = z
  .string()
  .regex(/^\d{1,4}$/, { message: "expected a party size 1..1000", abort: true })
  .transform(Number)
  .pipe(z.number().int().min(1).max(1000));

/**
 * A repeated key (`status[]=A&status[]=B`) or a single value, as a list without repeats.
 * At most `max` values: D1 binds at most 100 parameters per statement.
 */
export const queryList = <T extends z.ZodType>(item: T, max: number) =>
  z
    .union([item, z.array(item)])
    .transform((v) => [...new Set((Array.isArray(v) ? v : [v]) as z.output<T>[])])
    .refine((list) => list.length <= max, `at most ${max} different values`);
