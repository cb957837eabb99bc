/**
 * The restaurant object's second job, a booking desk: the restaurant's bookings decided one at a
 * time inside its object. The object only hosts it: the desk itself (what it reads, how it
 * decides) is the reservations feature's (worker/reservations/desk.ts), which registers here at
 * start (worker/wiring.ts), so this kernel folder names no feature.
 */
import type { Bindings } from "../env";

/** What the object lends the desk: its bindings and a place to keep what it knows between calls. */
export interface DeskRoom {
  env: Bindings;
  /** the desk's own memory for as long as the object lives (it is rebuilt from D1 when lost) */
  kept: Map<string, unknown>;
}

/** A booking in, its answer out: both plain data, as they cross from the Worker into the object. */
export type DeskMessage = Record<string, unknown>;

export interface DeskHandler {
  book(room: DeskRoom, job: DeskMessage): Promise<DeskMessage>;
  /** what the desk has done so far (tests and the bench) */
  figures(room: DeskRoom): DeskMessage;
}

let registered: DeskHandler | undefined;

export function registerDesk(handler: DeskHandler): void {
  registered = handler;
}

export function deskHandler(): DeskHandler {
  if (!registered) throw new Error("no booking desk registered: worker/wiring.ts registers it at start");
  return registered;
}
