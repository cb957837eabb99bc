// Part "shards": two restaurants that the directory placed on two shards, booked in parallel,
// against the same total load on one restaurant. Creates without table_ids, over a year of
// days and every time of three services, so refusals stay rare and each create is a real write.
// Locally both shards are SQLite files served by one workerd on the same cores, so the ratio
// shows what the sharded code path costs or gains here, not D1's one writer per database.
import { measureCreates } from "./load.mjs";
import { addLoadClients, addRestaurant, shardStats, startPhase } from "./phase.mjs";
import { fmt, say } from "./report.mjs";
import * as seed from "./seed.mjs";

const ROUNDS = 2;

/** Runs the loads side by side; answers their pooled figures. */
async function together(loads) {
  const runs = await Promise.all(loads.map((o) => measureCreates(o)));
  const duration = Math.max(...runs.map((r) => r.duration));
  const sum = (key) => runs.reduce((n, r) => n + r[key], 0);
  const count = (pick) =>
    runs.reduce(
      (n, r) => n + Object.entries(r.statuses).reduce((k, [s, c]) => (pick(Number(s)) ? k + c : k), 0),
      0,
    );
  return {
    runs,
    duration,
    requests: sum("requests"),
    rps: sum("requests") / duration,
    created: sum("created"),
    createdPerSecond: sum("created") / duration,
    serverErrors: count((s) => s >= 500),
    refused: count((s) => s !== 201 && s < 500),
  };
}

const pooled = (rounds) => {
  const seconds = rounds.reduce((n, r) => n + r.duration, 0);
  const created = rounds.reduce((n, r) => n + r.created, 0);
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  return {
    rps: requests / seconds,
    createdPerSecond: created / seconds,
    created,
    requests,
    serverErrors: rounds.reduce((n, r) => n + r.serverErrors, 0),
    refused: rounds.reduce((n, r) => n + r.refused, 0),
  };
};

/** `o`: {duration, connections, warmup}. */
export async function shardsPart(o) {
  const phase = await startPhase("shards");
  const restaurants = [
    await addRestaurant(phase, "bench-shards-a"),
    await addRestaurant(phase, "bench-shards-b"),
  ];
  const placed = restaurants.map((r) => r.shard);
  say(`shards: the directory placed the two restaurants on shards ${placed.join(" and ")}`);
  if (new Set(placed).size !== 2)
    throw new Error(`both restaurants landed on shard ${placed[0]}: nothing to compare`);
  const { rotor } = await addLoadClients(phase, restaurants);
  const today = seed.today();
  const load = (r, connections, duration) => ({
    url: phase.url,
    auth: { rotor, property: r.catalog.propertyId },
    booking: seed.bookingMaker(r.catalog, today, { fromDay: 1, toDay: 366 }),
    connections,
    duration,
  });
  const half = Math.max(1, Math.floor(o.connections / 2));
  await together([
    load(restaurants[0], o.connections, o.warmup),
    load(restaurants[1], o.connections, o.warmup),
  ]);

  // Interleaved, and the single restaurant alternates between the shards, so drift and either
  // shard's own state weigh on both sides alike.
  const one = [];
  const two = [];
  for (let round = 0; round < ROUNDS; round++) {
    one.push(await together([load(restaurants[round % 2], 2 * half, o.duration)]));
    say(
      `  shards round ${round + 1}: one restaurant ${fmt(one.at(-1).rps)} req/s (${fmt(one.at(-1).createdPerSecond)} created/s)`,
    );
    two.push(await together(restaurants.map((r) => load(r, half, o.duration))));
    say(
      `  shards round ${round + 1}: two shards ${fmt(two.at(-1).rps)} req/s (${fmt(two.at(-1).createdPerSecond)} created/s)`,
    );
  }
  const stats = await shardStats(phase);
  await phase.stop();
  const a = pooled(one);
  const b = pooled(two);
  if (a.serverErrors + b.serverErrors > 0)
    throw new Error(`shards: ${a.serverErrors + b.serverErrors} creates answered 5xx`);
  const ratio = b.rps / a.rps;
  console.log(
    [
      "",
      `Two shards against one restaurant (creates without table_ids over 365 days; ${2 * half} connections in all, ${ROUNDS} interleaved rounds of ${o.duration} s each):`,
      `  one restaurant (shard 0 and 1 by turns):    ${fmt(a.rps)} req/s, ${fmt(a.createdPerSecond)} created/s (${a.refused} refused)`,
      `  two restaurants on shards ${placed.join(" + ")} at once:     ${fmt(b.rps)} req/s, ${fmt(b.createdPerSecond)} created/s (${b.refused} refused)`,
      `  reservations per shard afterwards: ${stats.map((s) => `shard ${s.index} ${s.rows.reservations.toLocaleString("en")}`).join(", ")}`,
      `ratio two-shard/one-restaurant throughput = ${fmt(ratio, 2)} (local: one workerd, ${2 * half} connections, the same cores for both shards)`,
    ].join("\n"),
  );
  return {
    shards: placed,
    connections: 2 * half,
    durationSeconds: o.duration,
    rounds: { one, two },
    oneRestaurant: a,
    twoShards: b,
    ratio,
    rowsPerShard: stats.map((s) => ({ index: s.index, bytes: s.bytes, reservations: s.rows.reservations })),
  };
}
