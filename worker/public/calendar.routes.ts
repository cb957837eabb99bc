/**
 * GET /api/v2/public/{public_key}/manage/{token}/calendar.ics: the guest's reservation as the
 * calendar entry its emails carry (CONTRACT 13): the same UID, the current SEQUENCE, METHOD
 * REQUEST, or CANCEL once it is cancelled.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { resolveSettings, type ReservationStatus } from "../../shared/schemas";
import { config } from "../config";
import { nowIso } from "../lib/clock";
import { errorResponses } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { restaurantOf } from "../messages/delivery";
import { snapshotOf } from "../messages/plan";
import { calendarEntry } from "../messages/render";
import { factsOf } from "../messages/facts";
import { FINAL } from "../reservations/machine";
import { findManaged } from "./guest";
import { guestProperty, ManageParam, PRIVATE } from "./public.routes";

const calendarRoute = createRoute({
  tags: ["public"],
  method: "get",
  path: "/{public_key}/manage/{token}/calendar.ics",
  summary: "The guest's reservation as a calendar entry",
  description:
    "iCalendar (RFC 5545): the restaurant's TZID with its VTIMEZONE, a UID stable per reservation, SEQUENCE rising with every change, " +
    "METHOD REQUEST, or CANCEL once the reservation is cancelled. The entry the confirmation, change and cancellation emails carry.",
  request: { params: ManageParam },
  responses: {
    200: { content: { "text/calendar": { schema: z.string().openapi({ example: "BEGIN:VCALENDAR\r\n…" }) } }, description: "the calendar entry" },
    ...errorResponses("property_not_found", "reservation_not_found"),
  },
});

export const calendarRouter = createRouter().openapi(calendarRoute, async (c) => {
  const { public_key, token } = c.req.valid("param");
  const property = await guestProperty(c, public_key);
  const found = await findManaged(c.get("db"), property, token);
  const settings = resolveSettings(property.settings);
  const cfg = config(c.env);
  const cancelled = FINAL.has(found.row.status as ReservationStatus);
  const method = cancelled ? "CANCEL" : "REQUEST";
  const facts = factsOf(found.row);
  const ics = calendarEntry(
    {
      snapshot: snapshotOf({ ...facts, guest: found.guest ?? facts.guest }, method),
      sequence: found.row.version,
      writtenAt: Date.parse(nowIso()),
      reservationId: found.row.id,
      restaurant: restaurantOf(property as unknown as Record<string, unknown>, settings.timezone, settings.cancel_notice),
      service: found.serviceName,
      links: { manage: `${cfg.publicOrigin}/p/${encodeURIComponent(property.publicKey)}/manage/${token}` },
      domain: new URL(cfg.publicOrigin).hostname,
      organizer: cfg.emailFrom,
      locale: facts.locale ?? settings.locale,
    },
    method,
  );
  return c.body(ics, 200, { ...PRIVATE, "Content-Type": "text/calendar; charset=utf-8", "Content-Disposition": 'attachment; filename="reservation.ics"' });
});
