// Drives the Worker with autocannon and summarises what came back. Latencies are taken from
// autocannon's per-response timings (fractions of a millisecond), not its integer histogram.
import autocannon from "autocannon";

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarise(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : NaN;
  return { count: sorted.length, mean, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Round-robin over access tokens: every request goes out under the next client's token. */
export function tokenRotor(tokens) {
  let i = Math.floor(Math.random() * tokens.length);
  return () => tokens[i++ % tokens.length];
}

function statusTally(result) {
  const out = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) out[code] = Number(count);
  return out;
}

async function fire(opts, onResponse) {
  const instance = autocannon({
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
    ...opts,
  });
  if (onResponse) instance.on("response", onResponse);
  return await instance;
}

/**
 * GETs `path` for `duration` seconds over `connections` connections, after a warm-up.
 * `auth`: {rotor, property?} adds a rotating bearer token (and the Property header);
 * `extraHeaders`: more headers on every request.
 */
export async function measureGet({
  url,
  path,
  auth,
  connections = 10,
  duration = 10,
  warmup = 2,
  extraHeaders = {},
}) {
  const headers = { ...extraHeaders };
  if (auth?.property !== undefined) headers.Property = String(auth.property);
  const request = {
    method: "GET",
    path,
    setupRequest: (req) => {
      if (auth) req.headers.Authorization = `Bearer ${auth.rotor()}`;
      return req;
    },
  };
  if (warmup > 0) await fire({ url, connections, duration: warmup, headers, requests: [request] });
  const latencies = [];
  const result = await fire(
    { url, connections, duration, headers, requests: [request] },
    (_client, _status, _bytes, ms) => latencies.push(ms),
  );
  const statuses = statusTally(result);
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const ok = Object.entries(statuses).reduce((n, [code, c]) => (code.startsWith("2") ? n + c : n), 0);
  return {
    path,
    connections,
    duration: result.duration,
    requests: total,
    rps: total / result.duration,
    rpsAutocannon: result.requests.average,
    ...pick(summarise(latencies)),
    non2xx: total - ok,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    samples: latencies,
  };
}

const pick = ({ mean, p50, p99 }) => ({ mean, p50, p99 });

/**
 * POST /reservations then DELETE /reservations/{id} of the reservation just created, as
 * fast as `connections` connections go. A pair's latency runs from sending the POST to the
 * DELETE's answer. `booking()` gives the body of each POST.
 */
export async function measurePairs({ url, auth, booking, connections = 10, duration = 10, warmup = 2 }) {
  const run = async (seconds, _record) => {
    const tally = {
      pairs: [],
      posts: [],
      deletes: [],
      createStatuses: {},
      deleteStatuses: {},
      createErrors: {},
    };
    const count = (map, status) => (map[status] = (map[status] ?? 0) + 1);
    const requests = [
      {
        method: "POST",
        path: "/api/v2/reservations",
        headers: { "Content-Type": "application/json", Property: String(auth.property) },
        setupRequest: (req, ctx) => {
          req.headers.Authorization = `Bearer ${auth.rotor()}`;
          req.body = JSON.stringify(booking());
          ctx.t0 = performance.now();
          return req;
        },
        onResponse: (status, body, ctx) => {
          const now = performance.now();
          count(tally.createStatuses, status);
          tally.posts.push(now - ctx.t0);
          ctx.id = undefined;
          if (status !== 201) {
            let code = String(status);
            try {
              code += ` ${JSON.parse(body).code}`;
            } catch {
              // not problem+json
            }
            count(tally.createErrors, code);
          }
          if (status === 201) {
            try {
              ctx.id = JSON.parse(body).data[0].id;
            } catch {
              // counted as a create without an id below
            }
          }
        },
      },
      {
        method: "DELETE",
        path: "/api/v2/reservations/0",
        headers: { Property: String(auth.property) },
        setupRequest: (req, ctx) => {
          // Nothing was created: start over with another POST.
          if (ctx.id === undefined) return null;
          req.path = `/api/v2/reservations/${ctx.id}`;
          req.headers.Authorization = `Bearer ${auth.rotor()}`;
          ctx.t1 = performance.now();
          return req;
        },
        onResponse: (status, _body, ctx) => {
          const now = performance.now();
          count(tally.deleteStatuses, status);
          tally.deletes.push(now - ctx.t1);
          if (status === 200) tally.pairs.push(now - ctx.t0);
        },
      },
    ];
    const result = await fire({ url, connections, duration: seconds, requests });
    return { result, tally };
  };
  if (warmup > 0) await run(warmup);
  const { result, tally } = await run(duration);
  const statuses = statusTally(result);
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const ok = Object.entries(statuses).reduce((n, [code, c]) => (code.startsWith("2") ? n + c : n), 0);
  return {
    path: "POST /api/v2/reservations + DELETE /api/v2/reservations/{id}",
    connections,
    duration: result.duration,
    pairs: tally.pairs.length,
    rps: tally.pairs.length / result.duration,
    requests: total,
    requestRps: total / result.duration,
    ...pick(summarise(tally.pairs)),
    post: pick(summarise(tally.posts)),
    delete: pick(summarise(tally.deletes)),
    non2xx: total - ok,
    statuses,
    createStatuses: tally.createStatuses,
    deleteStatuses: tally.deleteStatuses,
    createErrors: tally.createErrors,
    errors: result.errors,
    timeouts: result.timeouts,
    samples: { pairs: tally.pairs, posts: tally.posts, deletes: tally.deletes },
  };
}

/**
 * POST /reservations with `booking()` bodies (no table_ids: the engine picks), for `duration`
 * seconds over `connections` connections. `created` counts the 201s, `rps` every answer.
 */
export async function measureCreates({ url, auth, booking, connections = 10, duration = 10 }) {
  const latencies = [];
  const errors = {};
  const request = {
    method: "POST",
    path: "/api/v2/reservations",
    headers: { "Content-Type": "application/json", Property: String(auth.property) },
    setupRequest: (req) => {
      req.headers.Authorization = `Bearer ${auth.rotor()}`;
      req.body = JSON.stringify(booking());
      return req;
    },
    onResponse: (status, body) => {
      if (status === 201) return;
      let code = String(status);
      try {
        code += ` ${JSON.parse(body).code}`;
      } catch {
        // not problem+json
      }
      errors[code] = (errors[code] ?? 0) + 1;
    },
  };
  const result = await fire(
    { url, connections, duration, requests: [request] },
    (_client, _status, _bytes, ms) => latencies.push(ms),
  );
  const statuses = statusTally(result);
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    property: auth.property,
    connections,
    duration: result.duration,
    requests: total,
    rps: total / result.duration,
    created: statuses["201"] ?? 0,
    createdPerSecond: (statuses["201"] ?? 0) / result.duration,
    ...pick(summarise(latencies)),
    statuses,
    refusals: errors,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const addCounts = (maps) => {
  const out = {};
  for (const m of maps) for (const [k, v] of Object.entries(m ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
};
const sum = (runs, key) => runs.reduce((n, r) => n + (r[key] ?? 0), 0);

/** One figure from several runs of a GET route: pooled requests and latencies. */
export function combineGets(runs) {
  const samples = runs.flatMap((r) => r.samples);
  const duration = sum(runs, "duration");
  const requests = sum(runs, "requests");
  return {
    path: runs[0].path,
    connections: runs[0].connections,
    runs: runs.length,
    duration,
    requests,
    rps: requests / duration,
    ...pick(summarise(samples)),
    non2xx: sum(runs, "non2xx"),
    statuses: addCounts(runs.map((r) => r.statuses)),
    errors: sum(runs, "errors"),
    timeouts: sum(runs, "timeouts"),
    perRun: runs.map((r) => ({ rps: r.rps, p50: r.p50, p99: r.p99 })),
    samples,
  };
}

/** One figure from several create-then-delete runs. */
export function combinePairs(runs) {
  const pairs = runs.flatMap((r) => r.samples.pairs);
  const posts = runs.flatMap((r) => r.samples.posts);
  const deletes = runs.flatMap((r) => r.samples.deletes);
  const duration = sum(runs, "duration");
  return {
    path: runs[0].path,
    connections: runs[0].connections,
    runs: runs.length,
    duration,
    pairs: pairs.length,
    rps: pairs.length / duration,
    requests: sum(runs, "requests"),
    requestRps: sum(runs, "requests") / duration,
    ...pick(summarise(pairs)),
    post: pick(summarise(posts)),
    delete: pick(summarise(deletes)),
    non2xx: sum(runs, "non2xx"),
    statuses: addCounts(runs.map((r) => r.statuses)),
    createStatuses: addCounts(runs.map((r) => r.createStatuses)),
    deleteStatuses: addCounts(runs.map((r) => r.deleteStatuses)),
    createErrors: addCounts(runs.map((r) => r.createErrors)),
    errors: sum(runs, "errors"),
    timeouts: sum(runs, "timeouts"),
    perRun: runs.map((r) => ({ rps: r.rps, p50: r.p50, p99: r.p99 })),
    samples: { pairs, posts, deletes },
  };
}
