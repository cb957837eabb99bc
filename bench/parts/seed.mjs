// Seeds a busy restaurant: the catalog through the API, the reservations (with their table
// holds, customers and history rows) as SQL straight into the shard that holds the property,
// and extra API clients with access tokens (in the control database) so the load spreads over
// many per-client rate-limit buckets.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { QUIET_ENV, ROOT } from "../../scripts/dev-server.mjs";
import { API, call } from "./api.mjs";

export const TIMEZONE = "Europe/Rome";

/** worker/shards/shards.ts: shard k hands out ids from k * ID_STRIDE + 1 (sqlite_sequence). */
export const ID_STRIDE = 1_000_000_000_000;

/** The first ids a shard hands out for tables the seed writes with explicit ids. */
export const firstIds = (shard) => ({ reservation: shard * ID_STRIDE + 1, customer: shard * ID_STRIDE + 1 });

export const SETTINGS = {
  timezone: TIMEZONE,
  locale: "en",
  average_stay: 90,
  turn_times: [{ max_pax: 2, minutes: 75 }],
  slot_interval: 15,
  min_notice: 0,
  max_days_ahead: 1095,
  cancel_notice: 0,
  max_online_pax: 10,
};

/** Stay of a party under SETTINGS (what the engine would give it). */
export const stayOf = (pax) => (pax <= 2 ? 75 : 90);

// 3 rooms, 50 single tables, 10 groups of two 4-tops each (the members share a room).
const ROOMS = [
  { name: "Sala", twos: 8, fours: 8, sixes: 4, groups: 4 },
  { name: "Veranda", twos: 6, fours: 8, sixes: 4, groups: 4 },
  { name: "Giardino", twos: 4, fours: 4, sixes: 4, groups: 2 },
];

export const SERVICES = [
  { name: "Breakfast", start_hour: "08:00", end_hour: "10:30" },
  { name: "Lunch", start_hour: "12:00", end_hour: "14:30" },
  { name: "Dinner", start_hour: "19:00", end_hour: "22:30" },
];

// Where seeded parties sit: per table and day at most one party per start time below. The
// longest stay is 90 minutes and the times are at least 105 minutes apart, so holds on one
// table never touch (the trigger refuses a party ending at the minute the next one starts).
const POSITIONS = [
  { hour: "08:00", service: 0 },
  { hour: "09:45", service: 0 },
  { hour: "12:00", service: 1 },
  { hour: "13:45", service: 1 },
  { hour: "19:00", service: 2 },
  { hour: "20:45", service: 2 },
  { hour: "22:30", service: 2 },
];

/** Creates settings, rooms, tables, groups and services through the API. */
export async function createCatalog(url, { token, propertyId }) {
  const as = (path, o = {}) => call(url, `${API}${path}`, { token, property: propertyId, ...o });
  await as(`/properties/${propertyId}`, { method: "PUT", body: { settings: SETTINGS } });
  const singles = [];
  const groups = [];
  const rooms = [];
  for (const [r, spec] of ROOMS.entries()) {
    const room = (await as("/rooms", { body: { name: spec.name } })).json.data[0];
    rooms.push(room.id);
    const kinds = [
      ...Array(spec.twos).fill([1, 2]),
      ...Array(spec.fours).fill([2, 4]),
      ...Array(spec.sixes).fill([4, 6]),
    ];
    const here = [];
    for (const [i, [min, max]] of kinds.entries()) {
      const name = `${spec.name[0]}${r + 1}-${String(i + 1).padStart(2, "0")}`;
      const t = (await as("/tables", { body: { name, room_id: room.id, guests_min: min, guests_max: max } }))
        .json.data[0];
      here.push({ id: t.id, roomId: room.id, min, max, group: undefined });
    }
    const fours = here.filter((t) => t.max === 4);
    for (let g = 0; g < spec.groups; g++) {
      const [a, b] = [fours[2 * g], fours[2 * g + 1]];
      const body = {
        name: `${spec.name[0]}${r + 1}-G${g + 1}`,
        room_id: room.id,
        group: true,
        guests_min: 5,
        guests_max: 8,
        table_ids: [a.id, b.id],
      };
      const t = (await as("/tables", { body })).json.data[0];
      const group = { id: t.id, roomId: room.id, min: 5, max: 8, members: [a, b] };
      a.group = b.group = group;
      groups.push(group);
    }
    singles.push(...here);
  }
  const services = [];
  for (const s of SERVICES) {
    services.push(
      (await as("/services", { body: { ...s, weekdays: [1, 2, 3, 4, 5, 6, 7] } })).json.data[0].id,
    );
  }
  return { propertyId, rooms, singles, groups, services };
}

