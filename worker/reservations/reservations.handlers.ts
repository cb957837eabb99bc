/** What the reservation routes do with a validated request: the booking rules decide, the DTOs answer. */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type ReservationStatus, resolveSettings } from "../../shared/schemas";
import { namedActors } from "../audit/actors.repo";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { localMinutes, zonedParts } from "../lib/localtime";
import { decodeCursor, page } from "../lib/pagination";
import { propertyFromWire, type Restaurant, restaurantObject } from "../lib/restaurant-object";
import { act, type BookingContext, requireReservation, updateReservation } from "./booking";
import { locator } from "./locate";
import type { Action } from "./machine";
import { takePreloaded } from "./preload";
import { present, toHistoryDto } from "./reservations.dto";
import * as repo from "./reservations.repo";
import type { ListQuery, ReservationCreate, ReservationUpdate } from "./reservations.schemas";

type Step = Extract<Action["type"], "checkin" | "undo_checkin" | "checkout" | "undo_checkout">;

/** Where a change's batch hands the outbox rows it took: to this request, whose dispatch attempts them after the answer. */
const outboxOf = (c: Context<AppEnv>) => ({
  took: (answered: readonly unknown[]) => c.set("outboxTaken", [...(c.get("outboxTaken") ?? []), answered]),
});

/** The caller as the booking rules know it: the client acting on its property, and where else its reservations live. */
export function bookingContext(c: Context<AppEnv>): BookingContext {
  const client = c.get("client");
  return {
    db: c.get("db"),
    property: c.get("property"),
    actor: client.actor,
    locateElsewhere: locator(c.env, c.get("control"), client.id, client.propertyId),
    linkSecret: config(c.env).linkSecret,
    outbox: outboxOf(c),
    preloaded: takePreloaded(c),
  };
}

/** The list's query as the repository filters it: days as local minutes, `incoming` from now on. */
function listFilters(
  q: z.output<typeof ListQuery>,
  here: { date: string; minutes: number },
): repo.ListFilters {
  return {
    fromMin: q.start_date
      ? localMinutes(q.start_date)
      : q.customer_id === undefined
        ? localMinutes(here.date)
        : undefined,
    toMin: q.end_date ? localMinutes(q.end_date) + 1440 : undefined,
    startHour: q.start_hour,
    statuses: [...new Set([...(q["status[]"] ?? []), ...(q.status ?? [])])],
    serviceIds: q["service_ids[]"],
    roomIds: q["room_ids[]"],
    textSearch: q.text_search,
    customerId: q.customer_id,
    incomingFrom: q.incoming ? here.minutes : undefined,
    arrived: q.arrived,
    departed: q.departed,
    after: decodeCursor(q.next_cursor, z.object({ s: z.number().int(), id: z.number().int() })),
  };
}

export async function list(c: Context<AppEnv>, q: z.output<typeof ListQuery>) {
  const property = c.get("property");
  const here = zonedParts(resolveSettings(property.settings).timezone, now());
  const rows = await repo.listReservations(c.get("db"), property.id, listFilters(q, here), q.limit);
  const result = page(rows, q.limit, (r) => ({ s: r.startMin, id: r.id }));
  return c.json({ data: await present(c, result.data, "start_date"), next_cursor: result.next_cursor }, 200);
}

/**
 * Through the restaurant's booking desk, in its Durable Object (worker/restaurant/desk.ts): a
 * party that cannot fit is refused without a write. The request has not read its property's row
 * (bookedAtDesk): the desk reads and checks it with the day, and answers it with the booking and
 * what the answer names.
 */
export async function create(c: Context<AppEnv>, body: z.output<typeof ReservationCreate>) {
  const { row, related, property, bookmark, taken } = await bookAtDesk(c.env, {
    shard: c.get("shard"),
    propertyId: c.get("pendingProperty"),
    actor: c.get("client").actor,
    input: body,
    channel: body.channel ?? "PLATFORM_ADMIN",
  });
  c.set("property", property);
  if (taken.length) c.set("outboxTaken", taken);
  if (bookmark) c.header("X-D1-Bookmark", bookmark);
  return c.json({ data: await present(c, [row], "start_date", related) }, 201);
}

type Book = Restaurant["book"];

/**
 * The booking to the restaurant's object, and its answer back as the Worker's: a refusal thrown as
 * the ApiError it was, the property row and the outbox rows the commit took parsed from their text.
 */
async function bookAtDesk(env: AppEnv["Bindings"], job: Parameters<Book>[0]) {
  const answer = await restaurantObject(env, job.propertyId).book(job);
  if ("problem" in answer) throw ApiError.fromProblem(answer.problem);
  const taken: (readonly unknown[])[] = JSON.parse(answer.taken);
  return { ...answer, property: propertyFromWire(answer.property), taken };
}

export async function get(c: Context<AppEnv>, id: number) {
  const row = await requireReservation(bookingContext(c), id);
  return c.json({ data: await present(c, [row], "start_day") }, 200);
}

export async function history(c: Context<AppEnv>, id: number) {
  const row = await requireReservation(bookingContext(c), id);
  const tz = resolveSettings(c.get("property").settings).timezone;
  const entries = await repo.listHistory(c.get("db"), row.id, tz);
  const actors = await namedActors(
    c.get("control"),
    row.propertyId,
    entries.map((h) => h.actor),
  );
  return c.json({ data: entries.map((h) => toHistoryDto(h, tz, actors)) }, 200);
}

export async function update(c: Context<AppEnv>, id: number, body: z.output<typeof ReservationUpdate>) {
  const row = await updateReservation(bookingContext(c), id, body);
  return c.json({ data: await present(c, [row], "start_day") }, 200);
}

/** A status move; a waiting party accepted without a free table is 403 "resource not available". */
export async function changeStatus(c: Context<AppEnv>, id: number, to: ReservationStatus) {
  const row = await act(bookingContext(c), id, { type: "status", to }, "resource_not_available");
  return c.json({ data: await present(c, [row], "start_day") }, 200);
}

/** Check-in, check-out, or the undo of either. */
export async function step(c: Context<AppEnv>, id: number, type: Step) {
  const row = await act(bookingContext(c), id, { type });
  return c.json({ data: await present(c, [row], "start_day") }, 200);
}

export async function cancel(c: Context<AppEnv>, id: number) {
  const row = await act(bookingContext(c), id, { type: "cancel" });
  return c.json({ data: [row.id] }, 200);
}
