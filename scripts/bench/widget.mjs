// The widget's figures: the bundle gzipped against its budget, the time from navigation to the
// first times shown on the hosted booking page (median of 10 cold loads in headless Chromium),
// and Lighthouse 12 (performance and accessibility) on that page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { widgetSize } from "../build-widget.mjs";
import { ensureDemo } from "../demo.mjs";
import { migrate, startDev } from "../dev-server.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../setup.mjs";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** ms from navigation start to the first time radio in the widget's shadow roots, each load in a fresh context (empty cache). */
export async function timeToFirstTimes(url, runs = 10) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const samples = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "commit" });
      const handle = await page.waitForFunction(
        () => {
          const find = (root) => {
            if (root.querySelector('input[name="time"]')) return true;
            for (const el of root.querySelectorAll("*")) if (el.shadowRoot && find(el.shadowRoot)) return true;
            return false;
          };
          return find(document) && performance.now();
        },
        null,
        { polling: "raf", timeout: 30_000 },
      );
      const ms = await handle.jsonValue();
      // The first load warms wrangler dev (module compilation, D1 caches); it is not counted.
      if (i > 0) samples.push(ms);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), samples };
}

/** Lighthouse 12 on `url`, `runs` times: the run of median performance, and every run's scores. */
export async function lighthouseScores(url, runs = 3) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await lighthouseOnce(url));
  const sorted = [...all].sort((a, b) => a.performance - b.performance);
  return { ...sorted[Math.floor(runs / 2)], runs: all.map((r) => ({ performance: r.performance, accessibility: r.accessibility, tbt: r.tbt, lcp: r.lcp })) };
}

/** One Lighthouse 12 run (its default mobile emulation and simulated throttling). */
async function lighthouseOnce(url) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? CHROMIUM, chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] });
    const lhr = result.lhr;
    const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual")
      .map((a) => `${a.id} (${a.score})`);
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      fcp: lhr.audits["first-contentful-paint"]?.numericValue,
      lcp: lhr.audits["largest-contentful-paint"]?.numericValue,
      tbt: lhr.audits["total-blocking-time"]?.numericValue,
      cls: lhr.audits["cumulative-layout-shift"]?.numericValue,
      failing,
      runtimeError: lhr.runtimeError?.message,
    };
  } finally {
    await chrome.kill();
  }
}

/** Runs the three measurements on a fresh local D1 with the demo restaurant; `say` prints progress. */
export async function benchWidget({ port, say = console.log } = {}) {
  const size = widgetSize();
  const dir = mkdtempSync(join(tmpdir(), "bench-widget-"));
  let server;
  try {
    await migrate(dir);
    server = await startDev({ port, persistTo: dir });
    const demo = await ensureDemo(server.url, dir);
    const url = `${server.url}/p/${demo.public_key}/book`;
    say(`widget: measuring ${url}`);
    const ttft = await timeToFirstTimes(url);
    say(`widget: first times shown after ${ttft.median.toFixed(0)} ms (median of ${ttft.samples.length})`);
    const lh = await lighthouseScores(url);
    say(`widget: Lighthouse performance ${lh.performance}, accessibility ${lh.accessibility} (median of ${lh.runs.length})`);
    return { bundle: size, timeToFirstTimes: ttft, lighthouse: { url: url.replace(server.url, ""), ...lh } };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

export function widgetLines(w) {
  const { bundle, timeToFirstTimes: t, lighthouse: lh } = w;
  return [
    `widget bundle /widget/booking-engine.js: ${kib(bundle.bytes)}, ${kib(bundle.gzip)} gzipped (budget ${kib(bundle.budget)})  ${bundle.gzip <= bundle.budget ? "OK" : "OVER BUDGET"}`,
    `hosted booking page, navigation to first times shown: median ${t.median.toFixed(0)} ms (min ${t.min.toFixed(0)}, max ${t.max.toFixed(0)}; ${t.samples.length} cold loads, headless Chromium)`,
    `Lighthouse 12 on ${lh.url} (median of ${lh.runs.length} runs): performance ${lh.performance}, accessibility ${lh.accessibility} (target 100/100)  ${lh.performance === 100 && lh.accessibility === 100 ? "OK" : "BELOW TARGET"}` +
      `; runs ${lh.runs.map((r) => `${r.performance}/${r.accessibility}`).join(", ")}; FCP ${lh.fcp?.toFixed(0)} ms, LCP ${lh.lcp?.toFixed(0)} ms, TBT ${lh.tbt?.toFixed(0)} ms, CLS ${lh.cls?.toFixed(3)}` +
      (lh.failing.length ? `; audits below 1: ${lh.failing.join(", ")}` : "") +
      (lh.runtimeError ? `; runtime error: ${lh.runtimeError}` : ""),
  ];
}
