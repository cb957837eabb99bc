/**
 * POST /reservations reads what its first decision needs in the round trip of the property row
 * (properties/binding.ts Preload): the day's holds and closures (with the catalog when the
 * isolate has none of the property yet) and the customer's lookup. The handler decides on them
 * when its validated body asks the same; a retry after a refused batch reads afresh.
 */
import type { Context } from "hono";
import { type DayRead, dayFrom, dayRead, dayReadQueries } from "../availability/availability.repo";
import type { AppEnv } from "../env";
import type { Preload } from "../properties/binding";
import type { FirstRead } from "./create";
import { type CustomerLookup, customerLookup, customerQueries } from "./reservations.repo";
import { ReservationCreate } from "./reservations.schemas";

interface Preloaded {
  day: DayRead;
  lookup: CustomerLookup | undefined;
  /** how many of the results are the day's (the customer's follow) */
  dayResults: number;
  results: readonly unknown[];
}

const preloaded = new WeakMap<Context<AppEnv>, Preloaded>();

const CREATE_PATH = /\/reservations\/?$/;

/** The reads of a POST /reservations whose body is a valid booking; anything else reads nothing extra. */
export async function bookingPreload(c: Context<AppEnv>): Promise<Preload | undefined> {
  if (c.req.method !== "POST" || !CREATE_PATH.test(c.req.path)) return undefined;
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return undefined;
  }
  const parsed = ReservationCreate.safeParse(body);
  if (!parsed.success) return undefined;
  const { start_date: date, customer } = parsed.data;
  let read: Omit<Preloaded, "results">;
  return {
    statements: (db, propertyId) => {
      const day = dayRead(propertyId, date);
      const lookup = customer && customerLookup(customer);
      const days = dayReadQueries(db, propertyId, day);
      read = { day, lookup, dayResults: days.length };
      return [...days, ...(lookup ? customerQueries(db, propertyId, lookup) : [])];
    },
    keep: (results) => preloaded.set(c, { ...read, results }),
  };
}

/** What the request read ahead for a booking of `date`; nothing when it read another day, or nothing. */
export async function firstRead(c: Context<AppEnv>, date: string): Promise<FirstRead> {
  const pre = preloaded.get(c);
  if (!pre || pre.day.date !== date) return {};
  const day = await dayFrom(c.get("db"), c.get("property"), pre.day, pre.results.slice(0, pre.dayResults));
  return { day, customer: pre.lookup && { lookup: pre.lookup, results: pre.results.slice(pre.dayResults) } };
}
