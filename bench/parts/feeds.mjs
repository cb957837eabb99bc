// Part "feeds": the Worker's memory while it answers the search engine's availability feed, for 1
// and for FEED_BENCH_MERCHANTS (default 50) merchants, each the busy restaurant's catalog (3 rooms,
// 60 tables, 3 services) over a booking window of DAYS days. The feed is read as it arrives and only counted;
// wrangler dev's workerd processes are sampled every 20 ms: the figure is their peak resident
// memory above what they held just before the request. A streamed feed keeps it flat.
//   FEED_BENCH_MERCHANTS=50   merchants in the second measurement
import { readdirSync, readFileSync } from "node:fs";
import { call, createClient } from "./api.mjs";
import { startPhase } from "./phase.mjs";
import { fmt, say } from "./report.mjs";
import * as seed from "./seed.mjs";

const MANY = Math.max(2, Number(process.env.FEED_BENCH_MERCHANTS) || 50);
const DAYS = 7;
const PARTNER = { user: "bench-partner", password: "bench-partner-password" };
const AUTH = `Basic ${Buffer.from(`${PARTNER.user}:${PARTNER.password}`).toString("base64")}`;

/** The processes under `root` (by /proc's parent links). */
function descendants(root) {
  const parent = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), {
        ppid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]),
        name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
      });
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const [p, info] of parent) {
      if (info.ppid !== pid) continue;
      out.push({ pid: p, name: info.name });
      walk(p);
    }
  };
  walk(root);
  return out;
}

/** Resident memory (bytes) of the workerd processes under the phase's wrangler. */
function workerdRss(pids) {
  let sum = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) sum += Number(m[1]) * 1024;
    } catch {
      // gone
    }
  }
  return sum;
}

/** One fetch of the availability feed, read as it arrives: bytes, seconds and the peak memory above the start. */
async function measure(phase, pids, expected) {
  await new Promise((r) => setTimeout(r, 500));
  const before = workerdRss(pids);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, workerdRss(pids))), 20);
  const t = performance.now();
  const res = await fetch(`${phase.url}/searchengine/feeds/availability.json`, {
    headers: { Authorization: AUTH },
  });
  if (res.status !== 200) throw new Error(`availability feed: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let merchants = 0;
  let tail = "";
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    // merchants counted across chunk edges; the text must end as the JSON does
    const text = tail + decoder.decode(chunk, { stream: true });
    merchants += text.split('{"availability":[').length - 1;
    tail = text.slice(-20);
  }
  clearInterval(timer);
  if (!tail.endsWith("]}]}") && !tail.endsWith("[]}"))
    throw new Error(`availability feed: cut short after ${bytes} bytes ("${tail}")`);
  if (merchants !== expected) throw new Error(`availability feed: ${merchants} merchants, not ${expected}`);
  peak = Math.max(peak, workerdRss(pids));
  return {
    bytes,
    seconds: (performance.now() - t) / 1000,
    baseMiB: before / 2 ** 20,
    peakAboveMiB: (peak - before) / 2 ** 20,
  };
}

/** A production restaurant of `owner` with the busy catalog and its search-engine switch on. */
async function addMerchant(phase, owner, i) {
  const property = (
    await call(phase.url, "/api/v2/properties", {
      token: owner.token,
      body: { name: `Feed merchant ${i + 1}` },
    })
  ).json.data[0];
  await seed.createCatalog(phase.url, { token: owner.token, propertyId: property.id });
  // a week's window keeps 50 merchants' feed to minutes (the feed grows with days x merchants alike)
  await call(phase.url, `/api/v2/properties/${property.id}`, {
    method: "PUT",
    token: owner.token,
    body: { settings: { max_days_ahead: DAYS } },
  });
  await call(phase.url, "/api/v2/reservations/searchengine", {
    token: owner.token,
    property: property.id,
    body: { enable_searchengine: true },
  });
}

export async function feedsPart() {
  const phase = await startPhase("feeds", {
    vars: { SEARCHENGINE_USER: PARTNER.user, SEARCHENGINE_PASSWORD: PARTNER.password },
  });
  // a client per merchant (each API client has its own rate limit), all enabled for production at
  // once by hand (the operator's enable-production): only production properties reach the search engine
  const owners = [];
  for (let i = 0; i < MANY; i++) owners.push(await createClient(phase.url, `bench-feeds-${i}`));
  await seed.query(phase.dir, "DB", "UPDATE api_clients SET production_enabled = 1");
  await addMerchant(phase, owners[0], 0);
  const pids = () =>
    descendants(phase.server.child.pid)
      .filter((p) => p.name.startsWith("workerd"))
      .map((p) => p.pid);
  if (!pids().length) throw new Error("feeds: no workerd process found under wrangler dev");
  // once to warm up, then measured
  await measure(phase, pids(), 1);
  const one = await measure(phase, pids(), 1);
  say(`feeds: 1 merchant measured; adding ${MANY - 1} more`);
  for (let i = 1; i < MANY; i++) await addMerchant(phase, owners[i], i);
  const many = await measure(phase, pids(), MANY);
  await phase.stop();
  const rows = [
    [1, one],
    [MANY, many],
  ];
  console.log(
    [
      "",
      `Search engine availability feed, streamed (busy restaurant's catalog per merchant, ${DAYS}-day booking window):`,
      `${"  merchants".padEnd(12)}${"MB sent".padStart(10)}${"seconds".padStart(10)}${"workerd MiB".padStart(13)}${"peak +MiB".padStart(11)}`,
      ...rows.map(
        ([n, x]) =>
          `${`  ${n}`.padEnd(12)}${fmt(x.bytes / 1e6).padStart(10)}${fmt(x.seconds).padStart(10)}${fmt(x.baseMiB).padStart(13)}${fmt(x.peakAboveMiB).padStart(11)}`,
      ),
      `feed peak memory: 1 merchant +${fmt(one.peakAboveMiB)} MiB, ${MANY} merchants +${fmt(many.peakAboveMiB)} MiB (${fmt(many.bytes / 1e6)} MB sent)`,
    ].join("\n"),
  );
  return { merchants: { one: 1, many: MANY }, one, many };
}
