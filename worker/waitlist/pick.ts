/**
 * Who on the waiting list is offered a freed table. Pure: the engine over the
 * day's catalog and holds says whether a party fits now; the party that asked first and fits is
 * the one.
 */
import type { Channel } from "../../shared/schemas";
import type { Availability } from "../availability/engine";

export interface WaitingParty {
  id: number;
  channel: Channel;
  startDate: string;
  startMin: number;
  endMin: number;
  pax: number;
  serviceId: number | null;
  /** whether the party can be emailed (an address, and emails not turned off) */
  reachable: boolean;
}

/**
 * The first party (by when it asked) that is reachable, still to come, and for whom a table is
 * free at its own time now; `ignoring`: a reservation whose holds no longer count (just cancelled).
 */
export function nextParty(engine: Availability, waiting: WaitingParty[], ignoring?: number): WaitingParty | undefined {
  return [...waiting]
    .sort((a, b) => a.id - b.id)
    .find((w) => {
      if (!w.reachable || w.startMin < engine.now) return false;
      // Online guests sit at online tables only, as when they asked; staff's waiting entries anywhere.
      const mode = w.channel === "PLATFORM_ADMIN" ? "staff" : "online";
      return engine.decideTables({ date: w.startDate, start: w.startMin, pax: w.pax, stay: w.endMin - w.startMin, mode, serviceId: w.serviceId ?? undefined, ignoreReservation: ignoring }).ok;
    });
}
