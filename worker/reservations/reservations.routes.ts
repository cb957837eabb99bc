/** /reservations: the reservation routes and a reservation's history. */
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { AppEnv } from "../env";
import { type ErrorCode } from "../errors";
import { now } from "../lib/clock";
import { localMinutes, toLocalDateTime, zonedParts } from "../lib/localtime";
import { bearerSecurity, envelope, errorResponses, json, ReservationIdParam, listEnvelope, PROPERTY_SCOPED, propertyHeader } from "../lib/openapi";
import { decodeCursor, page } from "../lib/pagination";
import { queryBoolean } from "../lib/query";
import { createRouter } from "../lib/router";
import { act, type BookingContext, createReservation, requireReservation, updateReservation } from "./booking";
import { locator } from "./locate";
import { parseStatusTarget } from "./machine";
import * as repo from "./reservations.repo";
import { HistoryItem, ListQuery, Reservation, ReservationCreate, ReservationListItem, ReservationUpdate, toReservationDto } from "./reservations.schemas";

const base = { tags: ["Reservations"], security: bearerSecurity };
const scoped = [...PROPERTY_SCOPED] as ErrorCode[];
const idempotent = ["idempotency_key_in_use", "idempotency_key_reused"] as ErrorCode[];
const one = (description: string) => json(envelope(Reservation), description);

function bookingContext(c: Context<AppEnv>): BookingContext {
  const client = c.get("client");
  return {
    db: c.get("db"),
    property: c.get("property"),
    actor: `client:${client.id}`,
    locateElsewhere: locator(c.env, c.get("control"), client.id, client.propertyId),
    linkSecret: config(c.env).linkSecret,
  };
}

/** The response of reservations: SPEC's start_date in lists and create, start_day in single records. */
async function present<K extends "start_date" | "start_day">(c: Context<AppEnv>, rows: repo.ReservationRow[], key: K) {
  const property = c.get("property");
  const related = await repo.loadRelated(c.get("db"), property.id, rows);
  const tz = resolveSettings(property.settings).timezone;
  return rows.map((r) => toReservationDto(r, related, tz, key));
}

const listRoute = createRoute({
  ...base,
  method: "get",
  path: "/",
  summary: "List reservations",
  description:
    "From start_date (default: today in the property's zone) to end_date inclusive, ordered by start then id. " +
    "status[], service_ids[] and room_ids[] take repeated keys.",
  request: { headers: propertyHeader, query: ListQuery },
  responses: { 200: json(listEnvelope(ReservationListItem), "a page of reservations"), ...errorResponses(...scoped) },
});

const getRoute = createRoute({
  ...base,
  method: "get",
  path: "/{reservation_id}",
  summary: "Find a reservation by id",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: { 200: one("the reservation"), ...errorResponses(...scoped, "reservation_not_available", "reservation_not_found") },
});

const historyRoute = createRoute({
  ...base,
  method: "get",
  path: "/{reservation_id}/history",
  summary: "Every change of a reservation",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: { 200: json(envelope(HistoryItem), "oldest first"), ...errorResponses(...scoped, "reservation_not_available", "reservation_not_found") },
});

const WRITE_ERRORS: ErrorCode[] = [
  "booking_slot_not_available",
  "customer_is_banned",
  "service_is_not_available",
  "room_capacity_exceeded",
  "table_not_available",
  "service_not_available",
  "service_not_found",
  "room_not_found",
  "table_not_found",
  "user_not_found",
];

const createRouteDef = createRoute({
  ...base,
  method: "post",
  path: "/",
  summary: "Create a reservation",
  description:
    "The availability check and the write are one atomic D1 batch: two requests never hold one table at one time. " +
    "Without table_ids the engine picks the best table. waiting_list true: WAITING, no table held. An online channel " +
    "(not PLATFORM_ADMIN) keeps to the restaurant's max_online_bookings_per_guest (403 \"guest booking limit reached\").",
  request: { headers: propertyHeader, body: { content: { "application/json": { schema: ReservationCreate } }, required: true } },
  responses: { 201: json(envelope(ReservationListItem), "the created reservation"), ...errorResponses(...scoped, ...WRITE_ERRORS, "guest_booking_limit", ...idempotent) },
});

const updateRoute = createRoute({
  ...base,
  method: "put",
  path: "/{reservation_id}",
  summary: "Update a reservation",
  description: "Partial. A move (day, hour, party, service, room, tables) is checked again, ignoring the reservation itself.",
  request: { headers: propertyHeader, params: ReservationIdParam, body: { content: { "application/json": { schema: ReservationUpdate } }, required: true } },
  responses: {
    200: one("the updated reservation"),
    ...errorResponses(...scoped, ...WRITE_ERRORS, "reservation_not_available", "reservation_not_found", "service_unavailable", ...idempotent),
  },
});

const statusQuery = z.object({
  status: z
    .string()
    .transform((v, ctx) => {
      const target = parseStatusTarget(v);
      if (!target) ctx.addIssue({ code: "custom", message: "expected a reservation status (any case) or declined" });
      return target!;
    })
    .openapi({ param: { name: "status", in: "query" }, type: "string", example: "accepted", description: "accepted, confirmed, declined (= REJECTED), cancelled, expired..." }),
});

