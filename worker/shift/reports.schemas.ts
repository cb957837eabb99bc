/** The reports' API shapes: a line per day, service or channel, and the CSV form of the same lines. */
import { z } from "@hono/zod-openapi";
import { dateString } from "../../shared/schemas";
import type { ReportRow } from "./reports.repo";

export const ReportQuery = z.object({
  from: dateString.openapi({
    description: "the first day (the restaurant's local date)",
    example: "2031-03-01",
  }),
  to: dateString.openapi({
    description: "the last day, included; at most 366 days from `from`",
    example: "2031-03-31",
  }),
  by: z
    .enum(["day", "service", "channel"])
    .default("day")
    .openapi({ description: "one line per day (default), per service or per channel" }),
  format: z.enum(["json", "csv"]).optional().openapi({
    description: "`csv` answers CSV as `Accept: text/csv` does: for a download link, which sets no headers",
  }),
});

export const ReportLineSchema = z
  .object({
    key: z.string().openapi({
      description:
        "the day (YYYY-MM-DD), the service's id (empty: booked outside any service) or the channel",
    }),
    label: z.string().nullable().openapi({ description: "the service's name; null otherwise" }),
    covers: z
      .number()
      .int()
      .openapi({ description: "guests of the parties that hold (accepted, confirmed, seated)" }),
    parties: z.number().int().openapi({ description: "parties that hold" }),
    no_shows: z.number().int().openapi({ description: "parties expired as no-shows" }),
    cancellations: z.number().int().openapi({ description: "parties cancelled" }),
  })
  .openapi("ReportLine");

const COLUMNS = ["key", "label", "covers", "parties", "no_shows", "cancellations"] as const;

/** A CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
function field(value: string | number | null): string {
  if (value === null) return "";
  let s = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180: a header line, then one line per row, CRLF line ends. */
export function toCsv(by: string, rows: ReportRow[]): string {
  const header = [by, ...COLUMNS.slice(1)].join(",");
  const lines = rows.map((r) => COLUMNS.map((c) => field(r[c])).join(","));
  return `${[header, ...lines].join("\r\n")}\r\n`;
}
