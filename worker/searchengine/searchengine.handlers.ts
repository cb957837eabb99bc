/**
 * The booking server's methods and the feeds, over the merchants the partner names: a merchant is
 * bound to its shard's primary, and one unknown, switched off or hidden takes no bookings.
 */

import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { bindProperty } from "../properties/binding";
import { guestVisible } from "../public/public.repo";
import { findByPublicKey } from "../shards/directory.repo";
import { createBooking, lookupSlots, type Merchant, present, updateBooking } from "./bookings";
import { allMerchants, availabilityFeedText, merchantFeed, serviceFeed, textStream } from "./feeds";
import { listUserBookings, locateBooking } from "./locate";
import type * as s from "./searchengine.schemas";

/** The merchant behind a merchant_id, bound to its shard's primary; undefined when unknown, off, a sandbox or not visible. */
async function merchantOf(
  c: Context<AppEnv>,
  merchantId: string,
  write: boolean,
): Promise<Merchant | undefined> {
  const entry = await findByPublicKey(c.get("control"), merchantId);
  const property = entry && (await bindProperty(c, entry, { write, primary: true }));
  return property?.searchengineEnabled && !property.sandbox && guestVisible(property)
    ? { db: c.get("db"), property, linkSecret: config(c.env).linkSecret }
    : undefined;
}

/**
 * The search-engine booking `bookingId` with its property bound to its shard's primary (a read
 * goes on while the property moves between shards, a write waits); 404 when there is none.
 */
async function bookingOf(c: Context<AppEnv>, bookingId: string, write: boolean) {
  const located = /^[1-9]\d{0,15}$/.test(bookingId)
    ? await locateBooking(c.env, c.get("control"), Number(bookingId))
    : undefined;
  const property = located && (await bindProperty(c, located.entry, { write, primary: true }));
  if (!located || !property)
    throw new ApiError("booking_not_found", `no booking ${bookingId} was made through the search engine`);
  return { merchant: { db: c.get("db"), property, linkSecret: config(c.env).linkSecret }, row: located.row };
}

/** BatchAvailabilityLookup: one answer per slot, in order. */
export async function lookupAvailability(
  c: Context<AppEnv>,
  q: z.infer<typeof s.BatchAvailabilityLookupRequest>,
) {
  return {
    slot_time_availability: await lookupSlots(await merchantOf(c, q.merchant_id, false), q.slot_time),
  };
}

export async function book(c: Context<AppEnv>, q: z.infer<typeof s.CreateBookingRequest>) {
  return createBooking(await merchantOf(c, q.slot.merchant_id, true), q);
}

export async function changeBooking(c: Context<AppEnv>, q: z.infer<typeof s.UpdateBookingRequest>) {
  const { merchant, row } = await bookingOf(c, q.booking.booking_id, true);
  return updateBooking(merchant, row, q.booking);
}

export async function bookingStatus(c: Context<AppEnv>, q: z.infer<typeof s.GetBookingStatusRequest>) {
  const { merchant, row } = await bookingOf(c, q.booking_id, false);
  const [booking] = await present(merchant.db, [
    { ...row, merchantId: merchant.property.publicKey, settings: merchant.property.settings },
  ]);
  return {
    booking_id: booking!.booking_id,
    booking_status: booking!.status,
    prepayment_status: "PREPAYMENT_NOT_PROVIDED" as const,
  };
}

export async function userBookings(c: Context<AppEnv>, q: z.infer<typeof s.ListBookingsRequest>) {
  return { bookings: await listUserBookings(c.env, c.get("control"), q.user_id) };
}

const FEEDS = { merchants: merchantFeed, services: serviceFeed };
export type FeedKind = keyof typeof FEEDS | "availability";

/** A feed: complete, or only the merchant asked for (an increment). */
export async function feed(c: Context<AppEnv>, kind: keyof typeof FEEDS, only: string | undefined) {
  const merchants = await allMerchants(c.env, c.get("control"), only);
  return FEEDS[kind](merchants, only === undefined);
}

/**
 * The availability feed, streamed as it is worked out (feeds.ts availabilityFeedText): its size
 * grows with every merchant's booking window, the Worker's memory does not.
 */
export async function availabilityFeed(c: Context<AppEnv>, only: string | undefined): Promise<Response> {
  const merchants = await allMerchants(c.env, c.get("control"), only);
  return c.body(textStream(availabilityFeedText(merchants, only === undefined)), 200, {
    "Content-Type": "application/json",
  });
}
