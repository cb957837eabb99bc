// The widget's figures: the bundle gzipped against its budget, the time from navigation to the
// first times shown on the hosted booking page (median of 10 cold loads in headless Chromium, and
// of 5 on a slow phone's network: 400 ms latency, 400 kbit/s each way, Chromium's own emulation
// through CDP), and Lighthouse 12 (performance and accessibility) on that page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { widgetSize } from "../../scripts/build-widget.mjs";
import { ensureDemo } from "../../scripts/demo.mjs";
import { migrate, startDev } from "../../scripts/dev-server.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A slow phone's network: 400 ms latency, 400 kbit/s down and up (CDP takes bytes per second). */
export const SLOW_NETWORK = {
  offline: false,
  latency: 400,
  downloadThroughput: 400_000 / 8,
  uploadThroughput: 400_000 / 8,
};

/**
 * ms from navigation start to the first time radio in the widget's shadow roots, each load in a
 * fresh context (empty cache); `network`: CDP's emulated conditions (none: the machine's own).
 * `requests`: what the last load asked for before the times showed, in the order it asked.
 */
export async function timeToFirstTimes(
  url,
  runs = 10,
  network = undefined,
  { withoutPreloads = false } = {},
) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const samples = [];
  let requests = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      if (network) {
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", network);
      }
      // The page as it was before it preloaded the profile and the first times: the same server, without those links.
      if (withoutPreloads) {
        await page.route(url, async (route) => {
          const res = await route.fetch();
          await route.fulfill({
            response: res,
            body: (await res.text()).replace(/<link rel="preload"[^>]*>\n?/g, ""),
          });
        });
      }
      const asked = [];
      page.on("request", (r) => asked.push(new URL(r.url()).pathname));
      await page.goto(url, { waitUntil: "commit" });
      const handle = await page.waitForFunction(
        () => {
          const find = (root) => {
            if (root.querySelector('input[name="time"]')) return true;
            for (const el of root.querySelectorAll("*"))
              if (el.shadowRoot && find(el.shadowRoot)) return true;
            return false;
          };
          return find(document) && performance.now();
        },
        null,
        // A slow network on a busy machine takes longer than the default 30 s.
        { polling: "raf", timeout: network ? 120_000 : 30_000 },
      );
      const ms = await handle.jsonValue();
      // The first load warms wrangler dev (module compilation, D1 caches); it is not counted.
      if (i > 0) samples.push(ms);
      requests = [...asked];
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), samples, requests };
}

/**
 * Lighthouse 12 on `url` until `runs` runs have scored the performance (at most two tries more): the
 * run of median performance, every scored run's figures, and why the others scored nothing (a run
 * that cannot measure a metric gives no score; counted as 0 it would pull the median down).
 */
export async function lighthouseScores(url, runs = 3) {
  const all = [];
  const unscored = [];
  for (let tries = 0; all.length < runs && tries < runs + 2; tries++) {
    const r = await lighthouseOnce(url);
    if (r.performance === null) unscored.push(r.why);
    else all.push(r);
  }
  if (!all.length) throw new Error(`Lighthouse scored no run of ${url}: ${unscored.join(" | ")}`);
  const sorted = [...all].sort((a, b) => a.performance - b.performance);
  const runsOf = all.map((r) => ({
    performance: r.performance,
    accessibility: r.accessibility,
    tbt: r.tbt,
    fcp: r.fcp,
    lcp: r.lcp,
    longTasks: r.longTasks,
  }));
  return { ...sorted[Math.floor(all.length / 2)], runs: runsOf, unscored };
}

/** One Lighthouse 12 run (its default mobile emulation and simulated throttling). */
async function lighthouseOnce(url) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM,
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
    });
    const lhr = result.lhr;
    const score = (c) =>
      typeof lhr.categories[c]?.score === "number" ? Math.round(lhr.categories[c].score * 100) : null;
    const failing = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          a.scoreDisplayMode !== "informative" &&
          a.scoreDisplayMode !== "notApplicable" &&
          a.scoreDisplayMode !== "manual",
      )
      .map((a) => `${a.id} (${a.score})`);
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      fcp: lhr.audits["first-contentful-paint"]?.numericValue,
      lcp: lhr.audits["largest-contentful-paint"]?.numericValue,
      tbt: lhr.audits["total-blocking-time"]?.numericValue,
      cls: lhr.audits["cumulative-layout-shift"]?.numericValue,
      // What the blocking time is made of: the long tasks that end after the first paint, by whose
      // script ("the browser": its own work, such as committing the navigation).
      longTasks: longTasksAfter(
        lhr.audits["long-tasks"]?.details?.items ?? [],
        lhr.audits["first-contentful-paint"]?.numericValue ?? 0,
      ),
      failing,
      runtimeError: lhr.runtimeError?.message,
      why:
        lhr.runtimeError?.message ??
        (Object.values(lhr.audits)
          .filter((a) => a.errorMessage)
          .map((a) => `${a.id}: ${a.errorMessage}`)
          .slice(0, 3)
          .join("; ") ||
          "no reason given"),
    };
  } finally {
    await chrome.kill();
  }
}

