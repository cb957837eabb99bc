/**
 * The walk-in waiting list: the parties waiting with their place and the wait estimated now, a
 * party joining (quoted a wait), told its table is ready, then seated or gone.
 */
import type { Context } from "hono";
import { resolveSettings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability, stayMinutes } from "../availability/engine";
import type { AppEnv, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { currentBackground } from "../lib/background";
import { now } from "../lib/clock";
import { localMinutes, toLocalDateTime } from "../lib/localtime";
import { restaurantObject } from "../lib/restaurant-object";
import { authoriseProperty } from "../properties/authorise";
import { getReservation } from "../reservations/reservations.repo";
import { quoteWaits } from "./quote";
import { sendReady } from "./ready";
import * as repo from "./walk-ins.repo";
import { toWalkInDto, type WalkInCloseBody, type WalkInCreateBody } from "./walk-ins.schemas";

type Ctx = Context<AppEnv>;

/** Each party's wait now, for the parties given in their order (plus one more about to join). */
async function waitsNow(c: Ctx, property: PropertyRow, parties: number[]) {
  const tz = resolveSettings(property.settings).timezone;
  const local = toLocalDateTime(tz, now());
  const [date, hour] = [local.slice(0, 10), local.slice(11, 19)];
  const { catalog, holds } = await loadAvailability(c.get("db"), property, date, date);
  const engine = new Availability(catalog, holds, now());
  const minute = localMinutes(date, hour);
  return quoteWaits({
    now: minute,
    // a table closed now (a closure of the table, its room or the whole restaurant) seats nobody
    tables: engine.usableTables("staff").filter((t) => !engine.isClosed(t, date, minute)),
    holds,
    parties,
    stay: (pax) => stayMinutes(pax, catalog.settings),
  });
}

/** Tells the restaurant's open consoles the list changed, after the answer; a lost message costs a console its next poll. */
function announceChange(propertyId: number) {
  const background = currentBackground();
  if (!background?.env.RESTAURANT) return;
  background.waitUntil(
    restaurantObject(background.env, propertyId)
      .announce({ type: "walk-ins" })
      .catch((err: unknown) => console.warn("live feed: announce failed", err)),
  );
}

export async function listWalkIns(c: Ctx, propertyId: number) {
  const property = await authoriseProperty(c, propertyId);
  const open = await repo.listOpen(c.get("db"), propertyId);
  const waits = await waitsNow(
    c,
    property,
    open.map((w) => w.pax),
  );
  return { data: open.map((w, i) => toWalkInDto(w, i + 1, waits[i] ?? null)), next_cursor: null };
}

export async function addWalkIn(c: Ctx, propertyId: number, body: WalkInCreateBody) {
  const property = await authoriseProperty(c, propertyId);
  const db = c.get("db");
  const open = await repo.listOpen(db, propertyId);
  const waits = await waitsNow(c, property, [...open.map((w) => w.pax), body.pax]);
  const quoted = waits.at(-1) ?? null;
  const row = await repo.insertWalkIn(db, propertyId, fieldsOf(body), quoted);
  announceChange(propertyId);
  return { data: [toWalkInDto(row, open.length + 1, quoted)] };
}

const fieldsOf = (b: WalkInCreateBody) => ({
  pax: b.pax,
  name: b.name || null,
  email: b.email ?? null,
  phone: b.phone ?? null,
  notes: b.notes || null,
});

async function openWalkIn(c: Ctx, propertyId: number, id: number) {
  const row = await repo.getWalkIn(c.get("db"), propertyId, id);
  if (!row) throw new ApiError("walk_in_not_found", `walk-in ${id} does not exist`);
  if (row.closedAt) throw new ApiError("walk_in_closed", `walk-in ${id} was ${row.state} already`);
  return row;
}

/** POST .../walk-ins/{id}/ready: the party is told, by each channel that reaches it, and marked told. */
export async function tellReady(c: Ctx, propertyId: number, id: number) {
  const property = await authoriseProperty(c, propertyId);
  const row = await openWalkIn(c, propertyId, id);
  const { sent, failed } = await sendReady(c.env, property, row);
  const told = await repo.markNotified(c.get("db"), id);
  if (!told) throw new ApiError("walk_in_closed", `walk-in ${id} was closed meanwhile`);
  announceChange(propertyId);
  return { data: [{ walk_in: toWalkInDto(told, null, null), sent, failed }] };
}

/** PATCH .../walk-ins/{id}: seated (with the reservation that seated them) or gone. */
export async function closeWalkIn(c: Ctx, propertyId: number, id: number, body: WalkInCloseBody) {
  await authoriseProperty(c, propertyId);
  await openWalkIn(c, propertyId, id);
  const reservationId = body.state === "seated" ? (body.reservation_id ?? null) : null;
  if (reservationId !== null) {
    const reservation = await getReservation(c.get("db"), reservationId);
    if (reservation?.propertyId !== propertyId)
      throw new ApiError("reservation_not_found", `reservation ${reservationId} does not exist`);
  }
  const closed = await repo.closeWalkIn(c.get("db"), id, body.state, reservationId);
  if (!closed) throw new ApiError("walk_in_closed", `walk-in ${id} was closed meanwhile`);
  announceChange(propertyId);
  return { data: [toWalkInDto(closed, null, null)] };
}
