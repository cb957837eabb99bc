// Part "storage": bytes per reservation, as the growth of the shard's size (D1's meta.size_after,
// read through the operator's GET /__ops/shards) over reservations made through the API, each
// for a new customer and with its whole common life: created, checked in, checked out (so three
// history rows and, once subscribed, three events, deliveries and attempts). Three samples: first
// staff bookings that email nobody (`notify: false`) without webhook subscriptions (what stays
// after the retention purges), then bookings that email the guest (confirmation, reminder: purged
// after MESSAGE_RETENTION_DAYS), then those with a local receiver subscribed to both event types
// (everything, until the purges).
import { startReceiver } from "../../tests/receiver.mjs";
import { API, fetchRetry } from "./api.mjs";
import { addLoadClients, newPhase, shardQuery, shardStats } from "./phase.mjs";
import { fmt, say, thousands } from "./report.mjs";
import * as seed from "./seed.mjs";
import { subscribe } from "./webhooks.mjs";

const SAMPLE = 300;
const CONCURRENCY = 10;
/** D1's limit per database (decimal gigabytes, as Cloudflare states it). */
const SHARD_BYTES = 10e9;
const PER_DAY = 150;
/** A sample's parties fill this many days (about 150 a day, as a busy restaurant's). */
const DAYS_PER_SAMPLE = 2;
/** The instant of a day's check-ins: 22:00 or 23:00 in Rome, after the last service's start, before midnight. */
const EVENING_UTC = "T21:00:00Z";
export const BYTES_GOAL = 1_000;
/**
 * The shard measured: every shard but the first hands out ids from shard x 10^12 on, six bytes in
 * each row, key and index entry that holds one (shard 0's are one to three), so shard 1 is what all
 * shards but one look like: about 180 bytes a reservation more than shard 0.
 */
const MEASURED_SHARD = 1;
/** How long the purged rows stay: MESSAGE_RETENTION_DAYS and WEBHOOK_RETENTION_DAYS as worker/config.ts defaults them. */
const RETENTION_DAYS = { messages: 90, webhooks: 30 };

/** Runs `work(i)` for i in 0..n-1, `width` at a time. */
async function pool(n, width, work) {
  let next = 0;
  const lane = async () => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

/**
 * One API call. wrangler dev answers 503 without a problem code when it reloads the Worker
 * mid-request (the write may or may not have happened): such a call is sent again, with
 * `retried` set, and the figures divide by the rows that really grew, not by SAMPLE.
 */
async function must(ctx, method, path, body) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetchRetry(`${ctx.phase.url}${API}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${ctx.rotor()}`,
        Property: String(ctx.propertyId),
        ...(body && { "Content-Type": "application/json" }),
      },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    const reloaded = res.status === 503 && !res.headers.get("content-type")?.includes("problem+json");
    if (reloaded && attempt < 3) continue;
    return { status: res.status, json: res.ok ? JSON.parse(text) : undefined, text, retried: attempt > 0 };
  }
}

