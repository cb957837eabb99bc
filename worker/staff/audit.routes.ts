/** GET {base_url}/properties/{property_id}/audit: the restaurant's audit log (13 months). */
import { createRoute, z } from "@hono/zod-openapi";
import { AuditEntrySchema } from "../audit/audit.schemas";
import { AUTHED, bearerSecurity, errorResponses, json, listEnvelope, PropertyIdParam } from "../lib/openapi";
import { paginationQuery } from "../lib/pagination";
import { createRouter } from "../lib/router";
import { listAuditEntries } from "./audit.handlers";

const when = (what: string) =>
  z
    .string()
    .max(40)
    .optional()
    .openapi({
      description: `${what}: a date (YYYY-MM-DD, on the restaurant's clock) or an ISO instant`,
      example: "2026-12-01",
    });

const listRoute = createRoute({
  method: "get",
  path: "/{property_id}/audit",
  tags: ["Properties"],
  security: bearerSecurity,
  summary: "Who changed what",
  description:
    "Every change of the restaurant's reservations, guests, catalog, settings, staff and apps, with who made it (`actor`), newest first; kept 13 months. " +
    "`from` and `to` bound the time (a date `to` includes that day); `actor` keeps one kind (`staff`, `app`, `guest`, `searchengine`, `system`) or one party (`staff:12`, `app:3`). " +
    "In the console: managers and owners.",
  request: {
    params: PropertyIdParam,
    query: z.object({
      from: when("from (inclusive)"),
      to: when("to (exclusive for an instant, inclusive for a date)"),
      actor: z.string().max(40).optional().openapi({ example: "staff:12" }),
      ...paginationQuery,
    }),
  },
  responses: {
    200: json(listEnvelope(AuditEntrySchema), "a page of entries, newest first"),
    ...errorResponses(
      ...AUTHED,
      "property_not_found",
      "property_forbidden",
      "sandbox_expired",
      "role_required",
    ),
  },
});

export const auditRouter = createRouter().openapi(listRoute, async (c) =>
  c.json(await listAuditEntries(c, c.req.valid("param").property_id, c.req.valid("query")), 200),
);
