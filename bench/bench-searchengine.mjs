// The search engine's BatchAvailabilityLookup under the busy restaurant, on its own: the
// "searchengine" part of npm run bench (bench/parts/searchengine.mjs), kept as a command.
//   node bench/bench-searchengine.mjs     (SE_BENCH_REQUESTS, SE_BENCH_CONCURRENCY, BENCH_OUT, BENCH_KEEP)
process.env.BENCH_ONLY = "searchengine";
await import("./bench.mjs");
