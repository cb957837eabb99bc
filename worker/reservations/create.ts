/**
 * Creating a reservation, in two steps: plan (read the day once, let the engine decide, let the
 * reactions add what follows) and commit (one batch, which the database refuses when a
 * concurrent booking took the table first). A refused batch is planned again on fresh data.
 */

import { asksPayment, newPayment, paymentWindow } from "../../shared/payment";
import {
  type Channel,
  type Locale,
  type Occasion,
  type ReservationStatus,
  resolveSettings,
  type Settings,
} from "../../shared/schemas";
import {
  type Availability,
  type Catalog,
  type EngineService,
  type EngineSettings,
  type EngineTable,
  type Mode,
  stayMinutes,
} from "../availability/engine";
import { invalidField } from "../errors";
import { localMinutes, zonedParts } from "../lib/localtime";
import { addSeconds, now, nowIso } from "../lib/time";
import type { BookingContext } from "./context";
import { type CustomerRead, checkCustomerInput, resolveCustomer } from "./customers";
import { HOLDING } from "./machine";
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
  type LoadedDay,
  loadDay,
  newTries,
  refusal,
  settle,
} from "./write";

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

/** What only some channels add to a new reservation: the widget's manage link and the guest as typed. */
export interface CreateExtras {
  manageTokenHash?: string | undefined;
  /** the search engine's user and CreateBooking idempotency token (channel SEARCHENGINE) */
  searchengine?: { userId: string; token: string } | undefined;
  /** the manage link's nonce, when the link was made with the LINK_SECRET (messages/links.ts) */
  manageNonce?: string | null | undefined;
  /** more {field: [before, after]} for the "created" history entry */
  history?: Record<string, [unknown, unknown]> | undefined;
  /** a guest's waiting-list range: the latest start taken (local minutes); kept only if the party waits */
  waitUntilMin?: number | undefined;
}

type NewRow = Parameters<typeof repo.insertReservation>[1];

/** What a booking writes, decided on one read of its day. */
interface CreatePlan {
  row: NewRow;
  customer: CustomerPlan | undefined;
  spans: HoldSpan[];
  history: repo.HistoryEntry;
  follow: Follow;
  limit: repo.GuestLimit | undefined;
  change: ReservationChange;
  /** its service, room and tables as the catalog it was decided on names them */
  names: repo.CatalogNames;
}

/** What the engine decided for the party: its status, tables and stay. */
interface Decided {
  status: ReservationStatus;
  tables: EngineTable[];
  stay: number;
}

/**
 * What a booking's first decision may take from reads the request made already: the day (a
 * guest's booking read it to pick the service; the API reads it with the property row) and the
 * customer's lookup. A retry reads both again.
 */
export interface FirstRead {
  day?: LoadedDay | undefined;
  /** the engine over `day`, when the caller built one to decide on it already */
  engine?: Availability | undefined;
  customer?: CustomerRead | undefined;
}

/** A new reservation, and what its answer names when the commit was asked to read it. */
export interface Created {
  row: ReservationRow;
  related: repo.Related | undefined;
}

export async function createReservation(
  ctx: BookingContext,
  b: CreateInput,
  channel: Channel,
  extras: CreateExtras = {},
  first: FirstRead = {},
): Promise<ReservationRow> {
  return (await create(ctx, b, channel, { extras, first, related: false })).row;
}

/** createReservation, with what its answer names: the customer read in the commit's own batch, the rest from the catalog it was decided on. */
export function createReservationWithRelated(
  ctx: BookingContext,
  b: CreateInput,
  channel: Channel,
  first: FirstRead = {},
): Promise<Created> {
  return create(ctx, b, channel, { extras: {}, first, related: true });
}

async function create(
  ctx: BookingContext,
  b: CreateInput,
  channel: Channel,
  o: { extras: CreateExtras; first: FirstRead; related: boolean },
): Promise<Created> {
  const mode = checkCreate(ctx, b, channel);
  const tries = newTries();
  for (let attempt = 1; ; attempt++) {
    const early: FirstRead = attempt === 1 ? o.first : {};
    // The customer and the day side by side: one round trip for both, and the holds are no older
    // than the customer's row when the engine decides.
    const [customer, loaded] = await Promise.all([
      resolveCustomer(ctx, b.customer, early.customer),
      early.day ?? loadDay(ctx, b.start_date, attempt > 1),
    ]);
    // Only a retry after losing a table spreads: an uncontended booking takes the best table.
    const engine = early.day ? early.engine : undefined;
    const plan = await planCreate(ctx, {
      b,
      channel,
      extras: o.extras,
      mode,
      customer,
      day: loaded,
      engine,
      spread: tries.table > 0 ? Math.random() : undefined,
    });
    try {
      return await commitCreate(ctx, plan, o.related);
    } catch (err) {
      settle(err, tries, { tablesNamed: b.table_ids !== undefined });
    }
  }
}