const statusRoute = (path: string, summary: string) =>
  createRoute({
    ...base,
    method: "patch",
    path,
    summary,
    description: "Moves of CONTRACT 6. Accepting a waiting-list reservation needs a free table: its own, else the best choice.",
    request: { headers: propertyHeader, params: ReservationIdParam, query: statusQuery },
    responses: {
      200: one("the reservation"),
      ...errorResponses(...scoped, "reservation_not_available", "resource_not_available", "reservation_not_found", ...idempotent),
    },
  });

const undoQuery = z.object({
  undo: queryBoolean.optional().openapi({ param: { name: "undo", in: "query" }, description: "true: reverse a step made by mistake" }),
});

const stepRoute = (path: "/{reservation_id}/checkin" | "/{reservation_id}/checkout", summary: string) =>
  createRoute({
    ...base,
    method: "patch",
    path,
    summary,
    request: { headers: propertyHeader, params: ReservationIdParam, query: undoQuery },
    responses: {
      200: one("the reservation"),
      ...errorResponses(...scoped, "reservation_not_available", "table_not_available", "reservation_not_found", ...idempotent),
    },
  });

const deleteRoute = createRoute({
  ...base,
  method: "delete",
  path: "/{reservation_id}",
  summary: "Cancel a reservation",
  description: "The reservation becomes CANCELLED and releases its tables; the record is kept. Repeating it changes nothing.",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: { 200: json(envelope(z.number().int()), "the id of the cancelled reservation"), ...errorResponses(...scoped, "reservation_not_available", "reservation_not_found") },
});

/** PATCH status, on both of SPEC's paths. */
const changeStatus: RouteHandler<ReturnType<typeof statusRoute>, AppEnv> = async (c) => {
  const row = await act(bookingContext(c), c.req.valid("param").reservation_id, { type: "status", to: c.req.valid("query").status }, "resource_not_available");
  return c.json({ data: await present(c, [row], "start_day") }, 200);
};

export const reservationsRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const property = c.get("property");
    const here = zonedParts(resolveSettings(property.settings).timezone, now());
    const after = decodeCursor(q.next_cursor, z.object({ s: z.number().int(), id: z.number().int() }));
    const rows = await repo.listReservations(
      c.get("db"),
      property.id,
      {
        fromMin: localMinutes(q.start_date ?? here.date),
        toMin: q.end_date ? localMinutes(q.end_date) + 1440 : undefined,
        startHour: q.start_hour,
        statuses: [...new Set([...(q["status[]"] ?? []), ...(q.status ?? [])])],
        serviceIds: q["service_ids[]"],
        roomIds: q["room_ids[]"],
        textSearch: q.text_search,
        incomingFrom: q.incoming ? here.minutes : undefined,
        arrived: q.arrived,
        departed: q.departed,
        after,
      },
      q.limit,
    );
    const result = page(rows, q.limit, (r) => ({ s: r.startMin, id: r.id }));
    return c.json({ data: await present(c, result.data, "start_date"), next_cursor: result.next_cursor }, 200);
  })
  .openapi(createRouteDef, async (c) => {
    const body = c.req.valid("json");
    const row = await createReservation(bookingContext(c), body, body.channel ?? "PLATFORM_ADMIN");
    return c.json({ data: await present(c, [row], "start_date") }, 201);
  })
  .openapi(getRoute, async (c) => {
    const row = await requireReservation(bookingContext(c), c.req.valid("param").reservation_id);
    return c.json({ data: await present(c, [row], "start_day") }, 200);
  })
  .openapi(historyRoute, async (c) => {
    const row = await requireReservation(bookingContext(c), c.req.valid("param").reservation_id);
    const tz = resolveSettings(c.get("property").settings).timezone;
    const entries = await repo.listHistory(c.get("db"), row.id, tz);
    const data = entries.map((h) => ({
      id: h.seq,
      at: toLocalDateTime(tz, h.at, true),
      actor: h.actor,
      action: h.action,
      from_status: h.fromStatus,
      to_status: h.toStatus,
      changes: h.changes,
    }));
    return c.json({ data }, 200);
  })
  .openapi(updateRoute, async (c) => {
    const row = await updateReservation(bookingContext(c), c.req.valid("param").reservation_id, c.req.valid("json"));
    return c.json({ data: await present(c, [row], "start_day") }, 200);
  })
  .openapi(statusRoute("/{reservation_id}", "Change the status of a reservation"), changeStatus)
  .openapi(statusRoute("/{reservation_id}/status", "Change the status of a reservation (the path of SPEC's example)"), changeStatus)
  .openapi(stepRoute("/{reservation_id}/checkin", "Check a reservation in (undo=true reverses it)"), async (c) => {
    const type = c.req.valid("query").undo ? "undo_checkin" : "checkin";
    const row = await act(bookingContext(c), c.req.valid("param").reservation_id, { type });
    return c.json({ data: await present(c, [row], "start_day") }, 200);
  })
  .openapi(stepRoute("/{reservation_id}/checkout", "Check a reservation out (undo=true reverses it)"), async (c) => {
    const type = c.req.valid("query").undo ? "undo_checkout" : "checkout";
    const row = await act(bookingContext(c), c.req.valid("param").reservation_id, { type });
    return c.json({ data: await present(c, [row], "start_day") }, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const row = await act(bookingContext(c), c.req.valid("param").reservation_id, { type: "cancel" });
    return c.json({ data: [row.id] }, 200);
  });
