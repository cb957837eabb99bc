/**
 * Who on the waiting list is offered a freed table, and at what time. Pure: the engine over the
 * day's catalog and holds says whether a party fits now; the party that asked first and fits at
 * some start of its range is the one, at the earliest such start.
 */
import type { Channel } from "../../shared/schemas";
import type { Availability } from "../availability/engine";

export interface WaitingParty {
  id: number;
  channel: Channel;
  startDate: string;
  /** the earliest start the party takes */
  startMin: number;
  endMin: number;
  /** the latest start the party takes; null: only startMin */
  waitUntilMin: number | null;
  pax: number;
  serviceId: number | null;
  /** whether the party can be emailed (an address, and emails not turned off) */
  reachable: boolean;
}

/** A party and the start it is offered. */
export interface Offered {
  party: WaitingParty;
  start: number;
}

/**
 * The first party (by when it asked) that is reachable and for whom a table is free now at a
 * start of its range still to come, with the earliest such start; `ignoring`: a reservation whose
 * holds no longer count (just cancelled).
 */
export function nextParty(
  engine: Availability,
  waiting: WaitingParty[],
  ignoring?: number,
): Offered | undefined {
  for (const party of [...waiting].sort((a, b) => a.id - b.id)) {
    if (!party.reachable) continue;
    const start = rangeStarts(engine, party).find((s) => fits(engine, party, s, ignoring));
    if (start !== undefined) return { party, start };
  }
  return undefined;
}

/** The starts of the party's range on its service's grid, earliest first, none past. */
export function rangeStarts(
  engine: Availability,
  w: Pick<WaitingParty, "startMin" | "waitUntilMin" | "serviceId">,
): number[] {
  const service = engine.catalog.services.find((s) => s.id === w.serviceId);
  const step = service?.slotInterval ?? engine.catalog.settings.slot_interval;
  const last = w.waitUntilMin ?? w.startMin;
  const out: number[] = [];
  for (let s = w.startMin; s <= last; s += step) if (s >= engine.now) out.push(s);
  return out;
}

function fits(engine: Availability, w: WaitingParty, start: number, ignoring: number | undefined): boolean {
  // Online guests sit at online tables only, as when they asked; staff's waiting entries anywhere.
  const mode = w.channel === "PLATFORM_ADMIN" ? "staff" : "online";
  const stay = w.endMin - w.startMin;
  return engine.decideTables({
    date: w.startDate,
    start,
    pax: w.pax,
    stay,
    mode,
    serviceId: w.serviceId ?? undefined,
    ignoreReservation: ignoring,
  }).ok;
}
