/**
 * The floor at one time (GET /bookings/rooms): the service running then, and of every table
 * whether it is free for the party, closed, and the one the engine would give. Staff rules
 * apply: offline tables count.
 */
import type { Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { now } from "../lib/clock";
import { localMinutes } from "../lib/localtime";
import { toBookingRooms } from "./availability.dto";
import { loadAvailability } from "./availability.repo";
import type { RoomsQuestion } from "./availability.schemas";
import {
  Availability,
  bestChoice,
  type EngineService,
  serviceDayOf,
  serviceRunsOn,
  serviceSpan,
  stayMinutes,
} from "./engine";
import { namedService } from "./listing";

/** Whether the service runs at `start`, by its service day: 00:30 belongs to last night's service when it runs past midnight. */
function runsAt(s: EngineService, start: number): boolean {
  const day = serviceDayOf(s, start);
  const [first, last] = serviceSpan(s, day);
  return serviceRunsOn(s, day) && start >= first && start <= last;
}

/** The service named (it must run then), or the first enabled one that runs then. */
function serviceAt(services: EngineService[], q: RoomsQuestion, start: number): EngineService {
  if (q.service_id !== undefined) {
    const service = namedService(services, q.service_id, false);
    if (!runsAt(service, start))
      throw new ApiError(
        "no_service_available",
        `service ${service.id} does not run at ${q.start_date} ${q.start_hour}`,
      );
    return service;
  }
  const service = services.find((s) => s.enabled && runsAt(s, start));
  if (!service)
    throw new ApiError("no_service_available", `no service runs at ${q.start_date} ${q.start_hour}`);
  return service;
}

export async function floorAt(db: Db, property: PropertyRow, q: RoomsQuestion) {
  const { catalog, holds } = await loadAvailability(db, property, q.start_date, q.start_date);
  const engine = new Availability(catalog, holds, now());
  const start = localMinutes(q.start_date, q.start_hour);
  const service = serviceAt(catalog.services, q, start);
  const stay = stayMinutes(q.pax, catalog.settings, service);
  if (!engine.usableTables("staff").some((t) => t.guestsMin <= q.pax && q.pax <= t.guestsMax)) {
    throw new ApiError("no_room_available", `no bookable table seats a party of ${q.pax}`, { status: 206 });
  }
  const best = q.best_choice
    ? bestChoice(
        engine.freeTables({
          pax: q.pax,
          start,
          stay,
          date: q.start_date,
          mode: "staff",
          serviceId: service.id,
        }),
        q.pax,
      )
    : undefined;
  return toBookingRooms(property.id, catalog, (t) => ({
    free: engine.isFree(t, start, stay),
    closed: engine.isClosed(t, q.start_date, start, service.id, stay),
    best_choice: best?.id === t.id,
  }));
}
