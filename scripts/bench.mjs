// npm run bench: prints figures and ratios. The availability engine and reservations (next
// issue) bring the first workloads worth measuring; until then there is nothing to measure.
console.log("nothing to measure yet: the benchmarks arrive with the availability engine and the reservations API");
