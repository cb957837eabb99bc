// Part "console-live": how soon an open console hears of a booking, and what an idle console
// costs, for the two designs of the live feed. One restaurant on a fresh wrangler dev, one console
// session (POST /console/session), and at the same time:
//   - the Durable Object design: a WebSocket on /console/live (the `ws` package, as the browser's
//     LiveFeed opens it: the session's cookie, the Worker's own Origin);
//   - the polling design: what the fallback does every 10 s (widget/console/live.ts POLL_MS),
//     the day view's read again, GET /console/api/v2/reservations of the day.
// 20 bookings through the public API (POST /api/v2/public/{key}/reservations), one every 6.5 s
// (under its 10 bookings a minute per IP), so their moments fall evenly over the poll's 10 s cycle
// (0.5 s apart); each one's delay is from its 201 to
// the WebSocket frame naming it, and to the first poll answer that lists it. Then an idle window
// (LIVE_IDLE_SECONDS, default 30) with no booking: frames either way on the socket, and polls.
// D1 reads: the Durable Object design reads none (worker/restaurant/live.ts hands the frame to the
// object, which keeps sockets only). A poll runs the day view's statements; their rows read are
// counted by running the same statements on the phase's local D1: the rows they return, a floor
// of the rows D1 reads and bills (wrangler's local D1 reports no rows_read).
import { loadavg } from "node:os";
import WebSocket from "ws";
import { API, call, fetchRetry } from "./api.mjs";
import { percentile } from "./load.mjs";
import { addRestaurant, startPhase } from "./phase.mjs";
import { fmt, say } from "./report.mjs";
import * as seed from "./seed.mjs";

const BOOKINGS = 20;
const GAP_MS = 6_500;
const POLL_MS = 10_000;
const TABLES = 20;
const IDLE_S = Math.max(5, Number(process.env.LIVE_IDLE_SECONDS) || 30);
const GOAL_P99_MS = 3_000;

/** A small restaurant: one room, 20 two-seat tables, a dinner service; answers its public key. */
async function liveCatalog(url, { token, propertyId }) {
  const as = (path, o = {}) => call(url, `${API}${path}`, { token, property: propertyId, ...o });
  await as(`/properties/${propertyId}`, { method: "PUT", body: { settings: seed.SETTINGS } });
  const room = (await as("/rooms", { body: { name: "Sala" } })).json.data[0];
  for (let i = 1; i <= TABLES; i++)
    await as("/tables", { body: { name: `L-${i}`, room_id: room.id, guests_min: 1, guests_max: 2 } });
  const service = (
    await as("/services", {
      body: { name: "Dinner", start_hour: "17:00", end_hour: "23:00", weekdays: [1, 2, 3, 4, 5, 6, 7] },
    })
  ).json.data[0];
  const publicKey = (await as(`/properties/${propertyId}`)).json.data[0].public_key;
  return { propertyId, serviceId: service.id, publicKey };
}

/** Signs in to the console as the restaurant; answers the session's cookie. */
async function signIn(url, username) {
  const res = await fetchRetry(`${url}/console/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: "bench-password-1" }),
  });
  if (res.status !== 200)
    throw new Error(`POST /console/session answered ${res.status}: ${await res.text()}`);
  return (res.headers.getSetCookie().find((c) => c.startsWith("console_session=")) ?? "").split(";")[0];
}

/** Opens /console/live; resolves once open. */
function connect(url, cookie, onFrame) {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/console/live`, {
    headers: { Cookie: cookie },
    origin: url,
  });
  ws.on("message", (data) => {
    const at = performance.now();
    try {
      onFrame({ at, ...JSON.parse(String(data)) });
    } catch {
      onFrame({ at, type: String(data) });
    }
  });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) =>
      reject(new Error(`GET /console/live answered ${res.statusCode}`)),
    );
    ws.once("error", reject);
  });
}

/**
 * The console's socket: every frame received, with its moment. It sends nothing, as the
 * console's LiveFeed does. A socket that drops (wrangler dev restarting its runtime) is opened
 * again at once and counted: the bookings of that moment count as missed.
 */
async function openSocket(url, cookie) {
  const socket = { cookie, frames: [], drops: 0, ws: undefined, closed: false };
  const open = async () => {
    socket.ws = await connect(url, cookie, (f) => socket.frames.push(f));
    socket.ws.once("close", () => {
      if (socket.closed) return;
      socket.drops++;
      open().catch(() => setTimeout(() => !socket.closed && open().catch(() => {}), 1_000));
    });
  };
  await open();
  socket.close = () => {
    socket.closed = true;
    socket.ws?.close();
  };
  return socket;
}

