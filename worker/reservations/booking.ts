/**
 * The reservation rules (CONTRACT 6) applied to D1: the engine decides what may be taken,
 * the state machine decides which moves are allowed, and each write is one batch that the
 * database refuses when a concurrent booking took the table first or the row changed since
 * it was read. Such a refusal is retried with fresh data a few times.
 */
import { resolveSettings, type Channel, type Occasion, type ReservationStatus, type Settings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { ARRIVING, Availability, type EngineService, type EngineTable, type Mode, pacingRefusal, type Refusal, stayMinutes } from "../availability/engine";
import { ApiError, invalidField } from "../errors";
import { localMinutes, zonedParts } from "../lib/localtime";
import { addSeconds, now, nowIso } from "../lib/time";
import { newLink } from "../messages/links";
import { emailsGuest, planMessages, type ReservationFacts } from "../messages/plan";
import type { Locale } from "../messages/types";
import { type Action, FINAL, HOLDING, type MachineState, next } from "./machine";
import type { BookingContext } from "./context";
import { checkCustomerInput, resolveCustomer } from "./customers";
import { diff } from "./history";
import { guestOfPlan, outboxOf } from "./outbox";
import * as repo from "./reservations.repo";
import type { CustomerInput, HoldSpan, ReservationRow } from "./reservations.repo";

export type { BookingContext } from "./context";

const ATTEMPTS = 3;
/**
 * A table the engine chose and another booking took meanwhile is decided again on fresh data,
 * where that table now shows as held: each retry makes progress, so many parallel bookings of
 * one time fill every free table instead of giving up after ATTEMPTS rounds.
 */
const TABLE_ATTEMPTS = 25;

function refusal(code: Refusal, detail: string): ApiError {
  return new ApiError(code, detail);
}

/** A group holds itself and each member, so a group and its members block each other. */
export function holdSpans(tables: EngineTable[], start: number, stay: number): HoldSpan[] {
  const ids = new Set<number>();
  for (const t of tables) for (const id of [t.id, ...t.memberIds]) ids.add(id);
  return [...ids].map((tableId) => ({ tableId, startMin: start, endMin: start + stay }));
}

export function machineState(r: ReservationRow): MachineState {
  return {
    status: r.status as ReservationStatus,
    checkedIn: r.checkinDate !== null,
    checkedOut: r.checkoutDate !== null,
    checkinPrev: r.checkinPrevStatus as ReservationStatus | null,
    checkoutPrev: r.checkoutPrevStatus as ReservationStatus | null,
  };
}

/** How many times each kind of refusal has sent a write back to be decided again. */
interface Tries {
  table: number;
  other: number;
}
const newTries = (): Tries => ({ table: 0, other: 0 });

/**
 * What a write the database refused becomes: the table taken by another booking is final
 * when the caller named the tables (else decided again, up to TABLE_ATTEMPTS); a row,
 * customer or catalog changed meanwhile is decided again on fresh data, up to ATTEMPTS, then
 * 503. Returning means: try again.
 */
function settle(err: unknown, tries: Tries, o: { tablesNamed?: boolean; noTable?: "resource_not_available" | "table_not_available" }): void {
  const conflict = repo.writeConflict(err);
  if (!conflict) throw err;
  if (conflict === "service_gone") throw new ApiError("service_not_found", "the service was deleted a moment ago");
  if (conflict === "guest_booking_limit") throw guestLimitReached();
  if (conflict === "pacing_full") throw new ApiError("booking_slot_not_available", "pacing: other parties reached the service's limit for this interval a moment ago");
  if (conflict === "table_not_available") {
    if (o.tablesNamed || ++tries.table >= TABLE_ATTEMPTS) throw new ApiError(o.noTable ?? "table_not_available", "the table was taken by another booking a moment ago");
    return;
  }
  if (++tries.other >= ATTEMPTS) {
    throw new ApiError("service_unavailable", "the reservation is being changed by other requests; retry shortly", { headers: { "Retry-After": "1" } });
  }
}

// ---------- create ----------

/** Says what the guest can do, and nothing about which bookings, of whom, count. */
function guestLimitReached(): ApiError {
  return new ApiError(
    "guest_booking_limit",
    "this email or phone already holds as many upcoming online bookings at this restaurant as it takes from one guest; cancel one, or call the restaurant",
  );
}

/**
 * The per-guest limit of an online booking (CONTRACT 2's settings: max_online_bookings_per_guest):
 * staff bookings, and a property without a limit, have none.
 */
function guestLimit(mode: Mode, settings: Settings, customer: CreateInput["customer"]): repo.GuestLimit | undefined {
  const max = settings.max_online_bookings_per_guest;
  if (mode !== "online" || max === null || !customer || (!customer.email && !customer.phone)) return undefined;
  return { email: customer.email?.toLowerCase() ?? null, phone: customer.phone ?? null, nowMin: zonedParts(settings.timezone, now()).minutes, maxBookings: max };
}

export interface CreateInput {
  start_date: string;
  start_hour: string;
  pax: number;
  service_id: number;
  room_id?: number | undefined;
  table_ids?: number[] | undefined;
  waiting_list?: boolean | undefined;
  customer?: (CustomerInput & { id?: number | undefined }) | undefined;
  notes?: string | undefined;
  special_request?: string | undefined;
  occasion?: Occasion | undefined;
  allergies?: string | undefined;
  status?: string | undefined;
  duration?: number | undefined;
  /** staff only: book past the service's pacing */
  override_pacing?: boolean | undefined;
  /** false: the guest is not emailed about this reservation (staff bookings email them by default) */
  notify?: boolean | undefined;
  /** the guest's language for messages; default the property's */
  locale?: Locale | undefined;
}

function findService(services: EngineService[], id: number): EngineService {
  const service = services.find((s) => s.id === id);
  if (!service) throw new ApiError("service_not_found", `service ${id} does not exist in this property`);
  return service;
}

/**
 * room_id and table_ids must name live rooms and tables of the property; the tables given
 * share one room (room_id's, when given), and a group never comes with its own members.
 */
function checkPlace(a: Availability, roomId: number | undefined, tableIds: number[] | undefined) {
  if (roomId !== undefined && !a.catalog.rooms.some((r) => r.id === roomId)) throw new ApiError("room_not_found", `room ${roomId} does not exist in this property`);
  const tables = (tableIds ?? []).map((id) => a.catalog.tables.find((t) => t.id === id) ?? tableGone(id));
  const room = roomId ?? tables[0]?.roomId;
  for (const t of tables) {
    if (t.roomId !== room) throw invalidField("table_ids", `table ${t.id} is in room ${t.roomId}, not in room ${room}: a party sits in one room`);
    const member = t.memberIds.find((m) => tableIds!.includes(m));
    if (member !== undefined) throw invalidField("table_ids", `table ${member} is already part of group ${t.id}`);
  }
}

function tableGone(id: number): never {
  throw new ApiError("table_not_found", `table ${id} does not exist in this property`);
}

/** What only some channels add to a new reservation: the widget's manage link and the guest as typed. */
export interface CreateExtras {
  manageTokenHash?: string | undefined;
  /** the search engine's user and CreateBooking idempotency token (channel SEARCHENGINE) */
  searchengine?: { userId: string; token: string } | undefined;
  /** the manage link's nonce, when the link was made with the LINK_SECRET (messages/links.ts) */
  manageNonce?: string | null | undefined;
  /** more {field: [before, after]} for the "created" history entry */
  history?: Record<string, [unknown, unknown]> | undefined;
}

export async function createReservation(ctx: BookingContext, b: CreateInput, channel: Channel, extras: CreateExtras = {}): Promise<ReservationRow> {
  const { db, property } = ctx;
  const settings = resolveSettings(property.settings);
  const mode: Mode = channel === "PLATFORM_ADMIN" ? "staff" : "online";
  const block = b.status?.trim().toUpperCase() === "OUTOFORDER";
  if (channel === "SEARCHENGINE" && !property.searchengineEnabled) {
    throw invalidField("channel", "the search-engine feature is off for this property: POST /reservations/searchengine turns it on");
  }
  if (b.duration !== undefined && mode !== "staff") throw invalidField("duration", "only staff (PLATFORM_ADMIN) reservations set a duration");
  if (block && mode !== "staff") throw invalidField("status", "only staff (PLATFORM_ADMIN) can block tables with OUTOFORDER");
  if (block && b.waiting_list) throw invalidField("waiting_list", "an OUTOFORDER block cannot wait");
  if (b.override_pacing && mode !== "staff") throw invalidField("override_pacing", "only staff (PLATFORM_ADMIN) bookings may override pacing");
  if (!block && !b.customer) throw invalidField("customer", "a customer is required: a first or last name, and an email or a phone");
  checkCustomerInput(b.customer);
  const start = localMinutes(b.start_date, b.start_hour);

  const tries = newTries();
  for (let attempt = 1; ; attempt++) {
    const customer = await resolveCustomer(ctx, b.customer);
    const { catalog, holds, arrivals, catalogVersion } = await loadAvailability(db, property, b.start_date, b.start_date, { fresh: attempt > 1 });
    const engine = new Availability(catalog, holds, now(), arrivals);
    const service = findService(catalog.services, b.service_id);
    checkPlace(engine, b.room_id, b.table_ids);
    let status: ReservationStatus;
    let tables: EngineTable[];
    let stay = b.duration ?? stayMinutes(b.pax, settings, service);
    if (b.waiting_list) {
      const refused = engine.checkTime(service, b.start_date, start, b.pax, mode, stay);
      if (refused) throw refusal(refused, `this time cannot be booked (${refused.replace(/_/g, " ")})`);
      status = "WAITING";
      tables = (b.table_ids ?? []).map((id) => catalog.tables.find((t) => t.id === id)!);
    } else {
      // A staff block is no arrival: pacing does not count it.
      const overridePacing = block || b.override_pacing;
      // Only a retry after losing a table spreads: an uncontended booking takes the best table.
      const spread = tries.table > 0 ? Math.random() : undefined;
      const decision = engine.decide({ service, date: b.start_date, start, pax: b.pax, mode, stay, roomId: b.room_id, tableIds: b.table_ids, overridePacing, spread });
      if (!decision.ok) throw refusal(decision.refusal, decision.detail);
      ({ tables, stay } = decision);
      status = block ? "OUTOFORDER" : service.prepaymentWindow ? "PREPAY" : "ACCEPTED";
    }
    const at = nowIso();
    const facts: ReservationFacts = {
      status,
      channel,
      startDate: b.start_date,
      startHour: b.start_hour,
      startMin: start,
      endMin: start + stay,
      pax: b.pax,
      serviceId: service.id,
      notes: b.notes ?? null,
      guest: guestOfPlan(customer),
      notifyGuest: b.notify ?? true,
      locale: b.locale ?? null,
    };
    // A guest who is emailed gets a manage link in every message (the widget's booking made one already).
    const link = extras.manageTokenHash ? { nonce: extras.manageNonce ?? null, hash: extras.manageTokenHash } : emailsGuest(facts, settings) && ctx.linkSecret ? await newLink(ctx.linkSecret, "manage") : undefined;
    const outbox = planMessages({ before: null, after: facts, actor: ctx.actor, settings, propertyEmail: property.email, version: 0, now: now() });
    const row = {
      propertyId: property.id,
      serviceId: service.id,
      roomId: tables[0]?.roomId ?? b.room_id ?? null,
      startDate: b.start_date,
      startHour: b.start_hour,
      startMin: start,
      endMin: start + stay,
      pax: b.pax,
      status,
      channel,
      waitingList: status === "WAITING",
      notes: b.notes ?? null,
      specialRequest: b.special_request ?? null,
      occasion: b.occasion ?? null,
      allergies: b.allergies ?? null,
      guest: customer?.guest ?? null,
      overridePacing: mode === "staff" && !!b.override_pacing,
      tableIds: tables.map((t) => t.id),
      paymentDueAt: status === "PREPAY" ? addSeconds(at, (service.prepaymentWindow ?? 0) * 60) : null,
      lastStatusChange: at,
      catalogVersion,
      manageTokenHash: link?.hash ?? null,
      manageNonce: link?.nonce ?? null,
      notifyGuest: facts.notifyGuest,
      guestLocale: facts.locale,
      searchengineUserId: extras.searchengine?.userId ?? null,
      searchengineToken: extras.searchengine?.token ?? null,
    };
    const spans = HOLDING.has(status) ? holdSpans(tables, start, stay) : [];
    try {
      const history: repo.HistoryEntry = { actor: ctx.actor, action: "created", fromStatus: null, toStatus: status, changes: { status: [null, status], ...extras.history } };
      return await repo.insertReservation(db, row, customer, spans, history, outbox, guestLimit(mode, settings, b.customer));
    } catch (err) {
      settle(err, tries, { tablesNamed: b.table_ids !== undefined });
    }
  }
}

// ---------- reading one ----------

/** 404 when the id is unknown or belongs to a stranger; 403 when it belongs to another of the client's properties. */
export async function requireReservation(ctx: BookingContext, id: number): Promise<ReservationRow> {
  const row = await repo.getReservation(ctx.db, id);
  if (row && row.propertyId === ctx.property.id) return row;
  const other = await ctx.locateElsewhere?.(id);
  if (other !== undefined) throw new ApiError("reservation_not_available", `reservation ${id} belongs to property ${other}, not to property ${ctx.property.id}`);
  throw new ApiError("reservation_not_found", `reservation ${id} does not exist in this property`);
}

// ---------- update ----------

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

/**
 * `mode` "online": a move on behalf of the guest (the search engine's UpdateBooking) keeps to the
 * rules of an online booking (grid, notice, window, online tables); staff may do more.
 */
export async function updateReservation(ctx: BookingContext, id: number, b: UpdateInput, mode: Mode = "staff"): Promise<ReservationRow> {
  const { db, property } = ctx;
  const settings = resolveSettings(property.settings);
  checkCustomerInput(b.customer);
  const tries = newTries();
  for (let attempt = 1; ; attempt++) {
    const current = await requireReservation(ctx, id);
    const outcome = next(machineState(current), { type: "update" });
    if (!outcome.ok) throw new ApiError("reservation_not_available", outcome.reason);
    const customer = await resolveCustomer(ctx, b.customer);
    const date = b.start_day ?? b.start_date ?? current.startDate;
    const hour = b.start_hour ?? current.startHour;
    const pax = b.pax ?? current.pax;
    const serviceId = b.service_id ?? current.serviceId;
    const set: Partial<ReservationRow> = {};
    if (customer?.existing) set.customerId = customer.existing.id;
    if (customer) set.guest = customer.guest;
    if (b.notes !== undefined) set.notes = b.notes;
    if (b.special_request !== undefined) set.specialRequest = b.special_request;
    if (b.occasion !== undefined) set.occasion = b.occasion;
    if (b.allergies !== undefined) set.allergies = b.allergies;
    if (b.notify !== undefined && b.notify !== current.notifyGuest) set.notifyGuest = b.notify;
    if (b.locale !== undefined && b.locale !== current.guestLocale) set.guestLocale = b.locale;
    let holds: HoldSpan[] | undefined;
    const moves =
      date !== current.startDate || hour !== current.startHour || pax !== current.pax || serviceId !== current.serviceId ||
      b.room_id !== undefined || b.table_ids !== undefined || b.duration !== undefined;
    if (moves) {
      const { catalog, holds: held, arrivals, catalogVersion } = await loadAvailability(db, property, date, date, { fresh: attempt > 1 });
      const engine = new Availability(catalog, held, now(), arrivals);
      if (serviceId === null) throw invalidField("service_id", "the reservation has no service: give service_id");
      const service = findService(catalog.services, serviceId);
      checkPlace(engine, b.room_id, b.table_ids);
      const start = localMinutes(date, hour);
      const sameParty = pax === current.pax && serviceId === current.serviceId;
      const stay = b.duration ?? (sameParty ? current.endMin - current.startMin : stayMinutes(pax, settings, service));
      const verdict = engine.timeVerdict(service, start, pax, mode, stay);
      if (verdict) throw refusal(verdict.refusal, verdict.detail);
      // Pacing as the trigger checks a move: a party arriving at another time or service, or a
      // larger one. Only staff may override it; a guest's move (the search engine's) always obeys.
      const override = mode === "staff" && !!b.override_pacing;
      const arrivesAnew = start !== current.startMin || serviceId !== current.serviceId || pax > current.pax;
      const arriving = (ARRIVING as readonly string[]).includes(current.status);
      if (arriving && arrivesAnew && !override && !engine.pacingAllows(service, start, pax, id)) {
        const paced = pacingRefusal(service, start);
        throw refusal(paced.refusal, paced.detail);
      }
      set.overridePacing = override;
      let tables: EngineTable[];
      if (HOLDING.has(current.status as ReservationStatus)) {
        const roomMoved = b.room_id !== undefined && b.room_id !== current.roomId;
        const keep = b.table_ids ?? (roomMoved || !current.tableIds.length ? undefined : current.tableIds);
        const request = { date, start, pax, stay, roomId: b.room_id, mode, serviceId, ignoreReservation: id };
        let decision = engine.decideTables({ ...request, tableIds: keep });
        // The party's own tables no longer work (bigger party, taken at the new time): pick again.
        if (!decision.ok && !b.table_ids && keep) decision = engine.decideTables(request);
        if (!decision.ok) throw refusal(decision.refusal, decision.detail);
        tables = decision.tables;
        holds = holdSpans(tables, start, stay);
        set.catalogVersion = catalogVersion;
      } else {
        // A waiting party holds nothing; its wished-for tables go when it moves to another room.
        const roomMoved = b.room_id !== undefined && b.room_id !== current.roomId;
        const wished = b.table_ids ?? (roomMoved ? [] : current.tableIds);
        tables = wished.flatMap((tid) => catalog.tables.filter((t) => t.id === tid));
      }
      Object.assign(set, {
        startDate: date,
        startHour: hour,
        startMin: start,
        endMin: start + stay,
        pax,
        serviceId,
        roomId: tables[0]?.roomId ?? b.room_id ?? current.roomId,
        tableIds: tables.map((t) => t.id),
      });
    }
    const changes = diff(current, set, settings.timezone);
    const guestChanged = customer && JSON.stringify(customer.guest) !== JSON.stringify(current.guest);
    if (customer && (!customer.existing || customer.existing.id !== current.customerId || repo.customerDetailsChange(customer) || guestChanged)) {
      changes.customer = [current.customerId, { id: customer.existing?.id ?? null, ...customer.guest }];
    }
    if ("notifyGuest" in set) changes.notify = [current.notifyGuest, set.notifyGuest];
    if ("guestLocale" in set) changes.locale = [current.guestLocale, set.guestLocale];
    // Nothing to change: no write, no history entry, no new version.
    if (!Object.keys(changes).length) return current;
    try {
      const outbox = await outboxOf(ctx, current, set, { customer });
      return await repo.changeReservation(db, current, set, customer, holds, { actor: ctx.actor, action: "updated", fromStatus: null, toStatus: null, changes }, outbox);
    } catch (err) {
      settle(err, tries, { tablesNamed: b.table_ids !== undefined });
    }
  }
}

// ---------- status, check-in, check-out, undo, cancel ----------

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

/** Why a reservation becomes EXPIRED: unpaid, or a party that never came (the cron, or staff saying so). */
function expiryReason(action: Action, current: ReservationRow): "unpaid" | "no_show" | null {
  if (action.type === "expire_unpaid") return "unpaid";
  return current.checkinDate === null ? "no_show" : null;
}

/**
 * Applies one move of the state machine. A move that starts holding tables (a waiting
 * guest accepted or checked in) needs free tables: its own if still free, else the best
 * choice; none -> `noTable` (403).
 */
export async function act(ctx: BookingContext, id: number, action: Action, noTable: "resource_not_available" | "table_not_available" = "table_not_available"): Promise<ReservationRow> {
  const { db, property } = ctx;
  const tries = newTries();
  for (let attempt = 1; ; attempt++) {
    const current = await requireReservation(ctx, id);
    // Cancelling what is already over is a no-op: DELETE is safe to repeat.
    if (action.type === "cancel" && FINAL.has(current.status as ReservationStatus)) return current;
    const outcome = next(machineState(current), action);
    if (!outcome.ok) throw new ApiError("reservation_not_available", outcome.reason);
    const at = new Date(now());
    const to = outcome.state.status;
    const set: Partial<ReservationRow> = {};
    if (to !== current.status) {
      // payment_due_at stays: it only counts while PREPAY, and an undo back to PREPAY needs it.
      Object.assign(set, { status: to, lastStatusChange: at.toISOString(), waitingList: to === "WAITING" });
      if (to === "EXPIRED") set.statusReason = expiryReason(action, current);
    }
    const stayMs = (current.endMin - current.startMin) * 60000;
    if (action.type === "checkin") Object.assign(set, { checkinDate: at.toISOString(), expirationDate: new Date(at.getTime() + stayMs).toISOString(), checkinPrevStatus: current.status });
    if (action.type === "undo_checkin") Object.assign(set, { checkinDate: null, expirationDate: null, checkinPrevStatus: null });
    if (action.type === "checkout") Object.assign(set, { checkoutDate: at.toISOString(), checkoutPrevStatus: current.status });
    if (action.type === "undo_checkout") Object.assign(set, { checkoutDate: null, checkoutPrevStatus: null });
    let holds: HoldSpan[] | undefined;
    if (outcome.releasesTables) holds = [];
    if (outcome.takesTables) {
      const { catalog, holds: held, catalogVersion } = await loadAvailability(db, property, current.startDate, current.startDate, { fresh: attempt > 1 });
      const engine = new Availability(catalog, held, now());
      const request = { date: current.startDate, start: current.startMin, pax: current.pax, stay: current.endMin - current.startMin, mode: "staff" as const, serviceId: current.serviceId ?? undefined, ignoreReservation: id };
      let decision = current.tableIds.length ? engine.decideTables({ ...request, tableIds: current.tableIds }) : undefined;
      if (!decision?.ok) decision = engine.decideTables({ ...request, roomId: current.roomId ?? undefined });
      if (!decision.ok && current.roomId !== null) decision = engine.decideTables(request);
      if (!decision.ok) throw new ApiError(noTable, `no table is free for this party: ${decision.detail}`);
      holds = holdSpans(decision.tables, current.startMin, request.stay);
      Object.assign(set, { tableIds: decision.tables.map((t) => t.id), roomId: decision.tables[0]!.roomId, catalogVersion });
    }
    try {
      const outbox = await outboxOf(ctx, current, set, { expiredUnpaid: action.type === "expire_unpaid", releases: outcome.releasesTables });
      return await repo.changeReservation(
        db,
        current,
        set,
        undefined,
        holds,
        { actor: ctx.actor, action: ACTION_NAMES[action.type], fromStatus: current.status as ReservationStatus, toStatus: to, changes: diff(current, set, resolveSettings(property.settings).timezone), at: at.toISOString() },
        outbox,
      );
    } catch (err) {
      settle(err, tries, { noTable });
    }
  }
}

