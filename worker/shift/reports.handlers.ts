/** GET /properties/{id}/reports: covers, parties, no-shows and cancellations by day, service or channel. */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { addDays, localMinutes } from "../lib/localtime";
import { authoriseProperty } from "../properties/authorise";
import { rangeEnd } from "./range";
import { type ReportBy, reportRows } from "./reports.repo";

export async function reportLines(
  c: Context<AppEnv>,
  propertyId: number,
  q: { from: string; to: string; by: ReportBy },
) {
  await authoriseProperty(c, propertyId);
  const last = rangeEnd(q.from, q.to);
  const rows = await reportRows(
    c.get("db"),
    propertyId,
    q.by,
    localMinutes(q.from),
    localMinutes(addDays(last, 1)),
  );
  return rows.map((r) => ({
    ...r,
    covers: Number(r.covers),
    parties: Number(r.parties),
    no_shows: Number(r.no_shows),
    cancellations: Number(r.cancellations),
  }));
}
