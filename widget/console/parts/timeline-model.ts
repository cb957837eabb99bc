/**
 * The timeline's geometry, pure: which holds sit on which table, from when to when (in minutes of
 * the day, past midnight beyond 1440), and the time span the columns cover.
 */
import type { ReservationListItem, Service, Table } from "../api.js";

export interface Hold {
  reservation: ReservationListItem;
  tableId: number;
  start: number;
  end: number;
}

export const STEP = 15;

export const minutesOf = (hour: string) => {
  const [h = 0, m = 0] = hour.split(":").map(Number);
  return h * 60 + m;
};

export const hourOf = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00`;
};

/** Statuses that hold their tables on the timeline. */
const SHOWN = new Set(["ACCEPTED", "CONFIRMED", "PREPAY", "OUTOFORDER"]);

/** Every table hold of the day's reservations (one per table a reservation holds). */
export function holdsOf(list: ReservationListItem[], date: string): Hold[] {
  const holds: Hold[] = [];
  for (const r of list) {
    if (!SHOWN.has(r.status) || r.checkout_date) continue;
    const start = minutesOf(r.start_hour);
    const [endDay = date, endHour = r.start_hour] = r.end_date.split("T");
    let end = minutesOf(endHour) + (endDay > date ? 1440 : 0);
    if (end <= start) end = start + STEP;
    for (const t of r.tables) holds.push({ reservation: r, tableId: t.id, start, end });
  }
  return holds;
}

/** The columns' span: the day's services and holds, whole hours. */
export function spanOf(holds: Hold[], services: Service[]): { from: number; to: number } {
  const starts = [...services.map((s) => minutesOf(s.start_hour)), ...holds.map((h) => h.start)];
  const ends = [
    ...services.map((s) => minutesOf(s.end_hour) + (s.end_hour < s.start_hour ? 1440 : 0) + 120),
    ...holds.map((h) => h.end),
  ];
  if (!starts.length) return { from: 11 * 60, to: 23 * 60 };
  const from = Math.floor(Math.min(...starts) / 60) * 60;
  const to = Math.ceil(Math.max(...ends, from + 60) / 60) * 60;
  return { from, to: Math.min(to, from + 24 * 60) };
}

/** Tables by room, in the catalog's order; groups after their room's single tables. */
export function rowsByRoom(tables: Table[], rooms: { id: number; name: string }[]) {
  return rooms
    .map((room) => ({
      room,
      tables: tables.filter((t) => t.room_id === room.id).sort((a, b) => Number(a.group) - Number(b.group)),
    }))
    .filter((g) => g.tables.length);
}

/** A table at minute `at`: held until when (a party on it or due), else free until its next hold. */
export function tableAt(
  holds: Hold[],
  tableId: number,
  at: number,
): { heldUntil?: number; freeUntil?: number } {
  const mine = holds.filter((h) => h.tableId === tableId);
  const current = mine.find((h) => h.start <= at && at < h.end);
  if (current) return { heldUntil: current.end };
  const next = Math.min(...mine.filter((h) => h.start > at).map((h) => h.start));
  return Number.isFinite(next) ? { freeUntil: next } : {};
}
