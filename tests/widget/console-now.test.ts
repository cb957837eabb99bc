import { expect } from "@open-wc/testing";
import { setViewport } from "@web/test-runner-commands";
import { setClock } from "../../widget/clock.js";
import type { Reservation } from "../../widget/console/api.js";
import { openConsole, settled, shown, signIn, useConsoleRestaurant, viewOf } from "./console-env.js";
import { freeTime, restaurant, romeInstant, staff, until } from "./env.js";

let date = "";
let dinner = 0;
const ids: Record<string, number> = {};
const table = (name: string) =>
  (restaurant() as unknown as { tables: Record<string, { id: number }> }).tables[name]!.id;

async function book(first: string, hour: string, tableName: string) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: date,
      start_hour: hour,
      pax: 2,
      service_id: dinner,
      table_ids: [table(tableName)],
      customer: { first_name: first, last_name: "Now", email: `${first.toLowerCase()}@now.example` },
    },
  });
  if (r.status !== 201) throw new Error(`booking: ${r.status} ${JSON.stringify(r.body)}`);
  ids[first] = (r.body.data[0] as Reservation).id;
}

before(async () => {
  await useConsoleRestaurant();
  dinner = restaurant().services.find((s) => s.name === "Cena")!.id;
  date = (await freeTime(2)).date;
  await book("Early", "19:00:00", "T1");
  await book("Coming", "19:45:00", "T2");
  await book("Later", "21:00:00", "T1");
  await book("Gone", "21:30:00", "S1");
  await staff(`reservations/${ids.Gone}`, { method: "DELETE" });
});

describe("<booking-console>: now, late and next", () => {
  // 7:20 PM in the restaurant on the booked day: the console's today
  beforeEach(async () => {
    await signIn();
    setClock(() => romeInstant(date, "19:20"));
  });
  afterEach(() => setViewport({ width: 800, height: 600 }));

  it("opens today's day without a date, marks the late party, the next ones and the now-line", async () => {
    const el = await openConsole("/console/day");
    const view = await viewOf(el, "bc-day-view");
    const early = await shown(view, `tr[data-id="${ids.Early}"]`);
    await expect(await settled(el)).to.be.accessible();
    expect(early.textContent).to.match(/20 min late/);
    expect(early.classList.contains("late")).to.equal(true);
    const coming = await shown(view, `tr[data-id="${ids.Coming}"]`);
    expect(coming.textContent).to.match(/Next/);
    expect(coming.textContent).not.to.match(/late/);
    const later = await shown(view, `tr[data-id="${ids.Later}"]`);
    expect(later.textContent).not.to.match(/Next|late/);
    // the now-line sits between the 7:00 PM and the 7:45 PM parties
    const line = await shown(view, "tr.now-line");
    expect(line.textContent).to.match(/Now · 7:20\sPM/);
    expect(line.previousElementSibling).to.equal(early);
    expect(line.nextElementSibling).to.equal(coming);
    // the count and the covers name the same parties: the cancelled one is in neither
    expect(view.shadowRoot!.textContent).to.match(/3 reservations, 6 covers/);
  });

  it("breaks no word mid-letter at 768 px", async () => {
    await setViewport({ width: 768, height: 900 });
    // a long note makes the table want more than 768 px: the columns then share what there is
    await staff(`reservations/${ids.Coming}`, {
      method: "PUT",
      body: {
        notes: "Window table asked for twice on the phone, celebrating a promotion, bring the cake at nine",
      },
    });
    const el = await openConsole("/console/day");
    const view = await viewOf(el, "bc-day-view");
    await shown(view, `tr[data-id="${ids.Coming}"] button`);
    // each word of every cell and button sits on one line
    const broken = [...view.shadowRoot!.querySelectorAll<HTMLElement>("td, th, button")].flatMap((node) => {
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      const out: string[] = [];
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const text = t.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(t, m.index!);
          range.setEnd(t, m.index! + m[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(m[0]);
        }
      }
      return out;
    });
    expect(broken).to.deep.equal([]);
  });

  it("opens today's timeline at the current hour, with each table's free-until and the late party", async () => {
    await setViewport({ width: 768, height: 900 });
    const el = await openConsole("/console/timeline");
    const view = await viewOf(el, "bc-timeline-view");
    await shown(view, `.hold[data-id="${ids.Early}"]`);
    await expect(await settled(el)).to.be.accessible();
    const label = (name: string) => view.shadowRoot!.querySelector(`#table-${table(name)}`)!.textContent!;
    expect(label("T1")).to.match(/Held until 8:15\sPM/);
    expect(label("T2")).to.match(/Free until 7:45\sPM/);
    expect(label("T3")).to.match(/^T3\s*Free$/);
    const bar = view.shadowRoot!.querySelector<HTMLElement>(`.hold[data-id="${ids.Early}"]`)!;
    expect(bar.classList.contains("late")).to.equal(true);
    expect(bar.getAttribute("aria-label")).to.match(/20 min late/);
    expect(view.shadowRoot!.querySelectorAll(".now").length).to.be.greaterThan(0);
    // scrolled so the 7 PM column is beside the table names (or as near as the day's end allows)
    const scroller = view.shadowRoot!.querySelector<HTMLElement>(".scroll")!;
    await until(() => scroller.scrollLeft > 0);
    const seven = [...view.shadowRoot!.querySelectorAll<HTMLElement>(".axis span")].find((s) =>
      /^7:00\sPM$/.test(s.textContent!),
    )!;
    const names = view
      .shadowRoot!.querySelector<HTMLElement>(`#table-${table("T1")}`)!
      .getBoundingClientRect();
    const at = seven.getBoundingClientRect();
    const frame = scroller.getBoundingClientRect();
    const aligned = Math.abs(at.left + at.width / 2 - names.right) < 4;
    const atEnd = scroller.scrollLeft >= scroller.scrollWidth - scroller.clientWidth - 1;
    expect(aligned || atEnd, "7 PM beside the names, or the day scrolled to its end").to.equal(true);
    expect(at.left).to.be.at.least(names.right - at.width / 2 - 1);
    expect(at.right).to.be.at.most(frame.right);
  });
});
