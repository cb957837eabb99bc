/** /services and /closures of the property named by the Property header (CONTRACT 4). */
import { z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import { dateString, hourString, httpUrl, resolveSettings } from "../../shared/schemas";
import type { Db } from "../env";
import { ApiError, invalidField as invalid } from "../errors";
import { catalogRoutes, namesNothing } from "../lib/crud";
import { decodeCursor, idCursor, page } from "../lib/pagination";
import * as repo from "./catalog.repo";
import type { ClosureRow, ServiceRow } from "./catalog.repo";

// shared/ schemas are plain zod (made before the OpenAPI extension): no .openapi() on them.
const hour = hourString;
const date = dateString;
const minutes = z.number().int().min(5).max(1440);
const pax = z.number().int().min(1).max(1000);
const weekdays = z
  .array(z.number().int().min(1).max(7))
  .min(1)
  .max(7)
  .refine((d) => new Set(d).size === d.length, "weekdays must not repeat")
  .openapi({ description: "ISO weekdays: 1 = Monday .. 7 = Sunday", example: [2, 3, 4, 5, 6, 7] });

export const ServiceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    weekdays: z.array(z.number().int()),
    start_hour: z.string().openapi({ description: "first bookable start" }),
    end_hour: z.string().openapi({ description: "last bookable start; earlier than start_hour: the service runs past midnight" }),
    slot_interval: z.number().int().nullable().openapi({ description: "overrides the property's slot_interval" }),
    average_stay: z.number().int().nullable().openapi({ description: "overrides the property's average_stay" }),
    pax_min: z.number().int(),
    pax_max: z.number().int().nullable(),
    online: z.boolean(),
    enabled: z.boolean(),
    valid_from: z.string().nullable(),
    valid_to: z.string().nullable(),
    prepayment_window: z.number().int().nullable().openapi({ description: "minutes a guest has to pay: new reservations start PREPAY and expire unpaid after it; null: no prepayment" }),
    pacing_interval: z.number().int().openapi({ description: "pacing: the length of an interval in minutes, counted from start_hour (default 15)" }),
    max_covers_per_interval: z.number().int().nullable().openapi({ description: "pacing: at most so many guests may arrive in one interval; null: no limit" }),
    max_parties_per_interval: z.number().int().nullable().openapi({ description: "pacing: at most so many parties may arrive in one interval; null: no limit" }),
  })
  .openapi("Service");

const serviceFields = {
  description: z.string().trim().max(5000).nullable().optional(),
  image_url: httpUrl.nullable().optional(),
  weekdays: weekdays.optional(),
  slot_interval: minutes.nullable().optional(),
  average_stay: minutes.nullable().optional(),
  pax_min: pax.optional(),
  pax_max: pax.nullable().optional(),
  online: z.boolean().optional(),
  enabled: z.boolean().optional(),
  valid_from: date.nullable().optional(),
  valid_to: date.nullable().optional(),
  prepayment_window: z.number().int().min(1).max(10080).nullable().optional(),
  pacing_interval: z.number().int().min(5).max(240).optional(),
  max_covers_per_interval: z.number().int().min(1).max(10000).nullable().optional(),
  max_parties_per_interval: z.number().int().min(1).max(10000).nullable().optional(),
};
const ServiceCreate = z
  .object({ name: z.string().trim().min(1).max(100), start_hour: hour, end_hour: hour, ...serviceFields })
  .openapi("ServiceCreate", {
    example: { name: "Dinner", start_hour: "19:00:00", end_hour: "22:00:00", weekdays: [2, 3, 4, 5, 6, 7], pacing_interval: 15, max_covers_per_interval: 20 },
  });
const ServiceUpdate = z
  .object({ name: z.string().trim().min(1).max(100).optional(), start_hour: hour.optional(), end_hour: hour.optional(), ...serviceFields })
  .openapi("ServiceUpdate");

