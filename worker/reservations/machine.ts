/**
 * The reservation state machine. Pure: one function decides every move, so
 * the routes, the cron and the model-based test agree on what is allowed.
 */
import type { ReservationStatus } from "../../shared/schemas";
import { ARRIVING } from "../availability/rules";

/** Statuses that hold their tables. WAITING and the final ones hold nothing. */
export const HOLDING: ReadonlySet<ReservationStatus> = new Set([
  "PREPAY",
  "ACCEPTED",
  "CONFIRMED",
  "OUTOFORDER",
]);
export const FINAL: ReadonlySet<ReservationStatus> = new Set(["CANCELLED", "EXPIRED", "REJECTED"]);

/** Status PATCH targets from each status. */
export const MOVES: Readonly<Record<ReservationStatus, readonly ReservationStatus[]>> = {
  WAITING: ["ACCEPTED", "CONFIRMED", "REJECTED", "CANCELLED"],
  PREPAY: ["ACCEPTED", "CONFIRMED", "EXPIRED", "CANCELLED"],
  ACCEPTED: ["CONFIRMED", "CANCELLED", "EXPIRED"],
  CONFIRMED: ["CANCELLED", "EXPIRED"],
  OUTOFORDER: ["CANCELLED"],
  CANCELLED: [],
  EXPIRED: [],
  REJECTED: [],
};

export interface MachineState {
  status: ReservationStatus;
  checkedIn: boolean;
  checkedOut: boolean;
  /** the status before check-in / check-out, restored by undo */
  checkinPrev: ReservationStatus | null;
  checkoutPrev: ReservationStatus | null;
  /** EXPIRED because the party never came (staff or the cron said so): staff may take it back */
  noShow?: boolean;
}

export type Action =
  | { type: "status"; to: ReservationStatus }
  | { type: "checkin" }
  | { type: "checkout" }
  | { type: "undo_checkin" }
  | { type: "undo_checkout" }
  | { type: "cancel" }
  | { type: "expire_unpaid" }
  | { type: "expire_no_show" }
  | { type: "update" };

export type Outcome =
  | {
      ok: true;
      state: MachineState;
      /** the reservation starts holding tables: they must be free, checked in the same batch as the write */
      takesTables: boolean;
      /** the reservation stops holding its tables */
      releasesTables: boolean;
    }
  | { ok: false; reason: string };

const refuse = (reason: string): Outcome => ({ ok: false, reason });

function moveTo(state: MachineState, status: ReservationStatus, extra: Partial<MachineState> = {}): Outcome {
  const before = HOLDING.has(state.status);
  const after = HOLDING.has(status);
  return {
    ok: true,
    state: { ...state, ...extra, status },
    takesTables: !before && after,
    releasesTables: before && !after,
  };
}

/** The outcome of an action on a reservation; a refusal is the API's 403 "reservation not available". */
export function next(state: MachineState, action: Action): Outcome {
  switch (action.type) {
    case "checkin":
      return checkin(state);
    case "checkout":
      return checkout(state);
    case "undo_checkin":
      return undoCheckin(state);
    case "undo_checkout":
      return undoCheckout(state);
    default:
      return statusMove(state, action);
  }
}

type StatusAction = Exclude<Action, { type: "checkin" | "checkout" | "undo_checkin" | "undo_checkout" }>;