/**
 * What the engine answers this booking on `day`, without writing anything: throws the refusal
 * createReservation would answer (a full time, a closed one, an unknown service or table), so the
 * restaurant's desk answers a party that cannot fit from the day it keeps (worker/restaurant/desk.ts).
 * Answers the holds the booking would take on `day` (none for a waiting party). `engine`: the
 * engine over `day` when the caller decides many bookings on it.
 */
export function precheckCreate(
  ctx: BookingContext,
  b: CreateInput,
  channel: Channel,
  day: LoadedDay,
  engine = engineOf(day),
): HoldSpan[] {
  const mode = checkCreate(ctx, b, channel);
  const service = findService(day.catalog.services, b.service_id);
  checkPlace(engine, b.room_id, b.table_ids);
  // the engine's settings are the day's, resolved once when it was read
  const decided = decide(engine, service, b, { mode, settings: engine.catalog.settings, spread: undefined });
  return HOLDING.has(decided.status)
    ? holdSpans(engine, decided.tables, localMinutes(b.start_date, b.start_hour), decided.stay)
    : [];
}

/** The input rules that need no data: who may block, wait, override or set a duration. */
function checkCreate(ctx: BookingContext, b: CreateInput, channel: Channel): Mode {
  const mode: Mode = channel === "PLATFORM_ADMIN" ? "staff" : "online";
  const block = isBlock(b);
  if (channel === "SEARCHENGINE" && (!ctx.property.searchengineEnabled || ctx.property.sandbox)) {
    throw invalidField(
      "channel",
      "the search-engine feature is off for this property (a sandbox property never has it): POST /reservations/searchengine turns it on",
    );
  }
  if (b.duration !== undefined && mode !== "staff")
    throw invalidField("duration", "only staff (PLATFORM_ADMIN) reservations set a duration");
  if (block && mode !== "staff")
    throw invalidField("status", "only staff (PLATFORM_ADMIN) can block tables with OUTOFORDER");
  if (block && b.waiting_list) throw invalidField("waiting_list", "an OUTOFORDER block cannot wait");
  if (b.override_pacing && mode !== "staff")
    throw invalidField("override_pacing", "only staff (PLATFORM_ADMIN) bookings may override pacing");
  if (!block && !b.customer)
    throw invalidField("customer", "a customer is required: a first or last name, and an email or a phone");
  checkCustomerInput(b.customer);
  return mode;
}

const isBlock = (b: CreateInput) => b.status?.trim().toUpperCase() === "OUTOFORDER";

interface PlanInput {
  b: CreateInput;
  channel: Channel;
  extras: CreateExtras;
  mode: Mode;
  customer: CustomerPlan | undefined;
  day: LoadedDay;
  engine?: Availability | undefined;
  spread: number | undefined;
}

async function planCreate(ctx: BookingContext, p: PlanInput): Promise<CreatePlan> {
  const { b, mode, customer } = p;
  const engine = p.engine ?? engineOf(p.day);
  const service = findService(p.day.catalog.services, b.service_id);
  checkPlace(engine, b.room_id, b.table_ids);
  const settings = resolveSettings(ctx.property.settings);
  const decided = decide(engine, service, b, { mode, settings, spread: p.spread });
  const row = newRow(ctx, p, service, decided, customer);
  const change: ReservationChange = {
    ctx,
    before: null,
    after: storedRow(row, customer),
    reservationId: repo.NEW_RESERVATION_ID,
    version: 0,
    action: "created",
    releasesTables: false,
  };
  Object.assign(row, await amendments(change));
  change.after = storedRow(row, customer);
  const spans = HOLDING.has(decided.status)
    ? holdSpans(engine, decided.tables, row.startMin, decided.stay)
    : [];
  const history: repo.HistoryEntry = {
    actor: ctx.actor,
    action: "created",
    fromStatus: null,
    toStatus: decided.status,
    changes: { status: [null, decided.status], ...p.extras.history },
  };
  const limit = guestLimit(mode, settings, b.customer);
  const names = catalogNames(engine.catalog, service, row);
  return { row, customer, spans, history, follow: await reactionStatements(change), limit, change, names };
}

/** The service, room and tables a new reservation names, from the catalog the engine decided on. */
function catalogNames(
  catalog: Catalog,
  service: EngineService,
  row: Pick<NewRow, "roomId" | "tableIds">,
): repo.CatalogNames {
  const room = catalog.rooms.find((r) => r.id === row.roomId);
  const tables = (row.tableIds ?? []).flatMap((id) => catalog.tables.filter((t) => t.id === id));
  return {
    services: new Map([[service.id, service]]),
    rooms: new Map(room ? [[room.id, room]] : []),
    tables: new Map(tables.map((t) => [t.id, t])),
  };
}

async function commitCreate(ctx: BookingContext, plan: CreatePlan, related: boolean): Promise<Created> {
  const names = related ? plan.names : undefined;
  const {
    row,
    related: read,
    followed,
  } = await repo.insertReservation(
    ctx.db,
    plan.row,
    plan.customer,
    plan.spans,
    plan.history,
    plan.follow.statements,
    { limit: plan.limit, names },
  );
  afterCommit(plan.change, row, plan.follow, followed);
  return { row, related: read };
}

