/**
 * The guest moves their own reservation from the manage page: date, time, party
 * size or service, by the rules of an online booking. updateReservation moves the holds in one
 * batch, so the old time stays the guest's until the new one is taken; a new time taken
 * meanwhile is 409 with the nearest free ones. The change fires RESERVATION_UPDATED with
 * previous_attributes through the outbox triggers, like any update.
 */
import type { PublicChangeInput } from "../../shared/public";
import { type ReservationStatus, resolveSettings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability, type EngineService } from "../availability/engine";
import type { Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { localMinutes } from "../lib/localtime";
import { updateReservation } from "../reservations/booking";
import { FINAL } from "../reservations/machine";
import { TAKEN, timeRefusalDetail, timeTaken } from "./booking";
import { cancellableUntil, checkOnlinePax, findManaged, isOnline } from "./guest";
import { type ManagedReservation, serviceName } from "./public.repo";

type Change = Omit<PublicChangeInput, "hour"> & { hour?: string | undefined };

export async function changeManaged(
  db: Db,
  property: PropertyRow,
  token: string,
  c: Change,
): Promise<ManagedReservation> {
  const found = await findManaged(db, property, token);
  const row = found.row;
  const settings = resolveSettings(property.settings);
  if (FINAL.has(row.status as ReservationStatus))
    throw new ApiError("reservation_not_available", `a ${row.status} reservation cannot be changed`);
  if (row.checkinDate !== null)
    throw new ApiError(
      "party_arrived",
      "the restaurant has checked your party in; a reservation in progress cannot be changed online",
    );
  // Changes close when cancellations do: a guest cannot move away what they could no longer cancel.
  if (cancellableUntil(row, settings) === null)
    throw new ApiError(
      "cancel_notice_passed",
      "online changes close with online cancellation; please call the restaurant",
    );
  const target = { date: c.date ?? row.startDate, hour: c.hour ?? row.startHour, pax: c.pax ?? row.pax };
  checkOnlinePax(settings, target.pax);
  const service = await serviceFor(db, property, row.serviceId, c, target);
  try {
    const moved = await updateReservation(
      { db, property, actor: "guest" },
      row.id,
      { start_day: target.date, start_hour: target.hour, pax: target.pax, service_id: service.id },
      "online",
    );
    return { ...found, row: moved, serviceName: service.name ?? (await serviceName(db, moved.serviceId)) };
  } catch (err) {
    if (err instanceof ApiError && TAKEN.has(err.code)) throw await timeTaken(db, property, service, target);
    throw err;
  }
}

/**
 * The service of the new time: the one named, else the reservation's when it runs then, else
 * (a time of another service that day) the online service whose rules take that time.
 */
async function serviceFor(
  db: Db,
  property: PropertyRow,
  current: number | null,
  c: Change,
  t: { date: string; hour: string; pax: number },
): Promise<EngineService> {
  const { catalog, holds, arrivals } = await loadAvailability(db, property, t.date, t.date);
  const online = catalog.services.filter(isOnline);
  const engine = new Availability(catalog, holds, now(), arrivals);
  const start = localMinutes(t.date, t.hour);
  const takes = (s: EngineService) => engine.checkTime(s, t.date, start, t.pax, "online") === undefined;
  if (c.service_id !== undefined) {
    const named = online.find((s) => s.id === c.service_id);
    if (!named)
      throw new ApiError("service_not_found", `service ${c.service_id} does not take online bookings`);
    return named;
  }
  const own = online.find((s) => s.id === current);
  const service = own && takes(own) ? own : (online.find(takes) ?? own);
  if (!service)
    throw new ApiError(
      "booking_slot_not_available",
      `no service takes online bookings on ${t.date} at ${t.hour}`,
    );
  const refused = engine.checkTime(service, t.date, start, t.pax, "online");
  if (refused) throw new ApiError(refused, timeRefusalDetail(refused, resolveSettings(property.settings)));
  return service;
}
