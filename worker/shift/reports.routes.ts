/**
 * /properties/{property_id}/reports: the restaurant's figures over a range of days, as JSON or
 * CSV. A manager's (by path).
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  bearerSecurity,
  errorResponses,
  listEnvelope,
  PROPERTY_SCOPED,
  PropertyIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { reportLines } from "./reports.handlers";
import { ReportLineSchema, ReportQuery, toCsv } from "./reports.schemas";

const scoped = PROPERTY_SCOPED.filter((c) => c !== "property_header_required");

const reportRoute = createRoute({
  method: "get",
  path: "/{property_id}/reports",
  tags: ["Reports"],
  security: bearerSecurity,
  summary: "Covers, parties, no-shows and cancellations by day, service or channel",
  description:
    "The reservations starting from `from` to `to` (local dates, both included), one line per day, service or channel " +
    "that has any, in key order. Parties and covers count the parties that hold (accepted, confirmed, seated or done); " +
    "no-shows the parties expired as no-shows; cancellations the cancelled ones; staff blocks count nowhere. " +
    "`Accept: text/csv` (or `format=csv`) answers the same lines as CSV (a header line, CRLF line ends). One page: `next_cursor` is null.",
  request: { params: PropertyIdParam, query: ReportQuery },
  responses: {
    200: {
      description: "the lines",
      content: {
        "application/json": { schema: listEnvelope(ReportLineSchema) },
        "text/csv": {
          schema: z.string().openapi({
            example: "day,label,covers,parties,no_shows,cancellations\r\n2031-03-04,,42,12,1,2\r\n",
          }),
        },
      },
    },
    ...errorResponses(...scoped),
  },
});

const wantsCsv = (accept: string | undefined) => /\btext\/csv\b/i.test(accept ?? "");

export const reportsRouter = createRouter().openapi(reportRoute, async (c) => {
  const q = c.req.valid("query");
  const lines = await reportLines(c, c.req.valid("param").property_id, q);
  if (q.format === "csv" || wantsCsv(c.req.header("Accept")))
    return c.body(toCsv(q.by, lines), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="report-${q.by}-${q.from}-${q.to}.csv"`,
    });
  return c.json({ data: lines, next_cursor: null }, 200);
});
