/** The walk-in waiting list's API shapes: a party, joining it, closing it, and the mapper. */
import { z } from "@hono/zod-openapi";
import { lineField, textField } from "../../shared/schemas";
import { WALK_IN_STATES } from "../db/enums";
import { emailField, pathId } from "../lib/openapi";
import { phoneField } from "../reservations/reservations.schemas";
import type { WalkInRow } from "./walk-ins.repo";

export const WalkInIdParam = z.object({ walk_in_id: pathId("walk_in_id") });

export const WalkInSchema = z
  .object({
    id: z.number().int(),
    pax: z.number().int(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    notes: z.string().nullable(),
    state: z.enum(WALK_IN_STATES),
    position: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "1 for the first party waiting; null once seated or gone" }),
    quoted_minutes: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the wait quoted when the party joined; null: no table seats the party" }),
    wait_minutes: z.number().int().nullable().openapi({
      description:
        "the wait estimated now, from the turn times, what is seated and booked and the parties ahead (a multiple of 5); null: no table seats the party, or closed",
    }),
    notified_at: z.string().nullable().openapi({ description: "when the party was told its table is ready" }),
    reservation_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the reservation that seated the party" }),
    created_at: z.string(),
    closed_at: z.string().nullable(),
  })
  .openapi("WalkIn");

export const WalkInCreate = z
  .object({
    pax: z.number().int().min(1).max(1000),
    name: lineField(100).optional(),
    email: emailField.optional(),
    phone: phoneField.optional(),
    notes: textField(1000).optional(),
  })
  .openapi("WalkInCreate", { example: { pax: 2, name: "Ada", phone: "+39 055 123456" } });

export const WalkInClose = z
  .object({
    state: z.enum(["seated", "left"]),
    reservation_id: z.number().int().positive().optional().openapi({
      description: "seated: the walk-in reservation that seated the party (a reservation of the property)",
    }),
  })
  .openapi("WalkInClose");

export const ReadySchema = z
  .object({
    walk_in: WalkInSchema,
    sent: z.array(z.enum(["email", "sms"])).openapi({ description: "the channels that took the news" }),
    failed: z
      .array(z.enum(["email", "sms"]))
      .openapi({ description: "the channels that could not send it: the host tells the party otherwise" }),
  })
  .openapi("WalkInReady");

export type WalkInCreateBody = z.infer<typeof WalkInCreate>;
export type WalkInCloseBody = z.infer<typeof WalkInClose>;

export function toWalkInDto(w: WalkInRow, position: number | null, wait: number | null) {
  return {
    id: w.id,
    pax: w.pax,
    name: w.name,
    email: w.email,
    phone: w.phone,
    notes: w.notes,
    state: w.state,
    position,
    quoted_minutes: w.quotedMinutes,
    wait_minutes: wait,
    notified_at: w.notifiedAt,
    reservation_id: w.reservationId,
    created_at: w.createdAt,
    closed_at: w.closedAt,
  };
}
