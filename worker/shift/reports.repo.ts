/**
 * The reports' one query: a range of days' reservations counted by day, service or channel.
 * Parties and covers are those that hold (ACCEPTED, CONFIRMED: seated, done or still to come);
 * no-shows are EXPIRED with reason no_show; staff blocks (OUTOFORDER) count nowhere.
 */
import { and, asc, eq, gte, lt, ne, sql } from "drizzle-orm";
import { reservations, services } from "../db/shard.schema";
import type { Db } from "../env";

export type ReportBy = "day" | "service" | "channel";

export interface ReportRow {
  key: string;
  label: string | null;
  covers: number;
  parties: number;
  no_shows: number;
  cancellations: number;
}

const held = sql`${reservations.status} IN ('ACCEPTED', 'CONFIRMED')`;
const figures = {
  covers: sql<number>`coalesce(sum(CASE WHEN ${held} THEN ${reservations.pax} ELSE 0 END), 0)`,
  parties: sql<number>`coalesce(sum(CASE WHEN ${held} THEN 1 ELSE 0 END), 0)`,
  no_shows: sql<number>`coalesce(sum(CASE WHEN ${reservations.status} = 'EXPIRED' AND ${reservations.statusReason} = 'no_show' THEN 1 ELSE 0 END), 0)`,
  cancellations: sql<number>`coalesce(sum(CASE WHEN ${reservations.status} = 'CANCELLED' THEN 1 ELSE 0 END), 0)`,
};

/** Reservations starting in [fromMin, untilMin) (local minutes), grouped by `by`. */
export async function reportRows(
  db: Db,
  propertyId: number,
  by: ReportBy,
  fromMin: number,
  untilMin: number,
): Promise<ReportRow[]> {
  const key =
    by === "day"
      ? reservations.startDate
      : by === "channel"
        ? reservations.channel
        : sql<string>`coalesce(CAST(${reservations.serviceId} AS TEXT), '')`;
  const label = by === "service" ? sql<string | null>`max(${services.name})` : sql<string | null>`NULL`;
  return db
    .select({ key: sql<string>`${key}`, label, ...figures })
    .from(reservations)
    .leftJoin(services, eq(services.id, reservations.serviceId))
    .where(
      and(
        eq(reservations.propertyId, propertyId),
        gte(reservations.startMin, fromMin),
        lt(reservations.startMin, untilMin),
        ne(reservations.status, "OUTOFORDER"),
      ),
    )
    .groupBy(key)
    .orderBy(asc(key));
}
