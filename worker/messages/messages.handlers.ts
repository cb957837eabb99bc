/** A reservation's emails, for the client acting on its property. */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { requireReservation } from "../reservations/booking";
import { bookingContext } from "../reservations/reservations.handlers";
import { listMessages } from "./messages.repo";
import { toMessageDto } from "./messages.schemas";

export async function listReservationMessages(c: Context<AppEnv>, reservationId: number) {
  const ctx = bookingContext(c);
  const row = await requireReservation(ctx, reservationId);
  const domain = config(c.env).emailFrom.split("@")[1]!;
  return c.json(
    { data: (await listMessages(c.get("db"), row.id)).map((m) => toMessageDto(m, domain)) },
    200,
    { "Cache-Control": "no-store" },
  );
}