// ---------- dates ----------

/** Today's date in the restaurant's zone. */
export function today(timeZone = TIMEZONE) {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
}

export function localMinutes(date, hour = "00:00") {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = hour.split(":").map(Number);
  return Date.UTC(y, m - 1, d, hh, mm) / 60000;
}

export function addDays(date, days) {
  const d = new Date(localMinutes(date) * 60000 + days * 86400000);
  return d.toISOString().slice(0, 10);
}

// ---------- reservations ----------

/** A small deterministic generator, so a day gets the same parties in every database. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (rand, lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

/** `count` non-overlapping parties on `date` (at most one per table and position). */
export function dayParties(catalog, date, count) {
  const rand = rng(localMinutes(date) / 1440);
  const candidates = [];
  for (const [p, pos] of POSITIONS.entries()) {
    for (const t of catalog.singles) if (!t.group) candidates.push({ p, pos, table: t, holds: [t.id] });
    for (const g of catalog.groups) {
      // A group sits together at some positions; at the others its members seat parties alone.
      if (rand() < 0.4) candidates.push({ p, pos, table: g, holds: [g.id, ...g.members.map((m) => m.id)] });
      else for (const m of g.members) candidates.push({ p, pos, table: m, holds: [m.id] });
    }
  }
  // Dinner is the busiest service: weight its positions up before shuffling.
  const keyed = candidates.map((c) => ({ c, k: rand() * (c.pos.service === 2 ? 0.55 : 1) }));
  keyed.sort((x, y) => x.k - y.k);
  if (count > keyed.length) throw new Error(`at most ${keyed.length} parties fit in a day, not ${count}`);
  return keyed.slice(0, count).map(({ c }) => {
    const pax = between(rand, Math.max(1, c.table.min), c.table.max);
    const start = localMinutes(date, c.pos.hour);
    return {
      serviceId: catalog.services[c.pos.service],
      roomId: c.table.roomId,
      date,
      hour: `${c.pos.hour}:00`,
      startMin: start,
      endMin: start + stayOf(pax),
      pax,
      tableId: c.table.id,
      holds: c.holds,
    };
  });
}

const q = (s) => (s === null || s === undefined ? "NULL" : `'${String(s).replace(/'/g, "''")}'`);

/** Multi-row INSERTs of at most ~90 kB each (D1 caps one statement at 100 kB). */
class InsertWriter {
  constructor(head) {
    this.head = head;
    this.rows = [];
    this.size = 0;
    this.statements = [];
  }
  add(row) {
    this.rows.push(row);
    this.size += row.length + 2;
    if (this.size > 90_000) this.flush();
  }
  flush() {
    if (this.rows.length) this.statements.push(`${this.head} VALUES\n${this.rows.join(",\n")};`);
    this.rows = [];
    this.size = 0;
  }
  sql() {
    this.flush();
    return this.statements.join("\n");
  }
}

/**
 * Starts the sequences of the tables the seed writes at the shard's base unless they have one,
 * as the Worker's seedIdRange does (worker/shards/shards.repo.ts): explicit ids above the base
 * then raise them, so the API's later inserts continue above the seeded rows, never on them.
 */
function sequencesSql(shard) {
  return ["customers", "reservations"]
    .map(
      (name) =>
        `INSERT INTO sqlite_sequence (name, seq) SELECT '${name}', ${shard * ID_STRIDE} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${name}');`,
    )
    .join("\n");
}

/**
 * SQL for the parties of `days` (a list of [date, count]) on the catalog's shard; ids continue
 * from `next` ({reservation, customer}, inside the shard's range), which is updated.
 * Returns {sql, reservations, holds}.
 */
