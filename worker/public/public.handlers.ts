/** What the public widget API does with a validated request, for the restaurant of its public key. */
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { config } from "../config";
import type { AppEnv } from "../env";
import { guestProperty, PRIVATE } from "./access";
import { bookOnline } from "./booking";
import { changeManaged } from "./change";
import { cancelManaged, findManaged, type Locale, onlineServices, publicSlots } from "./guest";
import { toManagedReservation, toProfile, toPublicBooking } from "./public.dto";
import type { BookingInputSchema, ChangeSchema, SlotsQuery } from "./public.schemas";

export async function profile(c: Context<AppEnv>, publicKey: string, locale: Locale | undefined) {
  const property = await guestProperty(c, publicKey);
  return c.json({ data: [toProfile(property, locale)] }, 200);
}

export async function services(c: Context<AppEnv>, publicKey: string, locale: Locale | undefined) {
  const property = await guestProperty(c, publicKey);
  return c.json({ data: await onlineServices(c.get("db"), property, locale) }, 200);
}

export async function slots(c: Context<AppEnv>, publicKey: string, q: z.output<typeof SlotsQuery>) {
  const property = await guestProperty(c, publicKey);
  const data = await publicSlots(c.get("db"), property, {
    date: q.date,
    pax: q.pax,
    days: q.days ?? 1,
    service_id: q.service_id,
    locale: q.locale,
  });
  return c.json({ data }, 200, { "Cache-Control": "no-store" });
}

export async function book(
  c: Context<AppEnv>,
  publicKey: string,
  input: z.output<typeof BookingInputSchema>,
) {
  const property = await guestProperty(c, publicKey);
  const cfg = config(c.env);
  const booked = await bookOnline(c.get("db"), property, input, cfg.linkSecret);
  return c.json(
    { data: [toPublicBooking(property, booked, { origin: cfg.publicOrigin, locale: input.locale })] },
    201,
    PRIVATE,
  );
}

export async function manage(
  c: Context<AppEnv>,
  { public_key, token }: { public_key: string; token: string },
) {
  const property = await guestProperty(c, public_key);
  const found = await findManaged(c.get("db"), property, token);
  return c.json({ data: [toManagedReservation(property, found)] }, 200, PRIVATE);
}

export async function change(
  c: Context<AppEnv>,
  { public_key, token }: { public_key: string; token: string },
  input: z.output<typeof ChangeSchema>,
) {
  const property = await guestProperty(c, public_key);
  const found = await changeManaged(c.get("db"), property, token, input);
  return c.json({ data: [toManagedReservation(property, found)] }, 200, PRIVATE);
}

export async function cancel(
  c: Context<AppEnv>,
  { public_key, token }: { public_key: string; token: string },
) {
  const property = await guestProperty(c, public_key);
  const found = await cancelManaged(c.get("db"), property, token, config(c.env).linkSecret);
  return c.json({ data: [toManagedReservation(property, found)] }, 200, PRIVATE);
}
