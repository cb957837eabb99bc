import { expect } from "@open-wc/testing";
import type { ReservationListItem as Reservation } from "../../widget/console/api.js";
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
  ...view.shadowRoot!.querySelectorAll<HTMLTableRowElement>("section tbody tr"),
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

  it("searches the day by name", async () => {
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await rowCount(view, 3);
    type(view.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!, "Grace");
    await until(() => rows(view).length === 1);
    expect(rows(view)[0]!.textContent).to.match(/Grace Day/);
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
