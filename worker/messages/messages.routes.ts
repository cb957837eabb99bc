/** GET /reservations/{reservation_id}/messages: every email a reservation made, with its state (CONTRACT 13). */
import { createRoute, z } from "@hono/zod-openapi";
import { config } from "../config";
import type { ErrorCode } from "../errors";
import { listMessages, type MessageRow } from "./messages.repo";
import { MESSAGE_STATES, MESSAGE_TEMPLATES } from "./types";
import { bearerSecurity, envelope, errorResponses, json, PROPERTY_SCOPED, propertyHeader, ReservationIdParam } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { requireReservation } from "../reservations/booking";
import { locator } from "../reservations/locate";

const Message = z
  .object({
    id: z.number().int(),
    message_id: z.string().openapi({ description: "the Message-ID header: the same on every attempt", example: "<msg_Yk3…@booking-engine.example>" }),
    template: z.enum(MESSAGE_TEMPLATES).openapi({ description: "what the message tells" }),
    recipient: z.enum(["guest", "restaurant"]),
    to: z.string().openapi({ example: "ada@example.com" }),
    locale: z.string().openapi({ example: "it" }),
    state: z.enum(MESSAGE_STATES).openapi({ description: "pending (due or retried), sent, failed (retries exhausted) or cancelled (no longer due: a reminder of a moved or cancelled reservation)" }),
    attempts: z.number().int(),
    created_at: z.string().openapi({ description: "when the change that made it was committed (UTC)" }),
    due_at: z.string().nullable().openapi({ description: "pending messages: when the next attempt is due (a reminder's time)" }),
    sent_at: z.string().nullable(),
    last_error: z.string().nullable(),
  })
  .openapi("ReservationMessage");

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
    ...errorResponses(...([...PROPERTY_SCOPED, "reservation_not_available", "reservation_not_found"] as ErrorCode[])),
  },
});

function toDto(m: MessageRow, domain: string) {
  return {
    id: m.id,
    message_id: `<${m.uid}@${domain}>`,
    template: m.template,
    recipient: m.recipient,
    to: m.toAddress,
    locale: m.locale,
    state: m.state,
    attempts: m.attempts,
    created_at: m.createdAt,
    due_at: m.state === "pending" ? m.nextAttemptAt : null,
    sent_at: m.sentAt,
    last_error: m.lastError,
  };
}

export const reservationMessagesRouter = createRouter().openapi(listRoute, async (c) => {
  const client = c.get("client");
  const ctx = { db: c.get("db"), property: c.get("property"), actor: `client:${client.id}`, locateElsewhere: locator(c.env, c.get("control"), client.id) };
  const row = await requireReservation(ctx, c.req.valid("param").reservation_id);
  const domain = config(c.env).emailFrom.split("@")[1]!;
  return c.json({ data: (await listMessages(c.get("db"), row.id)).map((m) => toDto(m, domain)) }, 200, { "Cache-Control": "no-store" });
});