export function toServiceDto(s: ServiceRow) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    image_url: s.imageUrl,
    weekdays: s.weekdays,
    start_hour: s.startHour,
    end_hour: s.endHour,
    slot_interval: s.slotInterval,
    average_stay: s.averageStay,
    pax_min: s.paxMin,
    pax_max: s.paxMax,
    online: s.online,
    enabled: s.enabled,
    valid_from: s.validFrom,
    valid_to: s.validTo,
    prepayment_window: s.prepaymentWindow,
    pacing_interval: s.pacingInterval,
    max_covers_per_interval: s.maxCoversPerInterval,
    max_parties_per_interval: s.maxPartiesPerInterval,
  };
}


// An end_hour earlier than start_hour is a service past midnight (CONTRACT 14): nothing to refuse.
function checkService(s: { paxMin: number; paxMax: number | null; validFrom: string | null; validTo: string | null }) {
  if (s.paxMax !== null && s.paxMax < s.paxMin) throw invalid("pax_max", "pax_max must not be below pax_min");
  if (s.validFrom && s.validTo && s.validTo < s.validFrom) throw invalid("valid_to", "valid_to must not be before valid_from");
}


const serviceRoutes = catalogRoutes({
  tag: "Services",
  singular: "service",
  schema: ServiceSchema,
  create: ServiceCreate,
  update: ServiceUpdate,
  notFound: "service_not_found",
  deleteErrors: ["resource_in_use"],
});

function serviceGone(id: number): never {
  throw new ApiError("service_not_found", `service ${id} does not exist in this property`);
}

async function requireService(db: Db, propertyId: number, id: number) {
  return (await repo.getService(db, propertyId, id)) ?? serviceGone(id);
}

type ServiceBody = z.infer<typeof ServiceUpdate>;
function serviceFieldsOf(b: ServiceBody): Partial<repo.ServiceFields> {
  const out: Partial<repo.ServiceFields> = {};
  if (b.name !== undefined) out.name = b.name;
  if (b.description !== undefined) out.description = b.description;
  if (b.image_url !== undefined) out.imageUrl = b.image_url;
  if (b.weekdays !== undefined) out.weekdays = [...b.weekdays].sort();
  if (b.start_hour !== undefined) out.startHour = b.start_hour;
  if (b.end_hour !== undefined) out.endHour = b.end_hour;
  if (b.slot_interval !== undefined) out.slotInterval = b.slot_interval;
  if (b.average_stay !== undefined) out.averageStay = b.average_stay;
  if (b.pax_min !== undefined) out.paxMin = b.pax_min;
  if (b.pax_max !== undefined) out.paxMax = b.pax_max;
  if (b.online !== undefined) out.online = b.online;
  if (b.enabled !== undefined) out.enabled = b.enabled;
  if (b.valid_from !== undefined) out.validFrom = b.valid_from;
  if (b.valid_to !== undefined) out.validTo = b.valid_to;
  if (b.prepayment_window !== undefined) out.prepaymentWindow = b.prepayment_window;
  if (b.pacing_interval !== undefined) out.pacingInterval = b.pacing_interval;
  if (b.max_covers_per_interval !== undefined) out.maxCoversPerInterval = b.max_covers_per_interval;
  if (b.max_parties_per_interval !== undefined) out.maxPartiesPerInterval = b.max_parties_per_interval;
  return out;
}

