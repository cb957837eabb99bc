/** /reservations: the contracts of the reservation routes and of a reservation's history, bound to their handlers. */
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import type { ErrorCode } from "../errors";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  listEnvelope,
  PROPERTY_SCOPED,
  propertyHeader,
  ReservationIdParam,
} from "../lib/openapi";
import { queryBoolean } from "../lib/query";
import { createRouter } from "../lib/router";
import { parseStatusTarget } from "./machine";
import * as h from "./reservations.handlers";
import {
  HistoryItem,
  ListQuery,
  Reservation,
  ReservationCreate,
  ReservationListItem,
  ReservationUpdate,
} from "./reservations.schemas";

const base = { tags: ["Reservations"], security: bearerSecurity };
const scoped = [...PROPERTY_SCOPED] as ErrorCode[];
const idempotent = ["idempotency_key_in_use", "idempotency_key_reused"] as ErrorCode[];
const one = (description: string) => json(envelope(Reservation), description);

const listRoute = createRoute({
  ...base,
  method: "get",
  path: "/",
  summary: "List reservations",
  description:
    "From start_date (default: today in the property's zone) to end_date inclusive, ordered by start then id. " +
    "customer_id gives one guest's reservations, on any day unless start_date or end_date narrows them. " +
    "status[], service_ids[] and room_ids[] take repeated keys.",
  request: { headers: propertyHeader, query: ListQuery },
  responses: {
    200: json(listEnvelope(ReservationListItem), "a page of reservations"),
    ...errorResponses(...scoped),
  },
});

const getRoute = createRoute({
  ...base,
  method: "get",
  path: "/{reservation_id}",
  summary: "Find a reservation by id",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: {
    200: one("the reservation"),
    ...errorResponses(...scoped, "reservation_not_available", "reservation_not_found"),
  },
});

const historyRoute = createRoute({
  ...base,
  method: "get",
  path: "/{reservation_id}/history",
  summary: "Every change of a reservation",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: {
    200: json(envelope(HistoryItem), "oldest first"),
    ...errorResponses(...scoped, "reservation_not_available", "reservation_not_found"),
  },
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
    '(not PLATFORM_ADMIN) keeps to the restaurant\'s max_online_bookings_per_guest (403 "guest booking limit reached").',
  request: {
    headers: propertyHeader,
    body: { content: { "application/json": { schema: ReservationCreate } }, required: true },
  },
  responses: {
    201: json(envelope(ReservationListItem), "the created reservation"),
    ...errorResponses(...scoped, ...WRITE_ERRORS, "guest_booking_limit", ...idempotent),
  },
});

const updateRoute = createRoute({
  ...base,
  method: "put",
  path: "/{reservation_id}",
  summary: "Update a reservation",
  description:
    "Partial. A move (day, hour, party, service, room, tables) is checked again, ignoring the reservation itself.",
  request: {
    headers: propertyHeader,
    params: ReservationIdParam,
    body: { content: { "application/json": { schema: ReservationUpdate } }, required: true },
  },
  responses: {
    200: one("the updated reservation"),
    ...errorResponses(
      ...scoped,
      ...WRITE_ERRORS,
      "reservation_not_available",
      "reservation_not_found",
      "service_unavailable",
      ...idempotent,
    ),
  },
});

const statusQuery = z.object({
  status: z
    .string()
    .transform((v, ctx) => {
      const target = parseStatusTarget(v);
      if (!target)
        ctx.addIssue({ code: "custom", message: "expected a reservation status (any case) or declined" });
      return target!;
    })
    .openapi({
      param: { name: "status", in: "query" },
      type: "string",
      example: "accepted",
      description: "accepted, confirmed, declined (= REJECTED), cancelled, expired...",
    }),
});

