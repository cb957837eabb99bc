/** GET /properties/{property_id}/audit: who changed what in the restaurant, newest first, by time and by actor. */
import type { Context } from "hono";
import { z } from "zod";
import { resolveSettings } from "../../shared/schemas";
import { actorFilter } from "../audit/actor";
import { namedActors } from "../audit/actors.repo";
import { listAudit } from "../audit/audit.repo";
import { toAuditDto } from "../audit/audit.schemas";
import type { AppEnv } from "../env";
import { invalidField } from "../errors";
import { localMinutes, localToUtc } from "../lib/localtime";
import { decodeCursor, encodeCursor } from "../lib/pagination";
import { authoriseProperty } from "../properties/authorise";

const AuditCursor = z.object({ at: z.number().int(), id: z.number().int() });

/** An instant as given, or a date's start on the restaurant's clock (`end`: the next day's start). */
function instantOf(field: string, value: string | undefined, timeZone: string, end: boolean) {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d\d-\d\d$/.test(value))
    return new Date(localToUtc(timeZone, localMinutes(value) + (end ? 1440 : 0))).toISOString();
  const ms = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(ms))
    throw invalidField(field, "expected a date (YYYY-MM-DD) or an ISO instant");
  return new Date(ms).toISOString();
}

export interface AuditParams {
  from?: string | undefined;
  to?: string | undefined;
  actor?: string | undefined;
  limit: number;
  next_cursor?: string | undefined;
}

export async function listAuditEntries(c: Context<AppEnv>, propertyId: number, q: AuditParams) {
  const property = await authoriseProperty(c, propertyId);
  const timeZone = resolveSettings(property.settings ?? {}).timezone;
  const actor = q.actor === undefined ? undefined : actorFilter(q.actor);
  if (q.actor !== undefined && !actor)
    throw invalidField(
      "actor",
      "expected a kind (staff, app, guest, searchengine, system) or staff:<id>, app:<id>",
    );
  const rows = await listAudit(c.get("db"), {
    propertyId,
    from: instantOf("from", q.from, timeZone, false),
    to: instantOf("to", q.to, timeZone, true),
    actor,
    after: decodeCursor(q.next_cursor, AuditCursor),
    limit: q.limit,
  });
  const page = rows.slice(0, q.limit);
  const last = rows.length > q.limit ? page[page.length - 1] : undefined;
  const actors = await namedActors(
    c.get("control"),
    propertyId,
    page.map((r) => r.row.actor),
  );
  return {
    data: page.map((r) => toAuditDto(r, actors, timeZone)),
    next_cursor: last ? encodeCursor({ at: last.atMs, id: last.row.id }) : null,
  };
}
