/**
 * What web-test-runner.config.mjs hands the tests: a real Worker (wrangler dev, local D1), a
 * restaurant of the test file's own (`useRestaurant()` in its `before`), and helpers that talk to
 * it as a guest or as the restaurant's staff.
 */
import type { PublicBooking, PublicSlotDay } from "../../shared/public.js";

declare global {
  interface Window {
    /** api: the Worker's origin; clock: the fixed instant of this run (null: the real time) */
    BE: { api: string; stripe: string; browserZone: string; clock: string | null };
  }
  // mocha, as web-test-runner provides it
  function describe(name: string, fn: () => void): void;
  function it(name: string, fn: () => Promise<void> | void): void;
  namespace it {
    function skip(name: string, fn: () => Promise<void> | void): void;
  }
  function before(fn: () => Promise<unknown> | undefined): void;
  function beforeEach(fn: () => Promise<void> | void): void;
  function afterEach(fn: () => Promise<void> | void): void;
}

export interface Restaurant {
  publicKey: string;
  propertyId: number;
  name: string;
  services: { id: number; name: string }[];
}

export const env = window.BE;

/**
 * A test whose answer cannot depend on the day, the hour or the browser's zone (a layout, axe, a
 * language, an error page): it runs on the real clock, and is skipped at npm test's fixed instants.
 */
export const itAnyTime = (name: string, fn: () => Promise<void> | void) =>
  (env.clock ? it.skip : it)(name, fn);

// The booking flow keeps a draft per restaurant in sessionStorage: each test starts without one.
beforeEach(() => sessionStorage.clear());
let current: Restaurant | undefined;

/** This file's restaurant (tests/support/catalog.mjs, with `settings` over it); made once per file. */
export async function useRestaurant(settings: Record<string, unknown> = {}): Promise<Restaurant> {
  const res = await fetch("/fixture/restaurant", { method: "POST", body: JSON.stringify({ settings }) });
  if (!res.ok) throw new Error(`restaurant: ${res.status} ${await res.text()}`);
  current = (await res.json()) as Restaurant;
  return current;
}

export function restaurant(): Restaurant {
  if (!current) throw new Error("call useRestaurant() in the test file's before()");
  return current;
}

export const publicBase = () => `${env.api}/api/v2/public/${restaurant().publicKey}`;

let addresses = 0;
/**
 * An `api` for a widget under test that is a guest of its own address (web-test-runner.config.mjs
 * relays it): its bookings and changes spend a budget of their own, not the browser's.
 */
export const ownAddress = () => {
  addresses = (addresses % 250) + 1;
  return `${location.origin}/as-guest/${addresses}`;
};

/** What a guest sees, asked from another address (the relay): the widget's own budget is not spent. */
const asOther = () => `/other-guest/${restaurant().publicKey}`;

export async function slots(date: string, pax: number, days = 1): Promise<PublicSlotDay[]> {
  const res = await fetch(`${asOther()}/slots?date=${date}&pax=${pax}&days=${days}`);
  if (!res.ok) throw new Error(`slots: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

export async function profile() {
  return (await (await fetch(asOther())).json()).data[0] as {
    first_date: string;
    last_date: string;
    max_online_pax: number;
    timezone: string;
    offer_minutes: number;
  };
}

/**
 * A free (date, service, time) for `pax`, from the first date on, skipping `skip` entries. `lastDay`:
 * on the last of the two weeks, clear of what the file's other tests booked near the first date.
 */
export async function freeTime(pax: number, skip = 0, { lastDay = false } = {}) {
  const p = await profile();
  let days = await slots(p.first_date, pax, 14);
  if (lastDay) days = days.filter((d) => d.services.some((s) => s.times.length)).slice(-1);
  let n = 0;
  for (const d of days)
    for (const s of d.services)
      for (const hour of s.times) if (n++ >= skip) return { date: d.date, service_id: s.service_id, hour };
  throw new Error("no free time in two weeks");
}

/** Books as another guest through the public API, from another address (web-test-runner.config.mjs relays it). */
export async function bookAsGuest(
  input: { date: string; hour: string; pax: number; service_id?: number },
  name = "Other",
): Promise<{ status: number; body: { data?: PublicBooking[] } & Record<string, unknown> }> {
  // relayed from an address of its own (web-test-runner.config.mjs): the widget's bookings keep the budget
  const res = await fetch(`/guest/${restaurant().publicKey}/reservations`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      ...input,
      guest: { first_name: name, last_name: "Guest", email: `${name.toLowerCase()}@guest.example` },
    }),
  });
  return { status: res.status, body: await res.json() };
}

/** The integrator API as the restaurant's staff (web-test-runner.config.mjs relays `/staff/<property>/*`). */
export async function staff(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`/staff/${restaurant().propertyId}/${path}`, {
    method: init.method ?? "GET",
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json() };
}

/** The staff books a time for `pax` (a walk-in): no guest's public write budget spent. */
export async function bookAsStaff(input: { date: string; hour: string; pax: number; service_id: number }) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: input.date,
      start_hour: input.hour,
      pax: input.pax,
      service_id: input.service_id,
      customer: { first_name: "Walk", last_name: "In", phone: "+39 333 1234567" },
    },
  });
  if (r.status !== 201) throw new Error(`staff booking: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Waits until `check` returns something truthy (the element renders asynchronously). Counted in
 * rounds, not by the clock: at a fixed instant the browser's clock stands still.
 */
export async function until<T>(check: () => T | undefined | null | false, timeout = 10_000): Promise<T> {
  const every = 30;
  for (let waited = 0; ; waited += every) {
    const v = check();
    if (v) return v;
    if (waited > timeout) throw new Error(`timed out after ${timeout} ms: ${check}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The instant of a wall-clock time in Europe/Rome (the test restaurant's zone). */
export function romeInstant(date: string, hour: string): number {
  const guess = Date.parse(`${date}T${hour.slice(0, 5)}:00Z`);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Rome",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(guess);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  const shown = Date.parse(
    `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:00Z`,
  );
  return guess - (shown - guess);
}

/** Whether this file pinned the Worker's clock and has not given it back. */
let pinned = false;

/** Pins the Worker's clock at `at` (ISO), or gives back the run's own clock (null): web-test-runner.config.mjs relays it. */
export async function pinWorkerClock(at: string | null): Promise<void> {
  pinned = at !== null;
  const res = await fetch("/fixture/clock", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ at }),
  });
  if (!res.ok) throw new Error(`clock: ${res.status} ${await res.text()}`);
}

/**
 * Gives back the run's clock if this file pinned it. A file that never pins shares the Worker with
 * another file's page, whose hold a null pin would act on.
 */
export async function unpinWorkerClock(): Promise<void> {
  if (pinned) await pinWorkerClock(null);
}

/** Runs `fn` with the Worker's clock at the instant `at` (ms), then gives the run's clock back. */
export async function atWorkerTime<T>(at: number, fn: () => Promise<T>): Promise<T> {
  await pinWorkerClock(new Date(at).toISOString());
  try {
    return await fn();
  } finally {
    await pinWorkerClock(null);
  }
}
