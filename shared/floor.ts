/**
 * Where a table stands on the room's floor plan, as the owner placed it: a box in plan units
 * (the room is FLOOR_WIDTH x FLOOR_HEIGHT), its shape and its rotation in degrees. Shared by the
 * Worker (validation, storage) and the console (drawing, dragging).
 */
import { z } from "zod";

export const FLOOR_WIDTH = 1000;
export const FLOOR_HEIGHT = 700;
export const TABLE_SHAPES = ["rect", "round"] as const;
export type TableShape = (typeof TABLE_SHAPES)[number];

export const tableLayoutSchema = z
  .object({
    x: z.number().int().min(0).max(FLOOR_WIDTH),
    y: z.number().int().min(0).max(FLOOR_HEIGHT),
    width: z.number().int().min(20).max(400),
    height: z.number().int().min(20).max(400),
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
  });

export type TableLayout = z.infer<typeof tableLayoutSchema>;