/** Lighthouse's long tasks (simulated ms) that end after `fcp`: [what ran them, ms]. */
function longTasksAfter(items, fcp) {
  return items
    .filter((t) => t.startTime + t.duration > fcp)
    .map((t) => [
      t.url === "Unattributable"
        ? "the browser"
        : URL.canParse(t.url)
          ? new URL(t.url).pathname.split("/").pop()
          : t.url,
      Math.round(t.duration),
    ]);
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
    const slow = await timeToFirstTimes(url, 5, SLOW_NETWORK);
    say(
      `widget: on a slow network, first times shown after ${slow.median.toFixed(0)} ms (median of ${slow.samples.length})`,
    );
    const unloaded = await timeToFirstTimes(url, 5, SLOW_NETWORK, { withoutPreloads: true });
    say(
      `widget: on a slow network without the preloads, first times shown after ${unloaded.median.toFixed(0)} ms (median of ${unloaded.samples.length})`,
    );
    const lh = await lighthouseScores(url);
    say(
      `widget: Lighthouse performance ${lh.performance}, accessibility ${lh.accessibility} (median of ${lh.runs.length})`,
    );
    return {
      bundle: size,
      timeToFirstTimes: ttft,
      slowNetwork: slow,
      slowWithoutPreloads: unloaded,
      lighthouse: { url: url.replace(server.url, ""), ...lh },
    };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

export function widgetLines(w) {
  const { bundle, timeToFirstTimes: t, slowNetwork: slow, slowWithoutPreloads: before, lighthouse: lh } = w;
  return [
    `widget bundle /widget/booking-engine.js: ${kib(bundle.bytes)}, ${kib(bundle.gzip)} gzipped; largest first load (module, locale, page) ${kib(bundle.firstLoad)} gzipped (budget ${kib(bundle.budget)})  ${bundle.firstLoad <= bundle.budget ? "OK" : "OVER BUDGET"}`,
    `hosted booking page, navigation to first times shown: median ${t.median.toFixed(0)} ms (min ${t.min.toFixed(0)}, max ${t.max.toFixed(0)}; ${t.samples.length} cold loads, headless Chromium)`,
    `  on a slow network (400 ms latency, 400 kbit/s): median ${slow.median.toFixed(0)} ms (min ${slow.min.toFixed(0)}, max ${slow.max.toFixed(0)}; ${slow.samples.length} cold loads); ` +
      `${slow.requests.length} requests before the times: ${slow.requests.join(" -> ")}`,
    `  the same without the page's preloads (as before them): median ${before.median.toFixed(0)} ms (min ${before.min.toFixed(0)}, max ${before.max.toFixed(0)}; ${before.samples.length} cold loads)`,
    `Lighthouse 12 on ${lh.url} (median of ${lh.runs.length} runs): performance ${lh.performance}, accessibility ${lh.accessibility} (target 100/100)  ${lh.performance === 100 && lh.accessibility === 100 ? "OK" : "BELOW TARGET"}` +
      `; runs ${lh.runs.map((r) => `${r.performance}/${r.accessibility} (TBT ${r.tbt?.toFixed(0)} ms, FCP ${r.fcp?.toFixed(0)} ms${r.longTasks?.length ? `; long tasks ending after it: ${r.longTasks.map(([who, ms]) => `${who} ${ms}`).join(", ")}` : ""})`).join(", ")}; FCP ${lh.fcp?.toFixed(0)} ms, LCP ${lh.lcp?.toFixed(0)} ms, TBT ${lh.tbt?.toFixed(0)} ms, CLS ${lh.cls?.toFixed(3)}` +
      (lh.failing.length ? `; audits below 1: ${lh.failing.join(", ")}` : "") +
      (lh.runtimeError ? `; runtime error: ${lh.runtimeError}` : "") +
      (lh.unscored?.length
        ? `; ${lh.unscored.length} run(s) scored no performance and were run again: ${lh.unscored.join(" | ")}`
        : ""),
  ];
}
