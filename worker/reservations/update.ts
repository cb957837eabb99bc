/**
 * Changing a reservation (a partial PUT, a guest's own change, the search engine's UpdateBooking):
 * plan on one read of the day it moves to, then one batch that the database refuses when the row
 * or the tables changed since they were read. A refused batch is planned again on fresh data.
 */
import { type Locale, type Occasion, type ReservationStatus, resolveSettings } from "../../shared/schemas";
import {
  ARRIVING,
  type Availability,
  type EngineService,
  type EngineTable,
  type Mode,
  pacingRefusal,
  stayMinutes,
} from "../availability/engine";
import { ApiError, invalidField } from "../errors";
import { localMinutes } from "../lib/localtime";
import type { BookingContext } from "./context";
import { checkCustomerInput, resolveCustomer } from "./customers";
import { diff } from "./history";
import { HOLDING, next } from "./machine";
import {
  afterCommit,
  amendments,
  type Follow,
  type ReservationChange,
  reactionStatements,
} from "./reactions";
import type { CustomerInput, CustomerPlan, HoldSpan, ReservationRow } from "./reservations.repo";
import * as repo from "./reservations.repo";
import {
  checkPlace,
  engineOf,
  findService,
  holdSpans,
  loadDay,
  machineState,
  newTries,
  refusal,
  requireReservation,
  settle,
} from "./write";

export interface UpdateInput {
  start_day?: string | undefined;
  start_date?: string | undefined;
  start_hour?: string | undefined;
  pax?: number | undefined;
  service_id?: number | undefined;
  room_id?: number | undefined;
  table_ids?: number[] | undefined;
  customer?: (CustomerInput & { id?: number | undefined }) | undefined;
  notes?: string | null | undefined;
  special_request?: string | null | undefined;
  occasion?: Occasion | null | undefined;
  allergies?: string | null | undefined;
  duration?: number | undefined;
  /** a move past the service's pacing (staff) */
  override_pacing?: boolean | undefined;
  notify?: boolean | undefined;
  locale?: Locale | undefined;
}

/** A change of one reservation, ready for its batch (update, status moves, check-in and out). */
export interface ChangePlan {
  current: ReservationRow;
  set: Partial<ReservationRow>;
  customer?: CustomerPlan | undefined;
  /** the tables it holds from now on; undefined: as they are; []: none */
  holds: HoldSpan[] | undefined;
  history: repo.HistoryEntry;
  follow: Follow;
  change: ReservationChange;
}

/** Where the reservation goes: day, hour, party and service after the change. */
interface Target {
  date: string;
  hour: string;
  pax: number;
  serviceId: number | null;
}

/**
 * `mode` "online": a move on behalf of the guest (the search engine's UpdateBooking) keeps to the
 * rules of an online booking (grid, notice, window, online tables); staff may do more.
 */
export async function updateReservation(
  ctx: BookingContext,
  id: number,
  b: UpdateInput,
  mode: Mode = "staff",
): Promise<ReservationRow> {
  checkCustomerInput(b.customer);
  const tries = newTries();
  for (let attempt = 1; ; attempt++) {
    const plan = await planUpdate(ctx, id, b, { mode, fresh: attempt > 1 });
    // Nothing to change: no write, no history entry, no new version.
    if ("unchanged" in plan) return plan.unchanged;
    try {
      return await commitChange(ctx, plan);
    } catch (err) {
      settle(err, tries, { tablesNamed: b.table_ids !== undefined });
    }
  }
}

/** Writes a planned change in one batch, then tells the reactions it happened. */
export async function commitChange(ctx: BookingContext, plan: ChangePlan): Promise<ReservationRow> {
  const { row, followed } = await repo.changeReservation(
    ctx.db,
    plan.current,
    plan.set,
    plan.customer,
    plan.holds,
    plan.history,
    plan.follow.statements,
  );
  afterCommit(plan.change, row, plan.follow, followed);
  return row;
}

