// How the bench speaks: progress lines, number formats, table rows, wrangler's errors summarised.

const started = performance.now();
export const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
export const say = (line) => console.log(`[bench ${elapsed().padStart(5)}] ${line}`);

export const fmt = (v, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : "-");
export const thousands = (n) => Math.round(n).toLocaleString("en");

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** One line of the route table: req/s, p50, p99, non-2xx. */
export function row(label, r) {
  const non2xx = r.non2xx + (r.errors ?? 0) + (r.timeouts ?? 0);
  return `${label.padEnd(36)}${fmt(r.rps).padStart(9)}${fmt(r.p50, 2).padStart(10)}${fmt(r.p99, 2).padStart(10)}${String(non2xx).padStart(9)}`;
}

export const ROW_HEAD = `${"route".padEnd(36)}${"req/s".padStart(9)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}${"non-2xx".padStart(9)}`;

/** A route is broken when most of its requests fail, or none were made. */
export function broken(r) {
  const failed = r.non2xx + (r.errors ?? 0) + (r.timeouts ?? 0);
  return r.requests === 0 || failed > r.requests / 2;
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** wrangler's error lines, grouped by their message (first line, ids and paths blurred). */
export function summariseErrors(lines) {
  const groups = new Map();
  for (const raw of lines) {
    const line = raw.replace(ANSI, "");
    // wrangler's notice about node:async_hooks is not an error: nodejs_compat is on, the runtime has it
    if (!/error|exception|uncaught/i.test(line) || /may throw errors at runtime unless you enable/.test(line))
      continue;
    let text = line;
    const json = line.match(/\{"level".*\}/);
    if (json) {
      try {
        const entry = JSON.parse(json[0]);
        text = `${line.slice(0, line.indexOf("]") + 1)} ${String(entry.message ?? "").split("\n")[0]}`;
      } catch {
        // keep the raw line
      }
    }
    text = text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
      .slice(0, 240);
    groups.set(text, (groups.get(text) ?? 0) + 1);
  }
  return [...groups].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count);
}

export function printErrors(lines) {
  const problems = summariseErrors(lines);
  if (!problems.length) return;
  console.log(`\nwrangler dev logged errors:`);
  for (const { count, text } of problems.slice(0, 8)) console.log(`  ${String(count).padStart(5)} x ${text}`);
}
