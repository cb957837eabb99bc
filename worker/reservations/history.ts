/** What a change of a reservation looks like in its history: {field: [before, after]}. */
import { stayEndDate, toLocalDateTime } from "../lib/localtime";
import type { ReservationRow } from "./reservations.repo";

const FIELDS_SHOWN: [keyof ReservationRow, string][] = [
  ["status", "status"],
  ["startDate", "start_date"],
  ["startHour", "start_hour"],
  ["endMin", "end_date"],
  ["pax", "pax"],
  ["serviceId", "service_id"],
  ["roomId", "room_id"],
  ["tableIds", "table_ids"],
  ["customerId", "customer_id"],
  ["notes", "notes"],
  ["specialRequest", "special_request"],
  ["occasion", "occasion"],
  ["allergies", "allergies"],
  ["overridePacing", "override_pacing"],
  ["statusReason", "status_reason"],
  ["checkinDate", "checkin_date"],
  ["checkoutDate", "checkout_date"],
];

/** A stored value as the API shows it: local wall-clock datetimes, no raw minutes or UTC. */
function shown(key: keyof ReservationRow, value: unknown, timeZone: string, startMin: number): unknown {
  if (value === null || value === undefined) return null;
  if (key === "endMin") return stayEndDate(timeZone, startMin, value as number);
  if (key === "checkinDate" || key === "checkoutDate")
    return toLocalDateTime(timeZone, value as string, true);
  return value;
}

/** {field: [before, after]} of what a write changes, in the API's names and formats. */
export function diff(
  before: ReservationRow,
  set: Partial<ReservationRow>,
  timeZone: string,
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [key, name] of FIELDS_SHOWN) {
    if (!(key in set)) continue;
    const [a, b] = [
      shown(key, before[key], timeZone, before.startMin),
      shown(key, set[key], timeZone, set.startMin ?? before.startMin),
    ];
    if (JSON.stringify(a) !== JSON.stringify(b)) out[name] = [a, b];
  }
  return out;
}
