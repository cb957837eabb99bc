/** /bookings: the slot listing, the floor at one time and the booking links, for the property of the request. */
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { bookingLinks } from "./availability.dto";
import type { RoomsQuestion, SlotsQuestion } from "./availability.schemas";
import { floorAt } from "./floor";
import { preloaded, slotListing, wantsFresh } from "./listing";

type Ctx = Context<AppEnv>;

/** 7 days of slots; the days' rows read with the property row serve when they answer the same question. */
export async function slots(c: Ctx, q: SlotsQuestion) {
  const outOfOrder = q.out_of_order ?? q.out_of_service ?? false;
  const read = preloaded.get(c);
  const usable =
    read && read.read.firstDate === q.start_date && read.read.closures === outOfOrder ? read : undefined;
  const data = await slotListing(
    c.get("db"),
    c.get("property"),
    { ...q, out_of_order: outOfOrder, fresh: wantsFresh(c) },
    usable,
  );
  return { data };
}

export async function rooms(c: Ctx, q: RoomsQuestion) {
  return { data: [await floorAt(c.get("db"), c.get("property"), q)] };
}

export function links(c: Ctx) {
  return { data: bookingLinks(config(c.env).publicOrigin, c.get("property").publicKey) };
}
