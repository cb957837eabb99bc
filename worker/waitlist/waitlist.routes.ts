/**
 * The guest's side of a waiting-list offer (CONTRACT 13), behind the link of its email: read it,
 * claim it (the reservation becomes ACCEPTED if a table is still free), or decline it (it passes
 * to the next party at once). Under /api/v2/public, with the public API's limits (app.ts).
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PublicOffer } from "../../shared/public";
import { config } from "../config";
import type { AppEnv, PropertyRow } from "../env";
import { ApiError, type ErrorCode } from "../errors";
import { nowIso } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { envelope, errorResponses, json } from "../lib/openapi";
import { createRouter } from "../lib/router";
import { toPublicReservation } from "../public/guest";
import { serviceName } from "../public/public.repo";
import { guestProperty, publicKeyParam, PRIVATE, ReservationSchema } from "../public/public.routes";
import { act } from "../reservations/booking";
import { guestOf } from "../messages/facts";
import { passOffer } from "./offers";
import { findOfferByTokenHash } from "./offers.repo";

const OfferSchema = z.object({ ...PublicOffer.shape, reservation: ReservationSchema }).openapi("PublicOffer");
const OfferParam = z.object({
  public_key: publicKeyParam,
  token: z.string().min(1).max(200).openapi({ param: { name: "token", in: "path" }, description: "the token of the offer's email", example: "Qm9…" }),
});

const base = { tags: ["public"], request: { params: OfferParam } };
const NOT_FOUND: ErrorCode[] = ["property_not_found", "offer_not_found"];

const getRoute = createRoute({ ...base, method: "get", path: "/{public_key}/offers/{token}", summary: "A waiting-list offer", responses: { 200: json(envelope(OfferSchema), "the offer"), ...errorResponses(...NOT_FOUND) } });
const claimRoute = createRoute({
  ...base,
  method: "post",
  path: "/{public_key}/offers/{token}/claim",
  summary: "Claim a waiting-list offer",
  description: "While the offer is open: the reservation becomes ACCEPTED if a table is still free for the party (409 \"offer not available\" otherwise).",
  responses: { 200: json(envelope(OfferSchema), "the offer, claimed"), ...errorResponses(...NOT_FOUND, "offer_not_available") },
});
const declineRoute = createRoute({
  ...base,
  method: "post",
  path: "/{public_key}/offers/{token}/decline",
  summary: "Decline a waiting-list offer",
  description: "The table passes to the next party on the waiting list at once; the guest stays on the list.",
  responses: { 200: json(envelope(OfferSchema), "the offer, declined"), ...errorResponses(...NOT_FOUND, "offer_not_available") },
});

async function found(c: Context<AppEnv>, property: PropertyRow, token: string) {
  const hit = await findOfferByTokenHash(c.get("db"), property.id, await sha256Hex(token));
  if (!hit) throw new ApiError("offer_not_found", "no offer has this link; check the address in your email");
  return hit;
}

async function dto(c: Context<AppEnv>, property: PropertyRow, hit: Awaited<ReturnType<typeof found>>) {
  const g = guestOf(hit.reservation);
  const guest = { first_name: g?.first_name ?? "", last_name: g?.last_name ?? "", email: g?.email ?? "", phone: g?.phone ?? null };
  const state = hit.offer.state === "open" && hit.offer.expiresAt <= nowIso() ? "expired" : hit.offer.state;
  return { state, expires_at: hit.offer.expiresAt, reservation: toPublicReservation(property, hit.reservation, guest, await serviceName(c.get("db"), hit.reservation.serviceId)) };
}

function stillOpen(hit: Awaited<ReturnType<typeof found>>) {
  if (hit.offer.state !== "open" || hit.offer.expiresAt <= nowIso()) {
    throw new ApiError("offer_not_available", hit.offer.state === "claimed" ? "this offer was claimed already" : "this offer is no longer open");
  }
}

export const waitlistRouter = createRouter()
  .openapi(getRoute, async (c) => {
    const { public_key, token } = c.req.valid("param");
    const property = await guestProperty(c, public_key);
    return c.json({ data: [await dto(c, property, await found(c, property, token))] }, 200, PRIVATE);
  })
  .openapi(claimRoute, async (c) => {
    const { public_key, token } = c.req.valid("param");
    const property = await guestProperty(c, public_key);
    const hit = await found(c, property, token);
    stillOpen(hit);
    try {
      // The write closes the offer as claimed in its own batch (reservations/booking.ts).
      await act({ db: c.get("db"), property, actor: "guest", linkSecret: config(c.env).linkSecret }, hit.reservation.id, { type: "status", to: "ACCEPTED" }, "resource_not_available");
    } catch (err) {
      if (err instanceof ApiError && (err.code === "resource_not_available" || err.code === "reservation_not_available")) {
        throw new ApiError("offer_not_available", "the table has been taken meanwhile; you are still on the waiting list");
      }
      throw err;
    }
    return c.json({ data: [await dto(c, property, await found(c, property, token))] }, 200, PRIVATE);
  })
  .openapi(declineRoute, async (c) => {
    const { public_key, token } = c.req.valid("param");
    const property = await guestProperty(c, public_key);
    const hit = await found(c, property, token);
    stillOpen(hit);
    await passOffer({ db: c.get("db"), d1: c.get("d1"), property, linkSecret: config(c.env).linkSecret }, hit.offer, "declined");
    return c.json({ data: [await dto(c, property, await found(c, property, token))] }, 200, PRIVATE);
  });