/** The fallback's poll: the day's list every 10 s from now on; each answer's ids and moment. */
function startPolling(url, cookie, date) {
  const answers = [];
  const q = new URLSearchParams({ start_date: date, end_date: date, limit: "200" });
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    const res = await fetchRetry(`${url}/console/api/v2/reservations?${q}`, { headers: { Cookie: cookie } });
    const body = await res.json();
    answers.push({
      at: performance.now(),
      status: res.status,
      ids: new Set((body.data ?? []).map((r) => r.id)),
    });
  };
  const timer = setInterval(
    () =>
      tick().catch((err) =>
        answers.push({ at: performance.now(), status: 0, ids: new Set(), error: String(err) }),
      ),
    POLL_MS,
  );
  return {
    answers,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * Booking i of the run, on `date`: its id and the moment its 201 arrived. A 503 from wrangler dev
 * (its runtime restarted mid-request) is sent again with the same Idempotency-Key.
 */
async function book(url, key, serviceId, date, i) {
  const hour = `${17 + Math.floor(i / 4)}:${String((i % 4) * 15).padStart(2, "0")}`;
  const guest = {
    first_name: "Live",
    last_name: `Guest ${i}`,
    email: `live.${i}.${Date.now().toString(36)}@bench.example`,
  };
  const init = {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Idempotency-Key": `live-${Date.now().toString(36)}-${i}`,
    },
    body: JSON.stringify({ service_id: serviceId, date, hour, pax: 2, guest }),
  };
  const sent = performance.now();
  for (let attempt = 0; ; attempt++) {
    const res = await fetchRetry(`${url}${API}/public/${key}/reservations`, init);
    const text = await res.text();
    if (res.status === 201) return { email: guest.email, sent, at: performance.now(), retried: attempt };
    if (res.status !== 503 || attempt >= 2)
      throw new Error(`POST ${API}/public/${key}/reservations answered ${res.status}: ${text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

const sleepUntil = (t) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s.at(-1), samples: s };
};

/** The day view's statements on the shard, as the list route runs them (reading its code), with wrangler's rows_read. */
async function pollRowsRead(phase, r, date, ids) {
  const pid = r.catalog.propertyId;
  const [y, m, d] = date.split("-").map(Number);
  const from = Date.UTC(y, m - 1, d) / 60000;
  const customers = (
    await r.query(`SELECT DISTINCT customer_id AS id FROM reservations WHERE id IN (${ids.join(",")})`)
  ).map((c) => c.id);
  const statements = [
    `SELECT * FROM properties WHERE id = ${pid}`,
    `SELECT * FROM reservations WHERE property_id = ${pid} AND start_min >= ${from} AND start_min < ${from + 1440} ORDER BY start_min, id LIMIT 201`,
    `SELECT id, name FROM services WHERE property_id = ${pid}`,
    `SELECT id, name FROM rooms WHERE property_id = ${pid}`,
    `SELECT * FROM dining_tables WHERE property_id = ${pid}`,
    `SELECT * FROM customers WHERE property_id = ${pid} AND id IN (${customers.join(",")})`,
    `SELECT customer_id, sum(CASE WHEN checkin_date IS NOT NULL AND status NOT IN ('CANCELLED', 'REJECTED') THEN 1 ELSE 0 END) FROM reservations WHERE customer_id IN (${customers.join(",")}) GROUP BY customer_id`,
  ];
  const results = await seed.queryAll(phase.dir, r.binding, statements.join(";\n"));
  // Local D1 reports no rows_read through wrangler: the rows the statements return, a floor of what they read.
  return {
    shardStatements: statements.length,
    shardRows: results.reduce((n, x) => n + (x.results?.length ?? 0), 0),
  };
}

/** The day's bookings, one every GAP_MS, while both designs listen; answers each one's delays. */
async function bookAndListen(phase, cat, socket, poller, date) {
  const start = performance.now() + 1_000;
  const made = [];
  for (let i = 0; i < BOOKINGS; i++) {
    await sleepUntil(start + i * GAP_MS);
    made.push(await book(phase.url, cat.publicKey, cat.serviceId, date, i));
  }
  // The last booking's poll: one cycle and a little more.
  await sleepUntil(performance.now() + POLL_MS + 2_000);
  const ids = await idsByEmail(phase.url, socket.cookie, date);
  return made.map((b) => {
    const id = ids.get(b.email);
    const frame = socket.frames.find((f) => f.type === "reservation" && f.id === id);
    const seen = poller.answers.find((a) => a.at >= b.at && a.ids.has(id));
    return {
      id,
      retried: b.retried,
      ws: frame ? frame.at - b.at : NaN,
      wsFromSent: frame ? frame.at - b.sent : NaN,
      poll: seen ? seen.at - b.at : NaN,
      post: b.at - b.sent,
    };
  });
}

/** The day's reservations as the console lists them: id by guest email. */
async function idsByEmail(url, cookie, date) {
  const q = new URLSearchParams({ start_date: date, end_date: date, limit: "200" });
  const res = await fetchRetry(`${url}/console/api/v2/reservations?${q}`, { headers: { Cookie: cookie } });
  const body = await res.json();
  return new Map((body.data ?? []).map((r) => [r.guest?.email ?? r.customer?.email, r.id]));
}

/** An idle window: frames on the socket and polls, per minute. */
async function idle(socket, poller) {
  const [frames0, polls0, t0] = [socket.frames.length, poller.answers.length, performance.now()];
  await sleepUntil(t0 + IDLE_S * 1000);
  const minutes = (performance.now() - t0) / 60_000;
  return {
    seconds: IDLE_S,
    wsFramesPerMinute: (socket.frames.length - frames0) / minutes,
    wsSentPerMinute: 0,
    pollsPerMinute: (poller.answers.length - polls0) / minutes,
  };
}

function print(res) {
  const ms = (v) => fmt(v, 0).padStart(9);
  const lines = [
    "",
    `console-live: ${BOOKINGS} bookings through the public API, one every ${GAP_MS / 1000} s; delay from the 201 to the console (ms; negative: told before the 201 arrived); load average ${res.load.map((l) => l.toFixed(1)).join(" ")}`,
    `${"design".padEnd(30)}${"p50".padStart(9)}${"p99".padStart(9)}${"max".padStart(9)}${"missed".padStart(8)}${"idle req/min".padStart(14)}${"idle D1 rows/min".padStart(18)}  (>=)`,
    `${"Durable Object (WebSocket)".padEnd(30)}${ms(res.ws.p50)}${ms(res.ws.p99)}${ms(res.ws.max)}${String(res.ws.missed).padStart(8)}${fmt(res.idle.wsSentPerMinute, 1).padStart(14)}${"0".padStart(18)}`,
    `${"  the same, from the POST sent".padEnd(30)}${ms(res.wsFromSent.p50)}${ms(res.wsFromSent.p99)}${ms(res.wsFromSent.max)}   (the POST's own answer: p50 ${fmt(res.post.p50, 0)} ms, p99 ${fmt(res.post.p99, 0)} ms)`,
    `${`polling every ${POLL_MS / 1000} s`.padEnd(30)}${ms(res.poll.p50)}${ms(res.poll.p99)}${ms(res.poll.max)}${String(res.poll.missed).padStart(8)}${fmt(res.idle.pollsPerMinute, 1).padStart(14)}${fmt(res.pollRowsPerMinute, 0).padStart(18)}`,
    `  a poll: ${res.rows.shardStatements} statements on the shard returning ${res.rows.shardRows} rows (D1 reads at least as many) for a day of ${BOOKINGS} reservations, and 2 on the control database (the session, the property's entry; the session's slide writes at most once a minute)`,
    `  the socket dropped ${res.socketDrops} times (opened again at once), ${res.retried} bookings were sent again after a 503 from wrangler dev, ${res.pollErrors} polls failed`,
    `  idle ${res.idle.seconds} s: the socket received ${fmt(res.idle.wsFramesPerMinute, 1)} frames/min and the console sends none (no keep-alive in widget/console/live.ts)`,
    `  ratios: polling / WebSocket delay (from the POST sent) p50 ${fmt((res.poll.p50 + res.post.p50) / res.wsFromSent.p50, 0)}x, p99 ${fmt((res.poll.p99 + res.post.p99) / res.wsFromSent.p99, 0)}x; WebSocket p99 ${fmt(res.ws.p99, 0)} ms after the 201, ${fmt(res.wsFromSent.p99, 0)} ms after the POST was sent (target < ${GOAL_P99_MS} ms)`,
  ];
  console.log(lines.join("\n"));
}

export async function consoleLivePart() {
  say(
    `console-live: ${BOOKINGS} bookings heard by a console's WebSocket and by the 10 s poll, then ${IDLE_S} s idle`,
  );
  const phase = await startPhase("console-live");
  try {
    const r = await addRestaurant(phase, "bench-live", liveCatalog);
    r.query = (sql) => seed.query(phase.dir, r.binding, sql);
    const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const cookie = await signIn(phase.url, "bench-live");
    const socket = await openSocket(phase.url, cookie);
    const poller = startPolling(phase.url, cookie, date);
    let delays, idleCost;
    try {
      delays = await bookAndListen(phase, r.catalog, socket, poller, date);
      idleCost = await idle(socket, poller);
    } finally {
      poller.stop();
      socket.close();
    }
    const of = (k) => ({
      ...stats(delays.map((d) => d[k]).filter(Number.isFinite)),
      missed: delays.filter((d) => !Number.isFinite(d[k])).length,
    });
    const res = {
      load: loadavg(),
      ws: of("ws"),
      wsFromSent: of("wsFromSent"),
      post: of("post"),
      poll: of("poll"),
      idle: idleCost,
      goalP99Ms: GOAL_P99_MS,
      pollErrors: poller.answers.filter((a) => a.status !== 200).length,
      socketDrops: socket.drops,
      retried: delays.filter((d) => d.retried).length,
    };
    res.rows = await pollRowsRead(phase, r, date, delays.map((d) => d.id).filter(Number.isInteger)).catch(
      (err) => ({ error: String(err).slice(0, 300), shardStatements: 7, shardRows: NaN }),
    );
    res.pollRowsPerMinute = res.rows.shardRows * (60_000 / POLL_MS);
    print(res);
    return res;
  } finally {
    await phase.stop();
  }
}
