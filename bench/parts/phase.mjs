// The bench's harness: fresh local databases with a wrangler dev on them (a "phase"), the
// restaurant they serve, and the bookkeeping that stops every server whatever happens.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, startDevOnFreePort } from "../../scripts/dev-server.mjs";
import { call, createClient, fetchRetry } from "./api.mjs";
import { tokenRotor } from "./load.mjs";
import { say } from "./report.mjs";
import * as seed from "./seed.mjs";

/** The operator's door (/__ops, worker/ops/ops.routes.ts) answers this token in the bench's servers only. */
export const OPS_TOKEN = `bench-ops-${Date.now().toString(36)}`;
// Enough clients that no one of them reaches 600 requests in a minute at thousands of req/s.
const LOAD_CLIENTS = 300;

const servers = new Set();
const tempDirs = [];
/** wrangler dev's output of every phase, for the error summary. */
export const workerLog = [];

/** Stops every server still running and removes the databases (unless BENCH_KEEP). */
export async function cleanup() {
  await Promise.all([...servers].map((s) => s.stop().catch(() => {})));
  servers.clear();
  if (!process.env.BENCH_KEEP)
    for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export const keptDirs = () => tempDirs;

/** A temporary folder, removed by cleanup() unless BENCH_KEEP. */
export function tempDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** Fresh local databases (control and every shard) with a running wrangler dev on them; `vars`: more Worker vars. */
export async function startPhase(name, { vars = {} } = {}) {
  const dir = tempDir(name);
  await migrate(dir);
  const log = (line) => {
    if (/Scheduled Workers|trigger a scheduled event|curl ".*scheduled"|cron-triggers/.test(line)) return;
    workerLog.push(`[${name}] ${line}`);
  };
  const start = (more) => startDevOnFreePort({ persistTo: dir, log, vars: { OPS_TOKEN, ...more } });
  const phase = { name, dir, server: await start(vars), stop: () => stopPhase(phase.server) };
  servers.add(phase.server);
  phase.url = phase.server.url;
  /** A new wrangler dev on the same databases with these vars (DEV_CLOCK, say): the URL changes. */
  phase.restart = async (more = {}) => {
    await stopPhase(phase.server);
    phase.server = await start({ ...vars, ...more });
    servers.add(phase.server);
    phase.url = phase.server.url;
  };
  say(`${name}: wrangler dev on ${phase.url}, databases in ${dir}`);
  return phase;
}

async function stopPhase(server) {
  servers.delete(server);
  await server.stop();
}

/**
 * A restaurant on a phase: its owner (an API client whose sandbox property it is), its catalog
 * (`makeCatalog(url, owner)`, by default the busy restaurant's), and the shard the directory
 * placed it on, with the next ids the seed may write there.
 */
export async function addRestaurant(phase, username, makeCatalog = seed.createCatalog) {
  const owner = await createClient(phase.url, username);
  const shard = await seed.shardOf(phase.dir, owner.propertyId);
  const catalog = { ...(await makeCatalog(phase.url, owner)), shard };
  return { owner, catalog, shard, binding: seed.shardBinding(shard), next: seed.firstIds(shard) };
}

/** A phase with one busy restaurant on it; `shard`: where it must land (filler clients take the shards before it). */
export async function newPhase(name, { shard = 0 } = {}) {
  const phase = await startPhase(name);
  for (let i = 0; i < shard; i++) await createClient(phase.url, `bench-${name}-filler-${i}`);
  const restaurant = await addRestaurant(phase, `bench-${name}`);
  if (restaurant.shard !== shard)
    throw new Error(
      `${name}: the directory placed the restaurant on shard ${restaurant.shard}, not ${shard}`,
    );
  return Object.assign(phase, restaurant);
}

/** Reads the shard of a restaurant (`r`: a phase or an addRestaurant()). */
export const shardQuery = (phase, r, sql) => seed.query(phase.dir, r.binding, sql);

/** Seeds `days` ([date, count] pairs) of parties into the restaurant's shard. */
export async function seedDays(phase, r, days, label) {
  const t = performance.now();
  const out = seed.reservationsSql(r.catalog, days, r.next);
  await seed.writeAndRun(phase.dir, r.binding, `${label}.sql`, out.sql);
  say(
    `${phase.name}: wrote ${out.reservations.toLocaleString("en")} reservations (${out.holds.toLocaleString("en")} table holds) into ${r.binding} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  return out;
}

/**
 * Extra API clients granted the restaurants (control database), so the load is not held back by
 * per-client limits. Answers {tokens, rotor}.
 */
export async function addLoadClients(phase, restaurants) {
  const { sql, tokens } = seed.benchClientsSql(
    restaurants.map((r) => r.catalog.propertyId),
    LOAD_CLIENTS,
  );
  await seed.writeAndRun(phase.dir, "DB", "clients.sql", sql);
  for (const token of [tokens[0], tokens.at(-1)]) {
    const res = await fetchRetry(`${phase.url}/api/v2/properties/${restaurants[0].catalog.propertyId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (res.status !== 200)
      throw new Error(`a seeded load token is refused: ${res.status} ${await res.text()}`);
  }
  return { tokens, rotor: tokenRotor(tokens) };
}

/** The shards' sizes and rows as the Worker's D1 reports them (GET /__ops/shards, meta.size_after). */
export async function shardStats(phase) {
  const res = await call(phase.url, "/__ops/shards", { token: OPS_TOKEN });
  return res.json.data;
}

/** What the restaurant's shard holds: its catalog and every reservation, hold and customer there. */
export async function counts(phase, r) {
  const pid = r.catalog.propertyId;
  const [c] = await shardQuery(
    phase,
    r,
    `SELECT
       (SELECT count(*) FROM rooms WHERE property_id = ${pid} AND deleted_at IS NULL) AS rooms,
       (SELECT count(*) FROM dining_tables WHERE property_id = ${pid} AND deleted_at IS NULL AND is_group = 0) AS tables,
       (SELECT count(*) FROM dining_tables WHERE property_id = ${pid} AND deleted_at IS NULL AND is_group = 1) AS groups_,
       (SELECT count(*) FROM services WHERE property_id = ${pid} AND deleted_at IS NULL) AS services,
       (SELECT count(*) FROM reservations) AS reservations,
       (SELECT count(*) FROM reservations WHERE status = 'ACCEPTED') AS accepted,
       (SELECT count(*) FROM reservation_tables) AS holds,
       (SELECT count(DISTINCT start_date) FROM reservations WHERE status = 'ACCEPTED') AS days,
       (SELECT count(*) FROM customers) AS customers`,
  );
  return {
    rooms: c.rooms,
    tables: c.tables,
    groups: c.groups_,
    services: c.services,
    reservations: c.reservations,
    accepted: c.accepted,
    holds: c.holds,
    days: c.days,
    customers: c.customers,
  };
}

export function printCounts(phase, c) {
  say(
    `${phase.name}: ${c.rooms} rooms, ${c.tables} tables + ${c.groups} groups, ${c.services} services, ` +
      `${c.reservations.toLocaleString("en")} reservations (${c.accepted.toLocaleString("en")} accepted over ${c.days} days, ` +
      `${c.holds.toLocaleString("en")} table holds), ${c.customers.toLocaleString("en")} customers`,
  );
}

/** Next reservation and customer ids of a shard the API has written to as well. */
export async function syncIds(phase, r) {
  const [m] = await shardQuery(
    phase,
    r,
    "SELECT (SELECT coalesce(max(id), 0) FROM reservations) AS r, (SELECT coalesce(max(id), 0) FROM customers) AS c",
  );
  const first = seed.firstIds(r.shard);
  r.next = { reservation: Math.max(m.r + 1, first.reservation), customer: Math.max(m.c + 1, first.customer) };
}