export function reservationsSql(catalog, days, next, { customersPerParty = 0.3 } = {}) {
  if (
    Math.floor(next.reservation / ID_STRIDE) !== catalog.shard ||
    Math.floor(next.customer / ID_STRIDE) !== catalog.shard
  ) {
    throw new Error(`ids ${next.reservation}/${next.customer} are outside shard ${catalog.shard}'s range`);
  }
  const customers = new InsertWriter(
    "INSERT INTO customers (id, property_id, first_name, last_name, email, phone)",
  );
  const reservations = new InsertWriter(
    "INSERT INTO reservations (id, property_id, customer_id, service_id, room_id, start_date, start_hour, start_min, end_min, pax, status, channel, table_ids)",
  );
  const holds = new InsertWriter(
    "INSERT INTO reservation_tables (reservation_id, table_id, start_min, end_min)",
  );
  const history = new InsertWriter(
    "INSERT INTO reservation_history (reservation_id, seq, actor, action, from_status, to_status, changes)",
  );
  const pid = catalog.propertyId;
  const total = days.reduce((n, [, c]) => n + c, 0);
  const firstCustomer = next.customer;
  const customerCount = Math.max(1, Math.round(total * customersPerParty));
  for (let i = 0; i < customerCount; i++) {
    const id = next.customer++;
    customers.add(
      `(${id}, ${pid}, ${q(`Guest${id}`)}, ${q(`Seeded`)}, ${q(`guest${id}@bench.example`)}, ${q(`+39 02 ${String(1000000 + id)}`)})`,
    );
  }
  let holdCount = 0;
  let n = 0;
  for (const [date, count] of days) {
    for (const party of dayParties(catalog, date, count)) {
      const id = next.reservation++;
      const customer = firstCustomer + (n++ % customerCount);
      reservations.add(
        `(${id}, ${pid}, ${customer}, ${party.serviceId}, ${party.roomId}, ${q(party.date)}, ${q(party.hour)}, ${party.startMin}, ${party.endMin}, ${party.pax}, 'ACCEPTED', 'PLATFORM_ADMIN', ${q(JSON.stringify([party.tableId]))})`,
      );
      for (const t of party.holds) {
        holds.add(`(${id}, ${t}, ${party.startMin}, ${party.endMin})`);
        holdCount++;
      }
      history.add(`(${id}, 1, 'client:bench', 'created', NULL, 'ACCEPTED', '{"status":[null,"ACCEPTED"]}')`);
    }
  }
  const sql = [
    sequencesSql(catalog.shard),
    customers.sql(),
    reservations.sql(),
    holds.sql(),
    history.sql(),
  ].join("\n");
  return { sql, reservations: n, holds: holdCount, customers: customerCount };
}

// ---------- D1 ----------

/**
 * Runs wrangler without blocking the event loop (a blocked loop misses the server closing
 * idle keep-alive sockets, and the next fetch then fails on a dead one).
 */
function wranglerAsync(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...QUIET_ENV },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

// `binding` names the database as wrangler.toml binds it: DB (the control database: clients,
// tokens, grants, the property directory) or SHARD_<k> (everything a property owns).

/**
 * `wrangler d1 execute` from outside while the running Worker still writes (its emails and
 * deliveries after a burst of bookings): SQLite may answer "database is locked" (SQLITE_BUSY);
 * such a run is tried again after a pause, up to five times.
 */
async function d1Execute(args) {
  for (let attempt = 1; ; attempt++) {
    const r = await wranglerAsync(["d1", "execute", ...args]);
    if (r.status === 0 || attempt === 5 || !/SQLITE_BUSY|database is locked/.test(`${r.stdout}${r.stderr}`))
      return r;
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
  }
}

/** Runs a .sql file on a local D1 under persistTo (the running wrangler dev sees the rows). */
export async function execSqlFile(persistTo, binding, file) {
  const r = await d1Execute([binding, "--local", "--persist-to", persistTo, "--file", file, "--yes"]);
  if (r.status !== 0)
    throw new Error(
      `wrangler d1 execute ${binding} --file ${file} failed:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`,
    );
}

