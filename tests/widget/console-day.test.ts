import { expect } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import type { ReservationListItem as Reservation } from "../../widget/console/api.js";
import { returning } from "../../widget/console/parts/details.js";
import { byService, coversByQuarter } from "../../widget/console/views/day-view.js";
import { addDays } from "../../widget/format.js";
import { openConsole, settled, signIn, type, useConsoleRestaurant, viewOf } from "./console-env.js";
import { freeTime, pinWorkerClock, restaurant, romeInstant, staff, until } from "./env.js";

let date = "";
let lunch = 0;

async function book(hour: string, pax: number, first: string, extra: Record<string, unknown> = {}) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: date,
      start_hour: hour,
      pax,
      service_id: lunch,
      customer: { first_name: first, last_name: "Day", email: `${first.toLowerCase()}@day.example` },
      ...extra,
    },
  });
  if (r.status !== 201) throw new Error(`booking: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data[0] as Reservation;
}

before(async () => {
  await useConsoleRestaurant();
  lunch = restaurant().services.find((s) => s.name === "Pranzo")!.id;
  date = (await freeTime(2)).date;
  await book("12:00:00", 2, "Ada", { allergies: "shellfish", occasion: "birthday" });
  await book("12:10:00", 4, "Grace", { notes: "window seat" });
  await book("13:00:00", 3, "Linus");
});

const rows = (view: HTMLElement) => [
  ...view.shadowRoot!.querySelectorAll<HTMLTableRowElement>("section tbody tr[data-id]"),
];
/** Waits for the day's rows; on a timeout, says what the view shows instead. */
const rowCount = (view: HTMLElement, n: number) =>
  until(() => rows(view).length === n).catch(() =>
    Promise.reject(
      new Error(`expected ${n} rows, the view shows: ${view.shadowRoot!.textContent!.replace(/\s+/g, " ")}`),
    ),
  );

describe("<booking-console>: the day", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible and lists the day's reservations by service with times, parties, badges and covers", async () => {
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    await expect(await settled(el)).to.be.accessible();
    const text = view.shadowRoot!.textContent!;
    expect(text).to.include("Pranzo");
    expect(text).to.match(/3 reservations, 9 covers/);
    const [ada, grace] = rows(view);
    expect(ada!.textContent).to.match(/Ada Day/);
    expect(ada!.textContent).to.match(/Allergies/);
    expect(ada!.textContent).to.match(/Birthday/);
    expect(grace!.textContent).to.match(/Notes/);
    // 12:00 and 12:10 share the first quarter hour: 6 covers
    const quarters = [...view.shadowRoot!.querySelectorAll("table.quarters td")].map((td) => td.textContent);
    expect(quarters).to.deep.equal(["6", "3"]);
  });

  it("shows the allergy and occasion texts, the guest's own allergies, tags and notes on the list and the timeline", async () => {
    const grace = (await staff(`reservations?start_date=${date}&end_date=${date}`)).body.data.find(
      (r: Reservation) => r.customer?.first_name === "Grace",
    ) as Reservation;
    const put = await staff(`customers/${grace.customer!.id}`, {
      method: "PUT",
      body: { allergies: "Peanuts (severe)", tags: ["VIP"] },
    });
    expect(put.status).to.equal(200);
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    const [ada, graceRow] = rows(view);
    expect(ada!.textContent).to.match(/Allergies: shellfish/);
    expect(ada!.textContent).to.match(/Birthday/);
    expect(graceRow!.textContent).to.match(/Guest's allergies: Peanuts \(severe\)/);
    expect(graceRow!.textContent).to.match(/VIP/);
    expect(graceRow!.textContent).to.match(/Notes: window seat/);
    const timeline = await openConsole(`/console/timeline/${date}`);
    const tv = await viewOf(timeline, "bc-timeline-view");
    const bar = await until(() => tv.shadowRoot!.querySelector<HTMLElement>(`.hold[data-id="${grace.id}"]`));
    expect(bar.textContent).to.match(/Peanuts \(severe\)/);
    expect(bar.getAttribute("aria-label")).to.match(
      /Guest's allergies: Peanuts \(severe\).*VIP.*Notes: window seat/,
    );
    bar.focus();
    await until(() => /VIP/.test(tv.shadowRoot!.querySelector(".focused")!.textContent!));
  });

  it("searches the day by name", async () => {
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    type(view.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!, "Grace");
    await until(() => rows(view).length === 1);
    expect(rows(view)[0]!.textContent).to.match(/Grace Day/);
  });

  it("searches every day by phone in any format, and / focuses the search", async () => {
    const later = await book("12:30:00", 2, "Far", {
      start_date: addDays(date, 3),
      customer: { first_name: "Far", last_name: "Away", phone: "(415) 555-0120" },
    });
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    document.body.focus();
    await sendKeys({ press: "/" });
    const search = view.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    await until(() => view.shadowRoot!.activeElement === search);
    for (const typed of ["4155550120", "+14155550120"]) {
      type(search, typed);
      await until(() => rows(view).length === 1 && rows(view)[0]!.dataset.id === String(later.id));
      expect(rows(view)[0]!.textContent).to.match(/Far Away/);
    }
    await expect(await settled(el)).to.be.accessible();
  });

  it("lists the guests on their own, found by phone in any format", async () => {
    const el = await openConsole("/console/guests");
    const view = await viewOf(el, "bc-guests-view");
    await until(() => view.shadowRoot!.querySelectorAll("tbody tr").length >= 3);
    await expect(await settled(el)).to.be.accessible();
    document.body.focus();
    await sendKeys({ press: "/" });
    const search = view.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    await until(() => view.shadowRoot!.activeElement === search);
    type(search, "ada@day.example");
    await until(() => view.shadowRoot!.querySelectorAll("tbody tr").length === 1);
    expect(view.shadowRoot!.querySelector("tbody tr")!.textContent).to.match(/Ada Day/);
  });

  it("goes to the next day with one key, keeps each day at its own address, and Back returns", async () => {
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    document.body.dispatchEvent(
      new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true, composed: true }),
    );
    await until(() => location.pathname === `/console/day/${addDays(date, 1)}`);
    await until(
      () =>
        rows(el.shadowRoot!.querySelector<HTMLElement>("bc-day-view")!).length === 0 &&
        /No reservations/.test(el.shadowRoot!.querySelector("bc-day-view")!.shadowRoot!.textContent!),
    );
    history.back();
    await until(() => location.pathname === `/console/day/${date}`);
    await until(() => rows(el.shadowRoot!.querySelector<HTMLElement>("bc-day-view")!).length === 3);
  });

  it("seats a party from the list", async () => {
    // half an hour before Linus's 13:00, when seating is open
    await pinWorkerClock(new Date(romeInstant(date, "12:30")).toISOString());
    await signIn(); // a session of that hour: one from the run's clock may have ended by then
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    const linus = rows(view).find((r) => /Linus/.test(r.textContent!))!;
    linus.querySelector<HTMLButtonElement>("button")!.click();
    await until(() => /Seated/.test(rows(view).find((r) => /Linus/.test(r.textContent!))!.textContent!));
    // a first visit, now seated, is not a returning guest
    expect(rows(view).find((r) => /Linus/.test(r.textContent!))!.textContent).not.to.match(/Returning/);
  });
});

describe("returning guests", () => {
  const r = (visits: number, extra: Partial<Reservation> = {}) =>
    ({ status: "ACCEPTED", customer: { id: 1, visits, phone: "+39 06 1234567" }, ...extra }) as Reservation;
  it("are those with a visit before this one, never the house's own record of anonymous walk-ins", () => {
    expect(returning(r(0))).to.equal(false);
    expect(returning(r(1))).to.equal(true);
    // seated now: that visit is this one
    expect(returning(r(1, { checkin_date: "2026-01-01T20:00:00" }))).to.equal(false);
    expect(returning(r(2, { checkin_date: "2026-01-01T20:00:00" }))).to.equal(true);
    // an anonymous walk-in is booked under the restaurant's phone
    expect(returning(r(5), "+39 06 1234567")).to.equal(false);
  });
});

describe("the day's arithmetic", () => {
  const r = (start_hour: string, pax: number, status = "ACCEPTED", service = { id: 1, name: "Lunch" }) =>
    ({ start_hour, pax, status, service, tables: [] }) as unknown as Reservation;

  it("counts covers per quarter hour only for parties that come", () => {
    expect(
      coversByQuarter([r("12:00:00", 2), r("12:14:00", 3), r("12:15:00", 4), r("12:20:00", 5, "CANCELLED")]),
    ).to.deep.equal([
      ["12:00", 5],
      ["12:15", 4],
    ]);
  });

  it("groups by service in the order the services start", () => {
    const groups = byService([
      r("19:00:00", 2, "ACCEPTED", { id: 2, name: "Dinner" }),
      r("12:00:00", 2),
      r("12:30:00", 3, "WAITING"),
    ]);
    expect(groups.map((g) => [g.name, g.covers, g.reservations.length])).to.deep.equal([
      ["Lunch", 2, 2],
      ["Dinner", 2, 1],
    ]);
  });
});
