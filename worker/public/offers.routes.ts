/**
 * The contracts of a waiting-list offer's link: read it, claim it, decline it. Under
 * /api/v2/public, with the public API's limits (app.ts).
 */
import { createRoute } from "@hono/zod-openapi";
import type { ErrorCode } from "../errors";
import { envelope, errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import * as h from "./offers.handlers";
import { OfferParam, OfferSchema } from "./public.schemas";

const base = { tags: ["public"], request: { params: OfferParam } };
const NOT_FOUND: ErrorCode[] = ["property_not_found", "offer_not_found"];

const getRoute = createRoute({
  ...base,
  method: "get",
  path: "/{public_key}/offers/{token}",
  summary: "A waiting-list offer",
  responses: { 200: json(envelope(OfferSchema), "the offer"), ...errorResponses(...NOT_FOUND) },
});
const claimRoute = createRoute({
  ...base,
  method: "post",
  path: "/{public_key}/offers/{token}/claim",
  summary: "Claim a waiting-list offer",
  description:
    'While the offer is open: the reservation becomes ACCEPTED if a table is still free for the party (409 "offer not available" otherwise).',
  responses: {
    200: json(envelope(OfferSchema), "the offer, claimed"),
    ...errorResponses(...NOT_FOUND, "offer_not_available"),
  },
});
const declineRoute = createRoute({
  ...base,
  method: "post",
  path: "/{public_key}/offers/{token}/decline",
  summary: "Decline a waiting-list offer",
  description: "The table passes to the next party on the waiting list at once; the guest stays on the list.",
  responses: {
    200: json(envelope(OfferSchema), "the offer, declined"),
    ...errorResponses(...NOT_FOUND, "offer_not_available"),
  },
});

export const waitlistRouter = createRouter()
  .openapi(getRoute, (c) => h.read(c, c.req.valid("param")))
  .openapi(claimRoute, (c) => h.claim(c, c.req.valid("param")))
  .openapi(declineRoute, (c) => h.decline(c, c.req.valid("param")));
