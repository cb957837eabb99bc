/** A range of days a read of notes or reports may span. */
import { invalidField } from "../errors";
import { addDays } from "../lib/localtime";

export const MAX_DAYS = 366;

/** The last day of a range from `from`, checked: not before it, at most MAX_DAYS days in all. */
export function rangeEnd(from: string, to: string | undefined): string {
  const last = to ?? from;
  if (last < from) throw invalidField("to", "to must not be before from");
  if (last > addDays(from, MAX_DAYS - 1)) throw invalidField("to", `at most ${MAX_DAYS} days from from`);
  return last;
}
