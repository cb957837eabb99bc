/**
 * The three feeds of the search engine, in its JSON feed format: merchants (the
 * properties whose switch is on), their services open to online booking, and availability over
 * each merchant's booking window: per start time and party size, the tables that seat the party
 * (`spots_total`) and those free (`spots_open`), by the same engine a booking asks.
 */
import type { z } from "@hono/zod-openapi";
import { resolveSettings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import {
  Availability,
  type EngineService,
  serviceGrid,
  serviceRunsOn,
  stayMinutes,
} from "../availability/engine";
import type { Bindings, ControlDb, Db, PropertyRow } from "../env";
import { now } from "../lib/clock";
import { addDays, zonedParts } from "../lib/localtime";
import { isSearchable } from "../public/guest";
import { guestVisible } from "../public/public.repo";
import { shardsOf } from "../shards/directory.repo";
import { openShard, shardCount, shardDb } from "../shards/shards";
import { startSecOf } from "./google";
import { merchantRows } from "./searchengine.repo";
import type { FeedMetadata } from "./searchengine.schemas";

export interface FeedMerchant {
  db: Db;
  property: PropertyRow;
}

/**
 * Every merchant (or the one of `only`), from every shard's primary: a switch turned off leaves
 * the feeds at once.
 */
export async function allMerchants(
  env: Bindings,
  control: ControlDb,
  only?: string,
): Promise<FeedMerchant[]> {
  const found = await Promise.all(
    Array.from({ length: shardCount(env) }, async (_, k) => {
      const db = shardDb(openShard(env, k, { write: true }));
      return (await merchantRows(db, only)).map((property) => ({ k, db, property }));
    }),
  );
  const rows = found.flat();
  const entries = await shardsOf(
    control,
    rows.map((r) => r.property.id),
  );
  return rows
    .filter(
      (r) =>
        entries.get(r.property.id)?.shard === r.k &&
        !entries.get(r.property.id)?.deletedAt &&
        guestVisible(r.property),
    )
    .map(({ db, property }) => ({ db, property }));
}

/**
 * The feeds' metadata: a feed of every merchant is complete, in one shard; one merchant's is an
 * increment (uploaded as complete, it would remove every other merchant).
 */
function metadata(complete: boolean): z.infer<typeof FeedMetadata> {
  return {
    processing_instruction: complete ? "PROCESS_AS_COMPLETE" : "PROCESS_AS_INCREMENTAL",
    shard_number: 0,
    total_shards: 1,
    nonce: String(crypto.getRandomValues(new Uint32Array(1))[0]),
    generation_timestamp: Math.floor(now() / 1000),
  };
}

export function merchantFeed(merchants: FeedMerchant[], complete = true) {
  const merchant = merchants.map(({ property: p }) => {
    const pos = (p.position ?? {}) as Record<string, unknown>;
    const address = Object.fromEntries(
      Object.entries({
        street_address: pos.address,
        locality: pos.city,
        postal_code: pos.zip,
        country: pos.country,
      }).filter(([, v]) => typeof v === "string" && v),
    );
    return {
      merchant_id: p.publicKey,
      name: p.name,
      ...(p.phone && { telephone: p.phone }),
      ...(p.website && { url: p.website }),
      category: "restaurant",
      geo: {
        ...(typeof pos.latitude === "number" && { latitude: pos.latitude }),
        ...(typeof pos.longitude === "number" && { longitude: pos.longitude }),
        address,
      },
    };
  });
  return { metadata: metadata(complete), merchant };
}

const todayOf = (p: PropertyRow) => zonedParts(resolveSettings(p.settings).timezone, now()).date;
/** Services open to online booking (enabled, online, no prepayment nor payment) and still valid today. */
const feedServices = (services: EngineService[], today: string) =>
  services.filter((s) => isSearchable(s) && (!s.validTo || s.validTo >= today));

export async function serviceFeed(merchants: FeedMerchant[], complete = true) {
  const lists = await Promise.all(
    merchants.map(async (m) => {
      const today = todayOf(m.property);
      const { catalog } = await loadAvailability(m.db, m.property, today, today);
      return feedServices(catalog.services, today).map((s) => ({
        merchant_id: m.property.publicKey,
        service_id: String(s.id),
        name: s.name,
        // the catalog's rows carry the service's text though the engine's type leaves it out
        ...descriptionOf(s),
      }));
    }),
  );
  return { metadata: metadata(complete), service: lists.flat() };
}

/** The party sizes a service takes online. */
function partySizes(s: EngineService, maxOnline: number): number[] {
  const top = Math.min(s.paxMax ?? maxOnline, maxOnline);
  return Array.from({ length: Math.max(0, top - s.paxMin + 1) }, (_, i) => s.paxMin + i);
}

/** One day of a merchant's slots: every start and party size the rules of time allow and some open table seats. */
function daySlots(m: FeedMerchant, engine: Availability, services: EngineService[], date: string) {
  const { settings } = engine.catalog;
  const tables = engine.usableTables("online");
  const out = [];
  for (const service of services.filter((s) => serviceRunsOn(s, date))) {
    for (const start of serviceGrid(service, date, settings)) {
      for (const pax of partySizes(service, settings.max_online_pax)) {
        if (engine.checkTime(service, date, start, pax, "online")) continue;
        const seating = tables.filter(
          (t) => t.guestsMin <= pax && pax <= t.guestsMax && !engine.isClosed(t, date, start, service.id),
        );
        if (!seating.length) continue;
        const stay = stayMinutes(pax, settings, service);
        out.push({
          merchant_id: m.property.publicKey,
          service_id: String(service.id),
          start_sec: startSecOf(settings.timezone, start),
          duration_sec: stay * 60,
          spots_total: seating.length,
          spots_open: seating.filter((t) => engine.isFree(t, start, stay)).length,
          resources: { party_size: pax },
          confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
        });
      }
    }
  }
  return out;
}

/**
 * The availability feed as JSON text, piece by piece: the metadata, then per merchant one day of
 * its booking window at a time. Only one merchant's catalog and holds and one day's slots are in
 * memory at once, whatever the number of merchants (the whole feed is tens of megabytes each).
 * The text is what JSON.stringify of {metadata, service_availability: [{availability}, ...]} gives.
 */
export async function* availabilityFeedText(
  merchants: FeedMerchant[],
  complete = true,
): AsyncGenerator<string> {
  yield `{"metadata":${JSON.stringify(metadata(complete))},"service_availability":[`;
  for (const [i, m] of merchants.entries()) {
    const today = todayOf(m.property);
    const { catalog, holds } = await loadAvailability(
      m.db,
      m.property,
      today,
      addDays(today, resolveSettings(m.property.settings).max_days_ahead),
    );
    const engine = new Availability(catalog, holds, now());
    const services = feedServices(catalog.services, today);
    yield `${i ? "," : ""}{"availability":[`;
    let first = true;
    for (let date = today; date <= engine.lastDate; date = addDays(date, 1)) {
      const slots = daySlots(m, engine, services, date);
      if (!slots.length) continue;
      yield `${first ? "" : ","}${slots.map((x) => JSON.stringify(x)).join(",")}`;
      first = false;
    }
    yield "]}";
  }
  yield "]}";
}

/** A stream of `parts` as UTF-8, asking for the next part only when the reader wants more (backpressure). */
export function textStream(parts: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await parts.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await parts.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

function descriptionOf(service: object): { description?: string } {
  const text = (service as { description?: string | null }).description;
  return text ? { description: text } : {};
}
