/** POST /reservations/searchengine: a property turns the search-engine reservation feature on or off. */
import { createRoute, z } from "@hono/zod-openapi";
import { ApiError, type ErrorCode, zodFieldErrors } from "../errors";
import { bearerSecurity, errorResponses, json, PROPERTY_SCOPED, propertyHeader } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { applySwitch } from "./switch.handlers";

const base = { tags: ["Reservations"], security: bearerSecurity };
const scoped = [...PROPERTY_SCOPED] as ErrorCode[];
const idempotent = ["idempotency_key_in_use", "idempotency_key_reused"] as ErrorCode[];

const SearchengineBody = z
  .object({ enable_searchengine: z.boolean() })
  .openapi("SearchengineSwitch", { example: { enable_searchengine: true } });
const searchengineRoute = createRoute({
  ...base,
  method: "post",
  path: "/searchengine",
  summary: "Turn the search-engine reservation feature on or off",
  description:
    "On: the property is a merchant of the search engine's booking server and feeds (/searchengine; docs/searchengine.md in the repository), " +
    "and changes of its search-engine bookings made here are reported to the search engine. Off: it leaves the feeds and the " +
    "booking server's availability at once; bookings already made can still be cancelled, and their changes are still reported. " +
    "A sandbox property cannot turn it on (400 naming enable_searchengine): only production properties reach the search engine.",
  request: {
    headers: propertyHeader,
    body: { content: { "application/json": { schema: SearchengineBody } }, required: true },
  },
  responses: {
    201: json(z.object({ status: z.literal("ACCEPTED") }), "the switch is applied"),
    ...errorResponses(...scoped, "validation_error", ...idempotent),
  },
});

export const searchengineSwitchRouter = createRouter().openapi(
  searchengineRoute,
  async (c) => c.json(await applySwitch(c, c.req.valid("json")), 201),
  // This route's documented 400 is "validation error", not the usual "invalid input data".
  (result) => {
    if (!result.success)
      throw new ApiError("validation_error", 'the body must be {"enable_searchengine": true|false}', {
        errors: zodFieldErrors(result.error),
      });
    return undefined;
  },
);
