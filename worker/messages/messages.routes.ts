/** GET /reservations/{reservation_id}/messages: the contract of a reservation's emails, with their states. */
import { createRoute } from "@hono/zod-openapi";
import type { ErrorCode } from "../errors";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  PROPERTY_SCOPED,
  propertyHeader,
  ReservationIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { listReservationMessages } from "./messages.handlers";
import { Message } from "./messages.schemas";

const listRoute = createRoute({
  tags: ["Reservations"],
  security: bearerSecurity,
  method: "get",
  path: "/{reservation_id}/messages",
  summary: "The emails of a reservation",
  description:
    "Every message the reservation's changes made, oldest first: to the guest (confirmation or waiting list, change, cancellation, reminder, " +
    "waiting-list offer) and to the restaurant (online bookings and cancellations), each with its state. A message is written in the same " +
    "batch as its change, sent at least once and never twice (one Message-ID), and retried on failure.",
  request: { headers: propertyHeader, params: ReservationIdParam },
  responses: {
    200: json(envelope(Message), "oldest first"),
    ...errorResponses(
      ...([...PROPERTY_SCOPED, "reservation_not_available", "reservation_not_found"] as ErrorCode[]),
    ),
  },
});

export const reservationMessagesRouter = createRouter().openapi(listRoute, (c) =>
  listReservationMessages(c, c.req.valid("param").reservation_id),
);