const statusRoute = (path: string, summary: string) =>
  createRoute({
    ...base,
    method: "patch",
    path,
    summary,
    description:
      'Only the moves the reservation\'s status allows (403 "reservation not available" otherwise). Accepting a waiting-list reservation needs a free table: its own, else the best choice.',
    request: { headers: propertyHeader, params: ReservationIdParam, query: statusQuery },
    responses: {
      200: one("the reservation"),
      ...errorResponses(
        ...scoped,
        "reservation_not_available",
        "resource_not_available",
        "reservation_not_found",
        ...idempotent,
      ),
    },
  });

const undoQuery = z.object({
  undo: queryBoolean
    .optional()
    .openapi({ param: { name: "undo", in: "query" }, description: "true: reverse a step made by mistake" }),
});

const CHECKIN = {
  description:
    "A party is checked in on its day: from three hours before its start (the restaurant's clock) until the end of the local day it starts on, or of its stay if later. Earlier: 409 `checkin_too_early`; later: 409 `checkin_too_late`; both carry `checkin_opens_at` and `checkin_closes_at`. The undo is always possible.",
  codes: ["checkin_too_early", "checkin_too_late"] as ErrorCode[],
};

const stepRoute = (
  path: "/{reservation_id}/checkin" | "/{reservation_id}/checkout",
  summary: string,
  more: { description?: string; codes?: ErrorCode[] } = {},
) =>
  createRoute({
    ...base,
    method: "patch",
    path,
    summary,
    description: more.description,
    request: { headers: propertyHeader, params: ReservationIdParam, query: undoQuery },
    responses: {
      200: one("the reservation"),
      ...errorResponses(
        ...scoped,
        "reservation_not_available",
        "table_not_available",
        "reservation_not_found",
        ...(more.codes ?? []),
        ...idempotent,
      ),
    },
  });

const deleteRoute = createRoute({
  ...base,
  method: "delete",
  path: "/{reservation_id}",
  summary: "Cancel a reservation",
  description:
    "The reservation becomes CANCELLED and releases its tables; the record is kept. Answers the id alone, " +
    '`{"data": [id]}`, not the reservation (GET it for its state). Repeating it changes nothing.',
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: {
    200: json(
      envelope(z.number().int()).openapi({ example: { data: [42] } }),
      '`{"data": [id]}`: the id of the cancelled reservation, not the reservation',
    ),
    ...errorResponses(...scoped, "reservation_not_available", "reservation_not_found"),
  },
});

/** PATCH status, on both paths the API documents. */
const changeStatus: RouteHandler<ReturnType<typeof statusRoute>, AppEnv> = (c) =>
  h.changeStatus(c, c.req.valid("param").reservation_id, c.req.valid("query").status);

export const reservationsRouter = createRouter()
  .openapi(listRoute, (c) => h.list(c, c.req.valid("query")))
  .openapi(createRouteDef, (c) => h.create(c, c.req.valid("json")))
  .openapi(getRoute, (c) => h.get(c, c.req.valid("param").reservation_id))
  .openapi(historyRoute, (c) => h.history(c, c.req.valid("param").reservation_id))
  .openapi(updateRoute, (c) => h.update(c, c.req.valid("param").reservation_id, c.req.valid("json")))
  .openapi(statusRoute("/{reservation_id}", "Change the status of a reservation"), changeStatus)
  .openapi(
    statusRoute("/{reservation_id}/status", "Change the status of a reservation (its /status path)"),
    changeStatus,
  )
  .openapi(
    stepRoute("/{reservation_id}/checkin", "Check a reservation in (undo=true reverses it)", CHECKIN),
    (c) =>
      h.step(c, c.req.valid("param").reservation_id, c.req.valid("query").undo ? "undo_checkin" : "checkin"),
  )
  .openapi(stepRoute("/{reservation_id}/checkout", "Check a reservation out (undo=true reverses it)"), (c) =>
    h.step(c, c.req.valid("param").reservation_id, c.req.valid("query").undo ? "undo_checkout" : "checkout"),
  )
  .openapi(deleteRoute, (c) => h.cancel(c, c.req.valid("param").reservation_id));