/** The change's reactions: what they add to the row, then their statements for its batch. */
export async function withReactions(
  ctx: BookingContext,
  current: ReservationRow,
  set: Partial<ReservationRow>,
  o: { action: string; releasesTables: boolean; customer?: CustomerPlan | undefined },
) {
  const after = {
    ...current,
    ...set,
    ...(o.customer && { customerSnapshot: repo.customerSnapshot(o.customer) }),
  } as ReservationRow;
  const change: ReservationChange = {
    ctx,
    before: current,
    after,
    reservationId: current.id,
    version: current.version + 1,
    action: o.action,
    releasesTables: o.releasesTables,
  };
  Object.assign(set, await amendments(change));
  change.after = { ...after, ...set };
  return { change, follow: await reactionStatements(change) };
}

async function planUpdate(
  ctx: BookingContext,
  id: number,
  b: UpdateInput,
  o: { mode: Mode; fresh: boolean },
): Promise<ChangePlan | { unchanged: ReservationRow }> {
  const current = await requireReservation(ctx, id);
  const outcome = next(machineState(current), { type: "update" });
  if (!outcome.ok) throw new ApiError("reservation_not_available", outcome.reason);
  const customer = await resolveCustomer(ctx, b.customer);
  const set = plainChanges(current, b, customer);
  const target: Target = {
    date: b.start_day ?? b.start_date ?? current.startDate,
    hour: b.start_hour ?? current.startHour,
    pax: b.pax ?? current.pax,
    serviceId: b.service_id ?? current.serviceId,
  };
  let holds: HoldSpan[] | undefined;
  if (moves(current, b, target)) {
    const moved = await planMove(ctx, current, b, target, o);
    Object.assign(set, moved.set);
    holds = moved.holds;
  }
  const changes = changesOf(ctx, current, set, customer);
  if (!Object.keys(changes).length) return { unchanged: current };
  const { change, follow } = await withReactions(ctx, current, set, {
    action: "updated",
    releasesTables: false,
    customer,
  });
  const history: repo.HistoryEntry = {
    actor: ctx.actor,
    action: "updated",
    fromStatus: null,
    toStatus: null,
    changes,
  };
  return { current, set, customer, holds, history, follow, change };
}

/** The fields a change sets without moving the party: guest, notes, wishes, messages. */
function plainChanges(
  current: ReservationRow,
  b: UpdateInput,
  customer: CustomerPlan | undefined,
): Partial<ReservationRow> {
  const set: Partial<ReservationRow> = {};
  if (customer?.existing) set.customerId = customer.existing.id;
  if (customer) set.guest = customer.guest;
  if (b.notes !== undefined) set.notes = b.notes;
  if (b.special_request !== undefined) set.specialRequest = b.special_request;
  if (b.occasion !== undefined) set.occasion = b.occasion;
  if (b.allergies !== undefined) set.allergies = b.allergies;
  if (b.notify !== undefined && b.notify !== current.notifyGuest) set.notifyGuest = b.notify;
  if (b.locale !== undefined && b.locale !== current.guestLocale) set.guestLocale = b.locale;
  return set;
}

function moves(current: ReservationRow, b: UpdateInput, t: Target): boolean {
  const other =
    t.date !== current.startDate ||
    t.hour !== current.startHour ||
    t.pax !== current.pax ||
    t.serviceId !== current.serviceId;
  return other || b.room_id !== undefined || b.table_ids !== undefined || b.duration !== undefined;
}

/** The history's {field: [before, after]} of the change, the guest and the messages' settings included. */
function changesOf(
  ctx: BookingContext,
  current: ReservationRow,
  set: Partial<ReservationRow>,
  customer: CustomerPlan | undefined,
) {
  const changes = diff(current, set, resolveSettings(ctx.property.settings).timezone);
  const guestChanged = customer && JSON.stringify(customer.guest) !== JSON.stringify(current.guest);
  if (
    customer &&
    (!customer.existing ||
      customer.existing.id !== current.customerId ||
      repo.customerDetailsChange(customer) ||
      guestChanged)
  ) {
    changes.customer = [current.customerId, { id: customer.existing?.id ?? null, ...customer.guest }];
  }
  if ("notifyGuest" in set) changes.notify = [current.notifyGuest, set.notifyGuest];
  if ("guestLocale" in set) changes.locale = [current.guestLocale, set.guestLocale];
  return changes;
}