export const servicesRouter = createRouter()
  .openapi(serviceRoutes.list, async (c) => {
    const { limit, next_cursor } = c.req.valid("query");
    const rows = await repo.listServices(c.get("db"), c.get("property").id, limit, decodeCursor(next_cursor, idCursor)?.id);
    const result = page(rows, limit, (s) => ({ id: s.id }));
    return c.json({ data: result.data.map(toServiceDto), next_cursor: result.next_cursor }, 200);
  })
  .openapi(serviceRoutes.get, async (c) => {
    const service = await requireService(c.get("db"), c.get("property").id, c.req.valid("param").id);
    return c.json({ data: [toServiceDto(service)] }, 200);
  })
  .openapi(serviceRoutes.create, async (c) => {
    const body = c.req.valid("json");
    const fields = {
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      paxMin: 1,
      paxMax: null,
      validFrom: null,
      validTo: null,
      ...serviceFieldsOf(body),
      name: body.name,
      startHour: body.start_hour,
      endHour: body.end_hour,
    };
    checkService(fields);
    const service = await repo.insertService(c.get("db"), c.get("property").id, fields);
    return c.json({ data: [toServiceDto(service)] }, 201);
  })
  .openapi(serviceRoutes.update, async (c) => {
    const db = c.get("db");
    const current = await requireService(db, c.get("property").id, c.req.valid("param").id);
    const body = c.req.valid("json");
    if (namesNothing(body)) return c.json({ data: [toServiceDto(current)] }, 200);
    const fields = serviceFieldsOf(body);
    checkService({ ...current, ...fields } as ServiceRow);
    const service = (await repo.updateService(db, current.id, fields)) ?? serviceGone(current.id);
    return c.json({ data: [toServiceDto(service)] }, 200);
  })
  .openapi(serviceRoutes.remove, async (c) => {
    const db = c.get("db");
    const property = c.get("property");
    const service = await requireService(db, property.id, c.req.valid("param").id);
    const result = await repo.deleteService(db, property.id, service.id, resolveSettings(property.settings).timezone);
    if (!result.deleted) throw new ApiError("resource_in_use", `service ${service.id} is used by ${result.usedBy ? `upcoming reservation ${result.usedBy}` : "an upcoming reservation"}; move or cancel it first`);
    return c.json({ data: [service.id] }, 200);
  });

// ---------- closures ----------

export const ClosureSchema = z
  .object({
    id: z.number().int(),
    start_date: z.string(),
    end_date: z.string(),
    start_hour: z.string().nullable(),
    end_hour: z.string().nullable(),
    room_ids: z.array(z.number().int()).nullable().openapi({ description: "null: every room" }),
    table_ids: z.array(z.number().int()).nullable().openapi({ description: "null: every table" }),
    service_ids: z.array(z.number().int()).nullable().openapi({ description: "null: every service" }),
    reason: z.string().nullable(),
  })
  .openapi("Closure");

const idList = z.array(z.number().int().positive()).min(1).max(200).nullable().optional();
const closureFields = {
  start_hour: hour.nullable().optional().openapi({ description: "with end_hour: close only [start_hour, end_hour); both absent: whole days" }),
  end_hour: hour.nullable().optional(),
  room_ids: idList,
  table_ids: idList,
  service_ids: idList,
  reason: z.string().trim().max(500).nullable().optional(),
};
const ClosureCreate = z
  .object({ start_date: date, end_date: date.optional().openapi({ description: "default: start_date" }), ...closureFields })
  .openapi("ClosureCreate", { example: { start_date: "2026-12-24", end_date: "2026-12-26", reason: "Christmas" } });
const ClosureUpdate = z.object({ start_date: date.optional(), end_date: date.optional(), ...closureFields }).openapi("ClosureUpdate");

function toClosureDto(c: ClosureRow) {
  return {
    id: c.id,
    start_date: c.startDate,
    end_date: c.endDate,
    start_hour: c.startHour,
    end_hour: c.endHour,
    room_ids: c.roomIds ?? null,
    table_ids: c.tableIds ?? null,
    service_ids: c.serviceIds ?? null,
    reason: c.reason,
  };
}

