/**
 * The guest's reservation as the calendar entry its emails carry: the same UID, the current
 * SEQUENCE, METHOD REQUEST, or CANCEL once it is cancelled.
 */
import type { Context } from "hono";
import { type ReservationStatus, resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { AppEnv } from "../env";
import { nowIso } from "../lib/clock";
import { restaurantOf } from "../messages/delivery";
import { factsOf } from "../messages/facts";
import { snapshotOf } from "../messages/plan";
import { calendarEntry } from "../messages/render";
import { FINAL } from "../reservations/machine";
import { guestProperty, PRIVATE } from "./access";
import { findManaged } from "./guest";

export async function calendar(
  c: Context<AppEnv>,
  { public_key, token }: { public_key: string; token: string },
) {
  const property = await guestProperty(c, public_key);
  const found = await findManaged(c.get("db"), property, token);
  const settings = resolveSettings(property.settings);
  const cfg = config(c.env);
  const method = FINAL.has(found.row.status as ReservationStatus) ? "CANCEL" : "REQUEST";
  const facts = factsOf(found.row);
  const ics = calendarEntry(
    {
      snapshot: snapshotOf({ ...facts, guest: found.guest ?? facts.guest }, settings.timezone, method),
      sequence: found.row.version,
      writtenAt: Date.parse(nowIso()),
      reservationId: found.row.id,
      restaurant: restaurantOf(property, settings),
      service: found.serviceName,
      links: { manage: `${cfg.publicOrigin}/p/${encodeURIComponent(property.publicKey)}/manage/${token}` },
      domain: new URL(cfg.publicOrigin).hostname,
      organizer: cfg.emailFrom,
      locale: facts.locale ?? settings.locale,
    },
    method,
  );
  return c.body(ics, 200, {
    ...PRIVATE,
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'attachment; filename="reservation.ics"',
  });
}
