// The console's rendering (BENCH_ONLY=console-ui): a day of 300 reservations on 60 tables, served
// to the built <booking-console> by a small local server with the console API's answers, and the
// time from the day's list arriving in the page to the day view (300 rows) and the timeline
// (300 bars) being on screen, median of 10 loads each. Only the rendering is measured here; the
// Worker's side of the console is in the "console" part.

import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { WIDGET_OUT } from "../../scripts/build-widget.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { median } from "./report.mjs";

const DATE = "2031-03-04";
const ROOMS = [1, 2, 3].map((id) => ({ id, name: `Room ${id}`, bookable: true }));
const TABLES = Array.from({ length: 60 }, (_, i) => ({
  id: i + 1,
  name: `T${i + 1}`,
  room_id: (i % 3) + 1,
  guests_min: 1,
  guests_max: 6,
  bookable: true,
  online: true,
  group: false,
  table_ids: [],
}));
const SERVICES = [
  {
    id: 1,
    name: "Lunch",
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    start_hour: "12:00:00",
    end_hour: "15:00:00",
    online: true,
    enabled: true,
    pax_min: 1,
    pax_max: null,
    pacing_interval: 15,
    max_covers_per_interval: null,
    max_parties_per_interval: null,
  },
  {
    id: 2,
    name: "Dinner",
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    start_hour: "18:00:00",
    end_hour: "22:30:00",
    online: true,
    enabled: true,
    pax_min: 1,
    pax_max: null,
    pacing_interval: 15,
    max_covers_per_interval: null,
    max_parties_per_interval: null,
  },
];

/** 300 reservations: 5 a table, each table's holds one after another through lunch and dinner. */
function day() {
  const hhmm = (m) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00`;
  const starts = [12 * 60, 13 * 60 + 30, 18 * 60, 19 * 60 + 30, 21 * 60];
  const list = [];
  for (const t of TABLES)
    for (const [k, start] of starts.entries()) {
      const id = list.length + 1;
      const service = start < 16 * 60 ? SERVICES[0] : SERVICES[1];
      list.push({
        id,
        pax: 2 + (id % 4),
        status: "ACCEPTED",
        customer: {
          id,
          first_name: `Guest${id}`,
          last_name: "Bench",
          email: null,
          phone: "+39 333 0000000",
          visits: id % 3,
        },
        guest: null,
        service: { id: service.id, name: service.name },
        channel: k % 2 ? "PLATFORM_BOOK" : "PLATFORM_ADMIN",
        room: { id: t.room_id, name: `Room ${t.room_id}` },
        start_date: DATE,
        start_hour: hhmm(start),
        end_date: `${DATE}T${hhmm(start + 80)}`,
        tables: [{ id: t.id, name: t.name, room_id: t.room_id, free: false }],
        waiting_list: false,
        ...(id % 7 ? {} : { allergies: "nuts" }),
      });
    }
  return list.sort((a, b) =>
    a.start_hour < b.start_hour ? -1 : a.start_hour > b.start_hour ? 1 : a.id - b.id,
  );
}

function serve() {
  const reservations = JSON.stringify({ data: day(), next_cursor: null });
  const json = (res, body) =>
    res
      .writeHead(200, { "Content-Type": "application/json" })
      .end(typeof body === "string" ? body : JSON.stringify(body));
  const session = {
    data: [
      {
        property: { id: 1, name: "Bench", timezone: "Europe/Rome", locale: "en" },
        csrf_token: "x",
        locale: "en",
        expires_at: "2031-03-05T00:00:00Z",
      },
    ],
  };
  return createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path.startsWith("/widget/")) {
      const file = join(WIDGET_OUT, path.slice("/widget/".length));
      if (!existsSync(file)) return res.writeHead(404).end();
      return res.writeHead(200, { "Content-Type": "text/javascript" }).end(readFileSync(file));
    }
    if (path === "/console/session") return json(res, session);
    if (path === "/console/api/v2/reservations") return json(res, reservations);
    if (path === "/console/api/v2/rooms") return json(res, { data: ROOMS, next_cursor: null });
    if (path === "/console/api/v2/tables") return json(res, { data: TABLES, next_cursor: null });
    if (path === "/console/api/v2/services") return json(res, { data: SERVICES, next_cursor: null });
    res
      .writeHead(200, { "Content-Type": "text/html" })
      .end(`<!doctype html><html lang="en"><body><booking-console live="off"></booking-console>
      <script>
        // When the day's list has arrived (its body read), before the view renders it.
        const original = window.fetch;
        window.fetch = async (...args) => {
          const res = await original(...args);
          if (!String(args[0]).includes("/reservations")) return res;
          const text = await res.text();
          window.__arrived = performance.now();
          return new Response(text, { status: res.status, headers: res.headers });
        };
      </script>
      <script type="module" src="/widget/booking-console.js"></script></body></html>`);
  });
}

/** ms from the list's arrival to `count` elements matching `selector` in the view's shadow root. */
async function once(page, url, view, selector, count) {
  await page.goto(url);
  return page.evaluate(
    ([view, selector, count]) =>
      new Promise((resolve) => {
        const check = () => {
          const root = document.querySelector("booking-console")?.shadowRoot?.querySelector(view)?.shadowRoot;
          if (window.__arrived && root && root.querySelectorAll(selector).length >= count)
            return resolve(performance.now() - window.__arrived);
          requestAnimationFrame(check);
        };
        check();
      }),
    [view, selector, count],
  );
}

export async function consoleUiPart({ say }) {
  say(
    "console-ui: day view and timeline of 300 reservations on 60 tables, from the data's arrival to the screen (median of 10)",
  );
  const server = serve();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const day = [];
    const timeline = [];
    for (let i = 0; i < 10; i++)
      day.push(await once(page, `${origin}/console/day/${DATE}`, "bc-day-view", "section tbody tr", 300));
    for (let i = 0; i < 10; i++)
      timeline.push(await once(page, `${origin}/console/timeline/${DATE}`, "bc-timeline-view", ".hold", 300));
    const result = { day_ms: median(day), timeline_ms: median(timeline), target_ms: 150 };
    console.log(
      `\nconsole-ui: day view ${result.day_ms.toFixed(0)} ms, timeline ${result.timeline_ms.toFixed(0)} ms from the data's arrival (median of 10; target 150 ms)`,
    );
    return result;
  } finally {
    await browser.close();
    server.close();
  }
}
