/**
 * Where a table stands on the room's floor plan, as the owner placed it: a box in plan units
 * (the room is FLOOR_WIDTH x FLOOR_HEIGHT, the origin top left), its shape and its rotation in
 * degrees clockwise. Shared by the Worker (validation, storage) and the console (drawing,
 * dragging); no imports, so the console's floor plan carries no validation library.
 */
export const FLOOR_WIDTH = 1000;
export const FLOOR_HEIGHT = 700;
export const TABLE_SIZE = { min: 20, max: 400 } as const;
export const TABLE_SHAPES = ["rect", "round"] as const;
export type TableShape = (typeof TABLE_SHAPES)[number];

export interface TableLayout {
  x: number;
  y: number;
  width: number;
  height: number;
  shape: TableShape;
  rotation: number;
}