/** A move to another day, time, party, service, room or tables, decided on one read of the day. */
async function planMove(
  ctx: BookingContext,
  current: ReservationRow,
  b: UpdateInput,
  t: Target,
  o: { mode: Mode; fresh: boolean },
) {
  const day = await loadDay(ctx, t.date, o.fresh);
  const engine = engineOf(day);
  if (t.serviceId === null)
    throw invalidField("service_id", "the reservation has no service: give service_id");
  const service = findService(day.catalog.services, t.serviceId);
  checkPlace(engine, b.room_id, b.table_ids);
  const start = localMinutes(t.date, t.hour);
  const sameParty = t.pax === current.pax && t.serviceId === current.serviceId;
  const stay =
    b.duration ??
    (sameParty
      ? current.endMin - current.startMin
      : stayMinutes(t.pax, resolveSettings(ctx.property.settings), service));
  const verdict = engine.timeVerdict(service, start, t.pax, o.mode, stay);
  if (verdict) throw refusal(verdict.refusal, verdict.detail);
  // Only staff may override pacing; a guest's move (the search engine's) always obeys.
  const override = o.mode === "staff" && !!b.override_pacing;
  checkPacing(engine, current, service, { start, pax: t.pax, override });
  const holding = HOLDING.has(current.status as ReservationStatus);
  const tables = holding
    ? decideMoveTables(engine, current, b, { ...t, start, stay, mode: o.mode })
    : wishedTables(engine, current, b);
  const set: Partial<ReservationRow> = {
    overridePacing: override,
    startDate: t.date,
    startHour: t.hour,
    startMin: start,
    endMin: start + stay,
    // a waiting range still after the new start and on the same day stays; otherwise only the new time
    waitUntilMin:
      current.waitUntilMin !== null && t.date === current.startDate && current.waitUntilMin > start
        ? current.waitUntilMin
        : null,
    pax: t.pax,
    serviceId: t.serviceId,
    roomId: tables[0]?.roomId ?? b.room_id ?? current.roomId,
    tableIds: tables.map((x) => x.id),
    ...(holding && { catalogVersion: day.catalogVersion }),
  };
  return { set, holds: holding ? holdSpans(engine, tables, start, stay) : undefined };
}

/** Pacing as the trigger checks a move: a party arriving at another time or service, or a larger one. */
function checkPacing(
  engine: Availability,
  current: ReservationRow,
  service: EngineService,
  m: { start: number; pax: number; override: boolean },
) {
  const arrivesAnew = m.start !== current.startMin || service.id !== current.serviceId || m.pax > current.pax;
  const arriving = (ARRIVING as readonly string[]).includes(current.status);
  if (arriving && arrivesAnew && !m.override && !engine.pacingAllows(service, m.start, m.pax, current.id)) {
    const paced = pacingRefusal(service, m.start);
    throw refusal(paced.refusal, paced.detail);
  }
}

/** A holding party keeps its own tables when they still work, else takes the best free ones. */
function decideMoveTables(
  engine: Availability,
  current: ReservationRow,
  b: UpdateInput,
  m: Target & { start: number; stay: number; mode: Mode },
): EngineTable[] {
  const roomMoved = b.room_id !== undefined && b.room_id !== current.roomId;
  const keep = b.table_ids ?? (roomMoved || !current.tableIds.length ? undefined : current.tableIds);
  const request = {
    date: m.date,
    start: m.start,
    pax: m.pax,
    stay: m.stay,
    roomId: b.room_id,
    mode: m.mode,
    serviceId: m.serviceId ?? undefined,
    ignoreReservation: current.id,
  };
  let decision = engine.decideTables({ ...request, tableIds: keep });
  // The party's own tables no longer work (bigger party, taken at the new time): pick again.
  if (!decision.ok && !b.table_ids && keep) decision = engine.decideTables(request);
  if (!decision.ok)
    throw refusal(decision.refusal, decision.detail, { why: decision.why, tableIds: decision.tableIds });
  return decision.tables;
}

/** A waiting party holds nothing; its wished-for tables go when it moves to another room. */
function wishedTables(engine: Availability, current: ReservationRow, b: UpdateInput): EngineTable[] {
  const roomMoved = b.room_id !== undefined && b.room_id !== current.roomId;
  const wished = b.table_ids ?? (roomMoved ? [] : current.tableIds);
  return wished.flatMap((tid) => engine.catalog.tables.filter((t) => t.id === tid));
}