/** Runs one query on a local D1 and returns its rows. */
export async function query(persistTo, binding, sql) {
  const r = await d1Execute([binding, "--local", "--persist-to", persistTo, "--json", "--command", sql]);
  if (r.status !== 0)
    throw new Error(`query on ${binding} failed: ${sql}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout)[0]?.results ?? [];
}

/** Runs `sql` (statements separated by ";") on `binding`: every statement's {results, meta}, meta.rows_read among them. */
export async function queryAll(persistTo, binding, sql) {
  const r = await d1Execute([binding, "--local", "--persist-to", persistTo, "--json", "--command", sql]);
  if (r.status !== 0)
    throw new Error(`query on ${binding} failed: ${sql}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout);
}

/** Writes `sql` to `name` in persistTo and runs it on `binding`. */
export async function writeAndRun(persistTo, binding, name, sql) {
  const file = join(persistTo, name);
  writeFileSync(file, sql);
  await execSqlFile(persistTo, binding, file);
}

export const shardBinding = (shard) => `SHARD_${shard}`;

/** The shard the property directory (control database) names for a property. */
export async function shardOf(persistTo, propertyId) {
  const [row] = await query(
    persistTo,
    "DB",
    `SELECT shard FROM property_directory WHERE id = ${Number(propertyId)}`,
  );
  if (!row) throw new Error(`property ${propertyId} is not in the directory`);
  return row.shard;
}

/**
 * SQL for the control database: `count` extra API clients, each granted the properties and
 * holding one access token valid for a day. The per-client rate limit (600 requests a minute)
 * then applies to each bucket separately, so the load rotating through these tokens is not
 * throttled.
 */
export function benchClientsSql(propertyIds, count, firstId = 100_001) {
  const clients = new InsertWriter(
    "INSERT INTO api_clients (id, client_id, secret_hash, name, email, username, password_hash, redirect_uri)",
  );
  const grants = new InsertWriter("INSERT INTO property_grants (client_id, property_id)");
  const tokens = new InsertWriter("INSERT INTO access_tokens (token_hash, client_id, expires_at)");
  // a year: the storage part checks parties in on their days, its Worker's clock set days ahead
  const expires = new Date(Date.now() + 366 * 86_400_000).toISOString();
  const list = [];
  for (let i = 0; i < count; i++) {
    const id = firstId + i;
    const token = `at_bench_${randomBytes(24).toString("base64url")}`;
    const hash = createHash("sha256").update(token).digest("hex");
    clients.add(
      `(${id}, 'ci_bench_${id}_${randomBytes(6).toString("hex")}', 'unusable', 'bench load ${i}', 'load${id}@bench.example', 'bench-load-${id}', 'unusable', 'https://bench.example')`,
    );
    for (const propertyId of propertyIds) grants.add(`(${id}, ${propertyId})`);
    tokens.add(`(${q(hash)}, ${id}, ${q(expires)})`);
    list.push(token);
  }
  return { sql: [clients.sql(), grants.sql(), tokens.sql()].join("\n"), tokens: list };
}

/**
 * Bodies of creates without table_ids: a random day from `fromDay` to `toDay` - 1 days after
 * `today`, a random time of a random service (half of them at dinner), 2 to 4 guests, one of
 * 200 returning guests.
 */
export function bookingMaker(catalog, today, { fromDay, toDay }) {
  const grids = SERVICES.map(({ start_hour, end_hour }) => {
    const out = [];
    for (let m = localMinutes("2000-01-01", start_hour); m <= localMinutes("2000-01-01", end_hour); m += 15) {
      out.push(new Date(m * 60000).toISOString().slice(11, 19));
    }
    return out;
  });
  let booked = 0;
  return () => {
    const s = Math.random() < 0.5 ? 2 : Math.floor(Math.random() * 2);
    const grid = grids[s];
    const n = booked++;
    return {
      start_date: addDays(today, fromDay + Math.floor(Math.random() * (toDay - fromDay))),
      start_hour: grid[Math.floor(Math.random() * grid.length)],
      pax: 2 + Math.floor(Math.random() * 3),
      service_id: catalog.services[s],
      customer: {
        first_name: "Bench",
        last_name: `Guest ${n % 200}`,
        email: `bench.guest${n % 200}@load.example`,
      },
    };
  };
}
