/**
 * One move of the state machine applied to D1: a status change, check-in, check-out, their undo,
 * a cancellation, an expiry. A move that starts holding tables (a waiting guest accepted or
 * checked in) needs free tables: its own if still free, else the best choice.
 */
import { type ReservationStatus, resolveSettings } from "../../shared/schemas";
import { ApiError } from "../errors";
import { fromLocalMinutes } from "../lib/localtime";
import { now } from "../lib/time";
import { assertCheckinOpen, assertNoShowUndoable } from "./arrival";
import type { BookingContext } from "./context";
import { diff } from "./history";
import { type Action, FINAL, next } from "./machine";
import type { HoldSpan, ReservationRow } from "./reservations.repo";
import { type ChangePlan, commitChange, withReactions } from "./update";
import { engineOf, holdSpans, loadDay, machineState, newTries, requireReservation, settle } from "./write";

type NoTable = "resource_not_available" | "table_not_available";

const ACTION_NAMES: Record<Action["type"], string> = {
  status: "status",
  checkin: "checkin",
  checkout: "checkout",
  undo_checkin: "undo_checkin",
  undo_checkout: "undo_checkout",
  cancel: "cancelled",
  expire_unpaid: "expired_unpaid",
  expire_no_show: "expired_no_show",
  update: "updated",
};

/**
 * Applies one move of the state machine; none of the party's tables free -> `noTable` (403).
 * `moveTo`: a move that takes tables takes them at this start of the same day instead (a waiting
 * party claiming an offer of a later time of its range), in the same write.
 */
export async function act(
  ctx: BookingContext,
  id: number,
  action: Action,
  noTable: NoTable = "table_not_available",
  moveTo?: number,
): Promise<ReservationRow> {
  const tries = newTries();
  for (let attempt = 1; ; attempt++) {
    const plan = await planAct(ctx, id, action, { noTable, fresh: attempt > 1, moveTo });
    if ("unchanged" in plan) return plan.unchanged;
    try {
      return await commitChange(ctx, plan);
    } catch (err) {
      settle(err, tries, { noTable });
    }
  }
}

async function planAct(
  ctx: BookingContext,
  id: number,
  action: Action,
  o: { noTable: NoTable; fresh: boolean; moveTo?: number | undefined },
): Promise<ChangePlan | { unchanged: ReservationRow }> {
  const current = await requireReservation(ctx, id);
  // Cancelling what is already over is a no-op: DELETE is safe to repeat.
  if (action.type === "cancel" && FINAL.has(current.status as ReservationStatus))
    return { unchanged: current };
  const outcome = next(machineState(current), action);
  if (!outcome.ok) throw new ApiError("reservation_not_available", outcome.reason);
  const at = new Date(now());
  const tz = resolveSettings(ctx.property.settings).timezone;
  if (action.type === "checkin") assertCheckinOpen(tz, current, at.getTime());
  if (machineState(current).noShow && outcome.state.status !== "EXPIRED")
    await undoable(ctx, current, tz, at);
  const set = moveFields(current, action, outcome.state.status, at);
  let holds: HoldSpan[] | undefined = outcome.releasesTables ? [] : undefined;
  if (outcome.takesTables) {
    const moved = o.moveTo === undefined ? undefined : startAt(current, o.moveTo);
    const taken = await takeTables(ctx, { ...current, ...moved }, o);
    holds = taken.holds;
    Object.assign(set, moved, taken.set);
  }
  const { change, follow } = await withReactions(ctx, current, set, {
    action: ACTION_NAMES[action.type],
    releasesTables: outcome.releasesTables,
  });
  const history = {
    actor: ctx.actor,
    action: ACTION_NAMES[action.type],
    fromStatus: current.status as ReservationStatus,
    toStatus: outcome.state.status,
    changes: diff(current, set, tz),
    at: at.toISOString(),
  };
  return { current, set, holds, history, follow, change };
}

/** The fields a move sets: the status and its time, and the check-in or check-out stamps. */
function moveFields(
  current: ReservationRow,
  action: Action,
  to: ReservationStatus,
  at: Date,
): Partial<ReservationRow> {
  const set: Partial<ReservationRow> = {};
  if (to !== current.status) {
    // payment_due_at stays: it only counts while PREPAY, and an undo back to PREPAY needs it.
    Object.assign(set, { status: to, lastStatusChange: at.toISOString(), waitingList: to === "WAITING" });
    if (to === "EXPIRED") set.statusReason = expiryReason(action, current);
    else if (current.statusReason !== null) set.statusReason = null;
  }
  const stayMs = (current.endMin - current.startMin) * 60000;
  if (action.type === "checkin")
    Object.assign(set, {
      checkinDate: at.toISOString(),
      expirationDate: new Date(at.getTime() + stayMs).toISOString(),
      checkinPrevStatus: current.status,
    });
  if (action.type === "undo_checkin")
    Object.assign(set, { checkinDate: null, expirationDate: null, checkinPrevStatus: null });
  if (action.type === "checkout")
    Object.assign(set, { checkoutDate: at.toISOString(), checkoutPrevStatus: current.status });
  if (action.type === "undo_checkout") Object.assign(set, { checkoutDate: null, checkoutPrevStatus: null });
  return set;
}

/** A no-show taken back: only until the end of its service (409 after). */
async function undoable(ctx: BookingContext, current: ReservationRow, tz: string, at: Date) {
  const day = await loadDay(ctx, current.startDate, false);
  const service = day.catalog.services.find((s) => s.id === current.serviceId);
  assertNoShowUndoable(tz, current, service, at.getTime());
}

/** The fields of a start moved to `start` (the same stay); the party no longer waits for a range. */
function startAt(current: ReservationRow, start: number): Partial<ReservationRow> {
  const at = fromLocalMinutes(start);
  return {
    startDate: at.date,
    startHour: at.hour,
    startMin: start,
    endMin: start + current.endMin - current.startMin,
    waitUntilMin: null,
  };
}

/** Why a reservation becomes EXPIRED: unpaid, or a party that never came (the cron, or staff saying so). */
function expiryReason(action: Action, current: ReservationRow): "unpaid" | "no_show" | null {
  if (action.type === "expire_unpaid") return "unpaid";
  return current.checkinDate === null ? "no_show" : null;
}

/** The tables a party starts holding: its own if free, else the best in its room, else anywhere. */
async function takeTables(
  ctx: BookingContext,
  current: ReservationRow,
  o: { noTable: NoTable; fresh: boolean },
) {
  const day = await loadDay(ctx, current.startDate, o.fresh);
  const engine = engineOf(day, false);
  const stay = current.endMin - current.startMin;
  const request = {
    date: current.startDate,
    start: current.startMin,
    pax: current.pax,
    stay,
    mode: "staff" as const,
    serviceId: current.serviceId ?? undefined,
    ignoreReservation: current.id,
  };
  let decision = current.tableIds.length
    ? engine.decideTables({ ...request, tableIds: current.tableIds })
    : undefined;
  if (!decision?.ok) decision = engine.decideTables({ ...request, roomId: current.roomId ?? undefined });
  if (!decision.ok && current.roomId !== null) decision = engine.decideTables(request);
  if (!decision.ok) throw new ApiError(o.noTable, `no table is free for this party: ${decision.detail}`);
  const set: Partial<ReservationRow> = {
    tableIds: decision.tables.map((t) => t.id),
    roomId: decision.tables[0]!.roomId,
    catalogVersion: day.catalogVersion,
  };
  return { holds: holdSpans(engine, decision.tables, current.startMin, stay), set };
}