/** Cross-field rules and references: the ids named must exist in this property. */
async function checkClosure(db: Db, propertyId: number, c: repo.ClosureFields) {
  if (c.endDate < c.startDate) throw invalid("end_date", "end_date must not be before start_date");
  if ((c.startHour == null) !== (c.endHour == null)) throw invalid("end_hour", "give both start_hour and end_hour, or neither for whole days");
  if (c.startHour && c.endHour && c.endHour <= c.startHour) throw invalid("end_hour", "end_hour must be after start_hour");
  const checks = [
    ["room_ids", "room", c.roomIds, repo.getRoomsByIds],
    ["table_ids", "table", c.tableIds, repo.getTablesByIds],
    ["service_ids", "service", c.serviceIds, repo.getServicesByIds],
  ] as const;
  for (const [path, noun, ids, find] of checks) {
    if (!ids?.length) continue;
    const found = new Set((await find(db, propertyId, ids)).map((r) => r.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid(path, `${noun} ${missing} does not exist in this property`);
  }
}

type ClosureBody = z.infer<typeof ClosureUpdate>;
function closureFieldsOf(b: ClosureBody): Partial<repo.ClosureFields> {
  const out: Partial<repo.ClosureFields> = {};
  if (b.start_date !== undefined) out.startDate = b.start_date;
  if (b.end_date !== undefined) out.endDate = b.end_date;
  if (b.start_hour !== undefined) out.startHour = b.start_hour;
  if (b.end_hour !== undefined) out.endHour = b.end_hour;
  if (b.room_ids !== undefined) out.roomIds = b.room_ids && [...new Set(b.room_ids)];
  if (b.table_ids !== undefined) out.tableIds = b.table_ids && [...new Set(b.table_ids)];
  if (b.service_ids !== undefined) out.serviceIds = b.service_ids && [...new Set(b.service_ids)];
  if (b.reason !== undefined) out.reason = b.reason;
  return out;
}

const closureRoutes = catalogRoutes({
  tag: "Closures",
  singular: "closure",
  schema: ClosureSchema,
  create: ClosureCreate,
  update: ClosureUpdate,
  notFound: "closure_not_found",
});

function closureGone(id: number): never {
  throw new ApiError("closure_not_found", `closure ${id} does not exist in this property`);
}

async function requireClosure(db: Db, propertyId: number, id: number) {
  return (await repo.getClosure(db, propertyId, id)) ?? closureGone(id);
}

export const closuresRouter = createRouter()
  .openapi(closureRoutes.list, async (c) => {
    const { limit, next_cursor } = c.req.valid("query");
    const rows = await repo.listClosures(c.get("db"), c.get("property").id, limit, decodeCursor(next_cursor, idCursor)?.id);
    const result = page(rows, limit, (r) => ({ id: r.id }));
    return c.json({ data: result.data.map(toClosureDto), next_cursor: result.next_cursor }, 200);
  })
  .openapi(closureRoutes.get, async (c) => {
    const closure = await requireClosure(c.get("db"), c.get("property").id, c.req.valid("param").id);
    return c.json({ data: [toClosureDto(closure)] }, 200);
  })
  .openapi(closureRoutes.create, async (c) => {
    const body = c.req.valid("json");
    const fields: repo.ClosureFields = { startHour: null, endHour: null, ...closureFieldsOf(body), startDate: body.start_date, endDate: body.end_date ?? body.start_date };
    const db = c.get("db");
    await checkClosure(db, c.get("property").id, fields);
    const closure = await repo.insertClosure(db, c.get("property").id, fields);
    return c.json({ data: [toClosureDto(closure)] }, 201);
  })
  .openapi(closureRoutes.update, async (c) => {
    const db = c.get("db");
    const propertyId = c.get("property").id;
    const current = await requireClosure(db, propertyId, c.req.valid("param").id);
    const body = c.req.valid("json");
    if (namesNothing(body)) return c.json({ data: [toClosureDto(current)] }, 200);
    const fields = closureFieldsOf(body);
    await checkClosure(db, propertyId, { ...current, ...fields });
    const closure = (await repo.updateClosure(db, current.id, fields)) ?? closureGone(current.id);
    return c.json({ data: [toClosureDto(closure)] }, 200);
  })
  .openapi(closureRoutes.remove, async (c) => {
    const db = c.get("db");
    const closure = await requireClosure(db, c.get("property").id, c.req.valid("param").id);
    await repo.deleteClosure(db, closure.id);
    return c.json({ data: [closure.id] }, 200);
  });
