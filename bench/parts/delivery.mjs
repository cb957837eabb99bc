// Part "delivery": commit-to-receiver latency of webhooks and of guest messages at 50 writes a
// second (p99 under 2 s for both). It runs bench/bench-delivery.mjs, which starts its
// own wrangler dev and receiver, and reads the figures from its report lines.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { say } from "./report.mjs";

const SCRIPT = fileURLToPath(new URL("../bench-delivery.mjs", import.meta.url));
const P99_GOAL_S = 2;

/** The p50/p99 (seconds) of a "webhooks:" or "messages:" report line. */
function figures(lines, kind) {
  const line = lines.find((l) => l.trim().startsWith(`${kind}:`));
  const m = line && /p50 ([\d.]+) s, p99 ([\d.]+) s/.exec(line);
  return m
    ? { p50: Number(m[1]), p99: Number(m[2]), line: line.trim() }
    : { line: line?.trim() ?? `${kind}: no figures` };
}

export async function deliveryPart({ duration }) {
  const seconds = Math.max(20, duration * 2);
  say(`delivery: webhooks and messages at 50 writes/s for ${seconds} s (bench/bench-delivery.mjs)`);
  const lines = [];
  const child = spawn(process.execPath, [SCRIPT, "--seconds", String(seconds)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  let rest = "";
  child.stdout.on("data", (chunk) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop();
    for (const l of parts) lines.push(l);
  });
  const code = await new Promise((resolve) => child.on("close", resolve));
  if (rest) lines.push(rest);
  if (code !== 0) throw new Error(`bench-delivery exited with ${code}:\n${lines.slice(-10).join("\n")}`);
  const result = {
    webhooks: figures(lines, "webhooks"),
    messages: figures(lines, "messages"),
    load: lines.find((l) => l.trim().startsWith("load:"))?.trim(),
  };
  const verdict = (f) => (f.p99 === undefined ? "NO FIGURE" : f.p99 < P99_GOAL_S ? "OK" : "ABOVE GOAL");
  console.log(
    [
      "",
      `  ${result.load ?? "load: ?"}`,
      `  ${result.webhooks.line}`,
      `  ${result.messages.line}`,
      `ratio webhooks p99 / 2 s goal = ${(result.webhooks.p99 / P99_GOAL_S).toFixed(2)} (target < 1)  ${verdict(result.webhooks)}`,
      `ratio messages p99 / 2 s goal = ${(result.messages.p99 / P99_GOAL_S).toFixed(2)} (target < 1)  ${verdict(result.messages)}`,
    ].join("\n"),
  );
  return result;
}