/** Creates `n` reservations, each for a new guest (a time that is full is tried again elsewhere); answers [{id, date}]. */
async function createMany(ctx, n, tag) {
  const booked = [];
  await pool(n, CONCURRENCY, async (i) => {
    for (let attempt = 0; ; attempt++) {
      const body = {
        ...ctx.booking(),
        ...(ctx.notify === false ? { notify: false } : {}),
        customer: {
          first_name: "Giulia",
          last_name: `Rossi ${tag}${i}`,
          email: `giulia.rossi.${tag}${i}@storage.example`,
          phone: `+39 06 ${5550000 + i}`,
        },
      };
      const r = await must(ctx, "POST", "/reservations", body);
      if (r.status === 201) return void booked.push({ id: r.json.data[0].id, date: body.start_date });
      if (r.status !== 403 || attempt >= 5)
        throw new Error(`storage: a create answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
  });
  return booked;
}

/**
 * Checks every reservation in, then out (each a change with its history row and event). A party
 * is checked in on its own day only, so each day's are checked in by a Worker restarted with its
 * clock set to that evening (DEV_CLOCK); the clock stays on the last day for what follows.
 */
async function liveMany(ctx, booked) {
  const days = new Map();
  for (const b of booked) days.set(b.date, [...(days.get(b.date) ?? []), b]);
  for (const [date, parties] of [...days].sort(([a], [b]) => a.localeCompare(b))) {
    await ctx.phase.restart({ DEV_CLOCK: `${date}${EVENING_UTC}` });
    ctx.phase.clockSet = true;
    await pool(parties.length, CONCURRENCY, async (i) => {
      for (const step of ["checkin", "checkout"]) {
        const r = await must(ctx, "PATCH", `/reservations/${parties[i].id}/${step}`);
        if (r.status !== 200 && !(r.retried && r.status < 500))
          throw new Error(`storage: ${step} on ${date} answered ${r.status}: ${r.text.slice(0, 300)}`);
      }
    });
  }
}

/**
 * Waits until every delivery of the shard is delivered (the cron sweeps what no queue took), or
 * until `timeoutMs` passed: a delivery that failed under the bench's load waits out its backoff,
 * and what it stores by then (its extra attempts included) is what gets measured and reported.
 */
async function drained(phase, r, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // wrangler d1 execute opens the file beside the running Worker: SQLITE_BUSY is possible, and
    // only means "ask again".
    const row = await shardQuery(
      phase,
      r,
      "SELECT count(*) AS n, sum(state <> 'delivered') AS open FROM webhook_deliveries",
    ).then(
      ([x]) => x,
      () => undefined,
    );
    if (row?.open === 0 || (row && Date.now() > deadline)) return row;
    if (Date.now() > deadline + timeoutMs)
      throw new Error("storage: the shard could not be read for the deliveries' state");
    await fetch(`${phase.url}/__scheduled`);
    await new Promise((res) => setTimeout(res, 2000));
  }
}

/** The size and rows of the restaurant's shard now. */
async function sizeOf(phase, r) {
  return (await shardStats(phase)).find((s) => s.index === r.shard);
}

/** Growth between two sizes, per reservation made: bytes and rows of each table. */
function growth(before, after) {
  const n = after.rows.reservations - before.rows.reservations;
  const rows = {};
  for (const [t, count] of Object.entries(after.rows))
    if (count !== before.rows[t]) rows[t] = (count - before.rows[t]) / n;
  return { bytes: (after.bytes - before.bytes) / n, rows };
}

/** The Worker back on the real clock, if liveMany set it. */
async function realClock(phase) {
  if (phase.clockSet) await phase.restart();
  phase.clockSet = false;
}

/**
 * One sample (the `index`th): SAMPLE creates on days of their own, made on the real clock, then
 * their check-ins and check-outs; the size after each step (`settle`: before the last).
 */
async function sample(phase, r, ctx, { index, tag, settle = async () => {} }) {
  await realClock(phase);
  const fromDay = 1 + index * DAYS_PER_SAMPLE;
  const booking = seed.bookingMaker(r.catalog, seed.today(), { fromDay, toDay: fromDay + DAYS_PER_SAMPLE });
  const start = await sizeOf(phase, r);
  const booked = await createMany({ ...ctx, booking }, SAMPLE, tag);
  const created = await sizeOf(phase, r);
  await liveMany(ctx, booked);
  const settled = await settle();
  const lived = await sizeOf(phase, r);
  return { create: growth(start, created), lifecycle: growth(start, lived), settled };
}

const yearsPer = (bytes) => SHARD_BYTES / (PER_DAY * 365 * bytes);
/** Bytes per reservation of `years` of a restaurant's history: what is kept for good, plus the webhook rows' window spread over them. */
const perReservationOver = (kept, webhookRows, years) =>
  kept + (webhookRows * RETENTION_DAYS.webhooks) / (365 * years);
/** docs/scale.md's projection: 10,000 restaurants at 200 reservations a day. */
const FLEET = { restaurants: 10_000, perDay: 200 };
const shardsPerYear = (bytes) => (FLEET.restaurants * FLEET.perDay * 365 * bytes) / SHARD_BYTES;

export async function storagePart() {
  const phase = await newPhase("storage", { shard: MEASURED_SHARD });
  const r = phase; // the phase is its restaurant too
  const { rotor } = await addLoadClients(phase, [r]);
  const ctx = { phase, rotor, propertyId: r.catalog.propertyId };
  say(
    `storage: ${SAMPLE} reservations through the API emailing nobody, ${SAMPLE} emailing the guest, then ${SAMPLE} with a receiver subscribed too`,
  );
  const bare = await sample(phase, r, { ...ctx, notify: false }, { index: 0, tag: "a" });
  const mailed = await sample(phase, r, ctx, { index: 1, tag: "m" });
  const receiver = await startReceiver();
  let hooked;
  try {
    await realClock(phase); // the owner's token is valid on the real clock only
    await subscribe(phase, r, receiver, "storage");
    hooked = await sample(phase, r, ctx, { index: 2, tag: "b", settle: () => drained(phase, r) });
  } finally {
    await receiver.close();
  }
  await phase.stop();
  const messages = mailed.lifecycle.bytes - bare.lifecycle.bytes;
  const webhooks = hooked.lifecycle.bytes - mailed.lifecycle.bytes;
  const all = hooked.lifecycle.bytes;
  const rowsText = (g) =>
    Object.entries(g.rows)
      .map(([t, n]) => `${t} ${fmt(n, 2)}`)
      .join(", ");
  console.log(
    [
      "",
      `Storage per reservation (shard ${r.shard}; growth of D1's size_after over ${SAMPLE} reservations made through the API per sample, each for a new customer; lifecycle = created, checked in, checked out):`,
      `  created only, emailing nobody:                    ${fmt(bare.create.bytes, 0).padStart(6)} bytes  (rows each: ${rowsText(bare.create)})`,
      `  lifecycle, emailing nobody (kept for good):       ${fmt(bare.lifecycle.bytes, 0).padStart(6)} bytes`,
      `  lifecycle, the guest emailed:                     ${fmt(mailed.lifecycle.bytes, 0).padStart(6)} bytes  (rows each: ${rowsText(mailed.lifecycle)})`,
      `  lifecycle, emailed and webhooks (all rows):       ${fmt(all, 0).padStart(6)} bytes  (rows each: ${rowsText(hooked.lifecycle)})`,
      `  of which messages (purged MESSAGE_RETENTION_DAYS after they are written): ${fmt(messages, 0)} bytes`,
      `  of which webhook events, deliveries and attempts (purged after WEBHOOK_RETENTION_DAYS): ${fmt(webhooks, 0)} bytes` +
        (hooked.settled?.open
          ? ` (${hooked.settled.open} of ${hooked.settled.n} deliveries still waiting out a retry when measured)`
          : ""),
      `bytes/reservation kept for good (the reservation, its holds, history and customer; messages and webhook rows purged) = ${fmt(bare.lifecycle.bytes, 0)} (goal <= ${BYTES_GOAL})  ${bare.lifecycle.bytes <= BYTES_GOAL ? "OK" : "ABOVE GOAL"}`,
      `  with its webhook events, deliveries and attempts while they are kept (${RETENTION_DAYS.webhooks} days): ${fmt(bare.lifecycle.bytes + webhooks, 0)}; ` +
        `over a year of history at ${PER_DAY} a day (${RETENTION_DAYS.webhooks} days of webhook rows kept at any time): ${fmt(perReservationOver(bare.lifecycle.bytes, webhooks, 1), 0)}, over three years: ${fmt(perReservationOver(bare.lifecycle.bytes, webhooks, 3), 0)}`,
      `one 10 GB shard at ${PER_DAY} reservations a day: ${thousands(yearsPer(all))} restaurant-years with every row kept, ` +
        `${thousands(yearsPer(bare.lifecycle.bytes))} once messages and webhook rows are purged (plus windows of ${fmt((PER_DAY * RETENTION_DAYS.messages * messages) / 1e6, 1)} MB of messages for ${RETENTION_DAYS.messages} days and ${fmt((PER_DAY * RETENTION_DAYS.webhooks * webhooks) / 1e6, 1)} MB of webhook rows for ${RETENTION_DAYS.webhooks} per restaurant)`,
      `${FLEET.restaurants.toLocaleString("en")} restaurants at ${FLEET.perDay} a day fill ${fmt(shardsPerYear(bare.lifecycle.bytes), 1)} shards of 10 GB per year of history kept (messages and webhook rows purged; ${fmt(shardsPerYear(all), 1)} with every row kept)`,
    ].join("\n"),
  );
  return {
    shard: r.shard,
    sample: SAMPLE,
    perDay: PER_DAY,
    shardBytes: SHARD_BYTES,
    withoutEmail: bare,
    withEmail: mailed,
    withWebhooks: hooked,
    messageBytes: messages,
    webhookBytes: webhooks,
    bytesPerReservation: all,
    keptForGood: bare.lifecycle.bytes,
    keptWithWebhooks: bare.lifecycle.bytes + webhooks,
    overOneYear: perReservationOver(bare.lifecycle.bytes, webhooks, 1),
    goal: BYTES_GOAL,
    restaurantYears: { allRowsKept: yearsPer(all), afterRetention: yearsPer(bare.lifecycle.bytes) },
    fleet: {
      ...FLEET,
      shardsPerYear: shardsPerYear(bare.lifecycle.bytes),
      shardsPerYearAllKept: shardsPerYear(all),
    },
  };
}
