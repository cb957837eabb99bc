/**
 * The guest's side of a waiting-list offer, behind the link of its email: read it, claim it
 * (the reservation becomes ACCEPTED if a table is still free), or decline it (it passes to the
 * next party at once).
 */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv, PropertyRow } from "../env";
import {
  checkOpen,
  claimOffer,
  type FoundOffer,
  findOffer,
  type OfferContext,
  passOffer,
} from "../waitlist/offers";
import { guestProperty, PRIVATE } from "./access";
import { toPublicOffer } from "./public.dto";
import { serviceName } from "./public.repo";

interface OfferParams {
  public_key: string;
  token: string;
}

function offerContext(c: Context<AppEnv>, property: PropertyRow): OfferContext {
  return { db: c.get("db"), property, linkSecret: config(c.env).linkSecret };
}

/** The offer as it stands now, read again after a claim or a decline. */
async function answer(c: Context<AppEnv>, property: PropertyRow, token: string) {
  const hit: FoundOffer = await findOffer(c.get("db"), property.id, token);
  const service = await serviceName(c.get("db"), hit.reservation.serviceId);
  return c.json({ data: [toPublicOffer(property, hit, service)] }, 200, PRIVATE);
}

export async function read(c: Context<AppEnv>, { public_key, token }: OfferParams) {
  const property = await guestProperty(c, public_key);
  return answer(c, property, token);
}

export async function claim(c: Context<AppEnv>, { public_key, token }: OfferParams) {
  const property = await guestProperty(c, public_key);
  const hit = await findOffer(c.get("db"), property.id, token);
  checkOpen(hit.offer);
  await claimOffer(offerContext(c, property), hit.offer);
  return answer(c, property, token);
}

export async function decline(c: Context<AppEnv>, { public_key, token }: OfferParams) {
  const property = await guestProperty(c, public_key);
  const hit = await findOffer(c.get("db"), property.id, token);
  checkOpen(hit.offer);
  await passOffer({ ...offerContext(c, property), d1: c.get("d1") }, hit.offer, "declined");
  return answer(c, property, token);
}
