// npm run bench: seeds restaurants into local D1 databases (a control database and two shards),
// drives the running Worker and prints requests/s, latencies, sizes and ratios with their
// targets. A measurement, not a test: it exits 0 whatever the figures, non-zero only when
// something breaks (the server does not start, seeding fails, most requests fail, a booking
// drop double-books).
//
//   BENCH_DURATION=10   seconds of load per route (default 10; the 5 rounds per database of the
//                       latency ratio use 40% of it)
//   BENCH_OUT=file.json also write the results as JSON
//   BENCH_KEEP=1        keep the temporary databases (their paths are printed)
//   BENCH_ONLY=a,b      only these parts (default all): api (load on the integrator API),
//                       webhooks (delivery to a local receiver), storage (bytes per reservation),
//                       drop (500 parallel bookings of one time), shards (two shards against one),
//                       searchengine (BatchAvailabilityLookup of 200 slots on the busy restaurant;
//                       SE_BENCH_REQUESTS, SE_BENCH_CONCURRENCY), feeds (the Worker's peak memory
//                       while it streams the availability feed of 1 and FEED_BENCH_MERCHANTS=50
//                       merchants), delivery (webhooks and
//                       guest messages, commit to receiver at 50 writes/s: bench/bench-delivery.mjs),
//                       payments (on the local Stripe stand-in: Stripe calls inside a booking's
//                       answer and the pay step's, Stripe's payment to ACCEPTED and its webhook;
//                       PAY_BENCH_BOOKINGS, default 60),
//                       widget (bundle size, time to first times, Lighthouse), upload (the
//                       Worker's upload gzipped and its startup CPU: wrangler check startup),
//                       console-ui (the console's day view and timeline of 300 reservations
//                       rendered, in Chromium), console-live (the console's live feed: 20 bookings
//                       heard through the WebSocket and through the 10 s poll, an idle console's
//                       requests and D1 reads; LIVE_IDLE_SECONDS)
// Each part ends with its goals (figure, target, OK or BELOW: bench/parts/goals.mjs) and the
// run with all of them.
import { join } from "node:path";
import { ROOT } from "../scripts/paths.mjs";
import { ensureDeps } from "../scripts/setup.mjs";

// The bench's own packages (autocannon, lighthouse, ws) are not the product's: they install into
// bench/node_modules on its first run, as the project's own do on a fresh checkout.
ensureDeps(ROOT);
ensureDeps(join(ROOT, "bench"));
await import("./run.mjs");
