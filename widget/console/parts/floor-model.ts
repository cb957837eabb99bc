/**
 * The floor plan's rules, pure: each table's state now (free, reserved soon, seated, late) from
 * the day's reservations, a new table's first place, and a move or resize kept on the plan.
 */
import { FLOOR_HEIGHT, FLOOR_WIDTH, TABLE_SIZE, type TableLayout } from "../../../shared/floor.js";
import type { ReservationListItem as Reservation } from "../api.js";
import { minutesOf } from "./timeline-model.js";

export type TableState = "free" | "soon" | "seated" | "late";

/** How far ahead a booked table counts as reserved soon. */
export const SOON_MINUTES = 60;

export interface TableNow {
  state: TableState;
  /** the party seated, late or due there */
  reservation: Reservation | undefined;
}

const ARRIVING = new Set(["ACCEPTED", "CONFIRMED", "PREPAY"]);

/** Each table's state at `hour` (HH:MM:SS, the restaurant's time) on the day of `list`. */
export function tableStates(list: Reservation[], hour: string): Map<number, TableNow> {
  const now = minutesOf(hour);
  const states = new Map<number, TableNow>();
  const rank: Record<TableState, number> = { free: 0, soon: 1, late: 2, seated: 3 };
  for (const r of list) {
    const state = stateOf(r, now);
    if (!state) continue;
    for (const t of r.tables) {
      const known = states.get(t.id);
      if (!known || rank[state] > rank[known.state]) states.set(t.id, { state, reservation: r });
    }
  }
  return states;
}

function stateOf(r: Reservation, now: number): TableState | undefined {
  if (r.checkin_date && !r.checkout_date && r.status !== "CANCELLED") return "seated";
  if (r.checkin_date || !ARRIVING.has(r.status)) return undefined;
  const start = minutesOf(r.start_hour);
  if (start <= now) return minutesOf(r.end_date.split("T")[1] ?? r.start_hour) > now ? "late" : undefined;
  return start - now <= SOON_MINUTES ? "soon" : undefined;
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(v)));

/** A layout kept whole on the plan: its size within bounds, then its corner so it fits. */
export function keepOnPlan(l: TableLayout): TableLayout {
  const width = clamp(l.width, TABLE_SIZE.min, TABLE_SIZE.max);
  const height = clamp(l.height, TABLE_SIZE.min, TABLE_SIZE.max);
  return {
    ...l,
    width,
    height,
    x: clamp(l.x, 0, FLOOR_WIDTH - width),
    y: clamp(l.y, 0, FLOOR_HEIGHT - height),
    rotation: ((Math.round(l.rotation) % 360) + 360) % 360,
  };
}

/** Where the n-th table not yet placed first goes: a grid from the top left, sized by its seats. */
export function firstPlace(n: number, seats: number): TableLayout {
  const side = seats <= 2 ? 60 : seats <= 4 ? 80 : 110;
  const perRow = 8;
  return keepOnPlan({
    x: 20 + (n % perRow) * 120,
    y: 20 + Math.floor(n / perRow) * 130,
    width: side,
    height: side,
    shape: seats <= 2 ? "round" : "rect",
    rotation: 0,
  });
}

/** What an arrow key does to a table being arranged: a step of 10 units (1 with Shift). */
export function nudge(l: TableLayout, key: string, fine: boolean): TableLayout | undefined {
  const step = fine ? 1 : 10;
  const moves: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const move = moves[key];
  if (move) return keepOnPlan({ ...l, x: l.x + move[0], y: l.y + move[1] });
  if (key === "+" || key === "=") return keepOnPlan({ ...l, width: l.width + step, height: l.height + step });
  if (key === "-") return keepOnPlan({ ...l, width: l.width - step, height: l.height - step });
  if (key === "r" || key === "R")
    return keepOnPlan({ ...l, rotation: l.rotation + (key === "R" ? -15 : 15) });
  if (key === "s") return { ...l, shape: l.shape === "rect" ? "round" : "rect" };
  return undefined;
}
