/** Which restaurant a public request is for, and how answers that name a guest are kept private. */
import type { Context } from "hono";
import type { AppEnv, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { bindByPublicKey } from "../properties/binding";
import { guestVisible } from "./public.repo";

/** Unknown, deleted, disabled or expired properties all answer 404 "property not found", alike: a key tells nothing. */
export async function guestProperty(c: Context<AppEnv>, publicKey: string): Promise<PropertyRow> {
  const property = await bindByPublicKey(c, publicKey);
  if (!property || !guestVisible(property))
    throw new ApiError("property_not_found", "no restaurant takes online bookings under this key");
  return property;
}

/** A guest's details and links: never in a cache, never in the Referer of a link followed from the page. */
export const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