/** The engine's decision: a waiting party takes no table; anyone else the best free one (or those named). */
function decide(
  engine: Availability,
  service: EngineService,
  b: CreateInput,
  o: { mode: Mode; settings: EngineSettings; spread: number | undefined },
): Decided {
  const { mode, spread } = o;
  const start = localMinutes(b.start_date, b.start_hour);
  const stay = b.duration ?? stayMinutes(b.pax, o.settings, service);
  if (b.waiting_list) {
    const refused = engine.checkTime(service, b.start_date, start, b.pax, mode, stay);
    if (refused) throw refusal(refused, `this time cannot be booked (${refused.replace(/_/g, " ")})`);
    const tables = (b.table_ids ?? []).map((id) => engine.catalog.tables.find((t) => t.id === id)!);
    return { status: "WAITING", tables, stay };
  }
  const block = isBlock(b);
  // A staff block is no arrival: pacing does not count it.
  const overridePacing = block || b.override_pacing;
  const decision = engine.decide({
    service,
    date: b.start_date,
    start,
    pax: b.pax,
    mode,
    stay,
    roomId: b.room_id,
    tableIds: b.table_ids,
    overridePacing,
    spread,
  });
  if (!decision.ok)
    throw refusal(decision.refusal, decision.detail, { why: decision.why, tableIds: decision.tableIds });
  const pays = service.prepaymentWindow || asksPayment(service.payment, b.pax);
  const status: ReservationStatus = block ? "OUTOFORDER" : pays ? "PREPAY" : "ACCEPTED";
  return { status, tables: decision.tables, stay: decision.stay };
}

function newRow(
  ctx: BookingContext,
  p: PlanInput,
  service: EngineService,
  d: Decided,
  customer: CustomerPlan | undefined,
): NewRow {
  const { b, extras } = p;
  const at = nowIso();
  const start = localMinutes(b.start_date, b.start_hour);
  return {
    propertyId: ctx.property.id,
    serviceId: service.id,
    roomId: d.tables[0]?.roomId ?? b.room_id ?? null,
    startDate: b.start_date,
    startHour: b.start_hour,
    startMin: start,
    endMin: start + d.stay,
    waitUntilMin: d.status === "WAITING" ? (extras.waitUntilMin ?? null) : null,
    pax: b.pax,
    status: d.status,
    channel: p.channel,
    waitingList: d.status === "WAITING",
    notes: b.notes ?? null,
    specialRequest: b.special_request ?? null,
    occasion: b.occasion ?? null,
    allergies: b.allergies ?? null,
    guest: customer?.guest ?? null,
    overridePacing: p.mode === "staff" && !!b.override_pacing,
    tableIds: d.tables.map((t) => t.id),
    paymentDueAt: d.status === "PREPAY" ? addSeconds(at, dueMinutes(service, p.mode, b.pax) * 60) : null,
    payment:
      d.status === "PREPAY" && asksPayment(service.payment, b.pax)
        ? newPayment(service.payment, b.pax)
        : null,
    lastStatusChange: at,
    catalogVersion: p.day.catalogVersion,
    manageTokenHash: extras.manageTokenHash ?? null,
    manageNonce: extras.manageTokenHash ? (extras.manageNonce ?? null) : null,
    notifyGuest: b.notify ?? true,
    guestLocale: b.locale ?? null,
    searchengineUserId: extras.searchengine?.userId ?? null,
    searchengineToken: extras.searchengine?.token ?? null,
  };
}

/**
 * Minutes a PREPAY booking has to pay: the service's window; a service that takes payment through
 * Stripe without one gives 15 minutes online and 24 hours to a booking made by staff or an
 * integrator (the guest pays from the emailed link).
 */
function dueMinutes(service: EngineService, mode: Mode, pax: number): number {
  if (!asksPayment(service.payment, pax)) return service.prepaymentWindow ?? 0;
  return paymentWindow(service.prepaymentWindow, mode === "online");
}

/** The new row as a read will show it, for the reactions (no id yet). */
function storedRow(row: NewRow, customer: CustomerPlan | undefined): ReservationRow {
  return {
    checkinDate: null,
    checkoutDate: null,
    expirationDate: null,
    checkinPrevStatus: null,
    checkoutPrevStatus: null,
    statusReason: null,
    ...row,
    id: 0,
    version: 0,
    customerId: customer?.existing?.id ?? null,
    customerSnapshot: customer ? repo.customerSnapshot(customer) : null,
  } as ReservationRow;
}

/**
 * The per-guest limit of an online booking (the setting max_online_bookings_per_guest): staff
 * bookings, and a property without a limit, have none.
 */
function guestLimit(
  mode: Mode,
  settings: Settings,
  customer: CreateInput["customer"],
): repo.GuestLimit | undefined {
  const max = settings.max_online_bookings_per_guest;
  if (mode !== "online" || max === null || !customer || (!customer.email && !customer.phone))
    return undefined;
  return {
    email: customer.email?.toLowerCase() ?? null,
    phone: customer.phone ?? null,
    nowMin: zonedParts(settings.timezone, now()).minutes,
    maxBookings: max,
  };
}
