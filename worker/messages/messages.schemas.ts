/** A reservation's email as the integrator API shows it. */
import { z } from "@hono/zod-openapi";
import type { MessageRow } from "./messages.repo";
import { MESSAGE_STATES, MESSAGE_TEMPLATES } from "./types";

export const Message = z
  .object({
    id: z.number().int(),
    message_id: z.string().openapi({
      description: "the Message-ID header: the same on every attempt",
      example: "<msg_Yk3…@booking-engine.example>",
    }),
    template: z.enum(MESSAGE_TEMPLATES).openapi({ description: "what the message tells" }),
    recipient: z.enum(["guest", "restaurant"]),
    to: z.string().openapi({ example: "ada@example.com" }),
    locale: z.string().openapi({ example: "it" }),
    state: z.enum(MESSAGE_STATES).openapi({
      description:
        "pending (due or retried), sent, failed (retries exhausted) or cancelled (no longer due: a reminder of a moved or cancelled reservation)",
    }),
    attempts: z.number().int(),
    created_at: z.string().openapi({ description: "when the change that made it was committed (UTC)" }),
    due_at: z
      .string()
      .nullable()
      .openapi({ description: "pending messages: when the next attempt is due (a reminder's time)" }),
    sent_at: z.string().nullable(),
    last_error: z.string().nullable(),
  })
  .openapi("ReservationMessage");

/** A message as the API shows it; its Message-ID is the one every attempt sends. */
export function toMessageDto(m: MessageRow, domain: string) {
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
