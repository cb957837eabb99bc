/** GET /api/v2/public/{public_key}/manage/{token}/calendar.ics: the contract of the guest's calendar entry. */
import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { calendar } from "./calendar.handlers";
import { ManageParam } from "./public.schemas";

const calendarRoute = createRoute({
  tags: ["public"],
  method: "get",
  path: "/{public_key}/manage/{token}/calendar.ics",
  summary: "The guest's reservation as a calendar entry",
  description:
    "iCalendar (RFC 5545): the restaurant's TZID with its VTIMEZONE, a UID stable per reservation, SEQUENCE rising with every change, " +
    "METHOD REQUEST, or CANCEL once the reservation is cancelled. The entry the confirmation, change and cancellation emails carry.",
  request: { params: ManageParam },
  responses: {
    200: {
      content: { "text/calendar": { schema: z.string().openapi({ example: "BEGIN:VCALENDAR\r\n…" }) } },
      description: "the calendar entry",
    },
    ...errorResponses("property_not_found", "reservation_not_found"),
  },
});

export const calendarRouter = createRouter().openapi(calendarRoute, (c) => calendar(c, c.req.valid("param")));