/** A move of the status alone: a status PATCH, a cancellation, an expiry, an update. */
function statusMove(state: MachineState, action: StatusAction): Outcome {
  const { status } = state;
  switch (action.type) {
    case "status":
      // A late party after all: the no-show is taken back (until the end of its service, act checks).
      if (status === "EXPIRED" && state.noShow && !state.checkedIn && action.to === "ACCEPTED")
        return moveTo(state, "ACCEPTED");
      if (!MOVES[status].includes(action.to))
        return refuse(`a ${status} reservation cannot become ${action.to}`);
      return moveTo(state, action.to);
    case "cancel":
      if (FINAL.has(status)) return refuse(`a ${status} reservation cannot be cancelled`);
      return moveTo(state, "CANCELLED");
    case "expire_unpaid":
      // ACCEPTED: a waiting party given a table that owes its payment (the caller checks it does)
      if (status !== "PREPAY" && status !== "ACCEPTED")
        return refuse(`only a PREPAY or ACCEPTED reservation expires unpaid, this one is ${status}`);
      // A guest already checked in is at the table: staff settle that, not the cron.
      if (state.checkedIn) return refuse("a checked-in guest does not expire unpaid");
      return moveTo(state, "EXPIRED");
    case "expire_no_show":
      // A party that never came: only one that would arrive, and not checked in.
      if (!(ARRIVING as readonly string[]).includes(status))
        return refuse(`only an arriving reservation can be a no-show, this one is ${status}`);
      if (state.checkedIn) return refuse("a checked-in guest came: no no-show");
      return moveTo(state, "EXPIRED");
    case "update":
      if (FINAL.has(status)) return refuse(`a ${status} reservation cannot be changed`);
      return moveTo(state, status);
  }
}

function checkin(state: MachineState): Outcome {
  const { status } = state;
  if (state.checkedIn) return refuse("the reservation is already checked in");
  if (!["WAITING", "PREPAY", "ACCEPTED", "CONFIRMED"].includes(status))
    return refuse(`a ${status} reservation cannot be checked in`);
  // A walk-in from the waiting list is accepted on arrival; other statuses stay.
  return moveTo(state, checkinResult(status), { checkedIn: true, checkinPrev: status });
}

function checkout(state: MachineState): Outcome {
  const { status } = state;
  if (!state.checkedIn) return refuse("the reservation is not checked in");
  if (state.checkedOut) return refuse("the reservation is already checked out");
  if (FINAL.has(status)) return refuse(`a ${status} reservation cannot be checked out`);
  // Attendance confirmed.
  return moveTo(state, "CONFIRMED", { checkedOut: true, checkoutPrev: status });
}

function undoCheckin(state: MachineState): Outcome {
  const { status } = state;
  if (!state.checkedIn) return refuse("the reservation is not checked in");
  if (state.checkedOut) return refuse("undo the check-out first");
  if (FINAL.has(status)) return refuse(`a ${status} reservation cannot be changed`);
  // Restore the status before check-in only if nothing changed it since; a later
  // confirmation is not the check-in's to take back.
  const prev = state.checkinPrev;
  const restore = prev !== null && status === checkinResult(prev) ? prev : status;
  return moveTo(state, restore, { checkedIn: false, checkinPrev: null });
}

function undoCheckout(state: MachineState): Outcome {
  const { status } = state;
  if (!state.checkedOut) return refuse("the reservation is not checked out");
  if (FINAL.has(status)) return refuse(`a ${status} reservation cannot be changed`);
  const restore = state.checkoutPrev !== null && status === "CONFIRMED" ? state.checkoutPrev : status;
  return moveTo(state, restore, { checkedOut: false, checkoutPrev: null });
}

/** The status check-in leaves: WAITING becomes ACCEPTED, the others stay. */
export function checkinResult(status: ReservationStatus): ReservationStatus {
  return status === "WAITING" ? "ACCEPTED" : status;
}

/** The status PATCH accepts any case, and "declined" means REJECTED. */
export function parseStatusTarget(value: string): ReservationStatus | undefined {
  const upper = value.trim().toUpperCase();
  if (upper === "DECLINED") return "REJECTED";
  const all: ReservationStatus[] = [
    "WAITING",
    "ACCEPTED",
    "CANCELLED",
    "CONFIRMED",
    "EXPIRED",
    "PREPAY",
    "OUTOFORDER",
    "REJECTED",
  ];
  return all.find((s) => s === upper);
}
