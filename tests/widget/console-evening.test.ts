import { expect, fixtureCleanup } from "@open-wc/testing";
import { emulateMedia, sendKeys, setViewport } from "@web/test-runner-commands";
import { setClock } from "../../widget/clock.js";
import type { Reservation } from "../../widget/console/api.js";
import {
  byText,
  openConsole,
  settled,
  shown,
  signIn,
  type,
  useConsoleRestaurant,
  viewOf,
} from "./console-env.js";
import { freeTime, pinWorkerClock, restaurant, romeInstant, staff, until } from "./env.js";

/** The evening's views: the walk-in waiting list, the floor plan, the day sheet and the reports. */

let date = "";
let lunch = 0;
let tables: { id: number; name: string; layout: unknown }[] = [];
const table = (name: string) => tables.find((t) => t.name === name)!;

/** Pins the browser's and the Worker's clocks at 12:30 in Rome on the test's day, and signs in for that hour. */
async function atLunch() {
  const at = romeInstant(date, "12:30");
  setClock(() => at);
  await pinWorkerClock(new Date(at).toISOString());
  await signIn();
}

async function book(hour: string, pax: number, first: string, extra: Record<string, unknown> = {}) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: date,
      start_hour: hour,
      pax,
      service_id: lunch,
      customer: { first_name: first, last_name: "Evening", email: `${first.toLowerCase()}@evening.example` },
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
  tables = (await staff("tables?limit=100")).body.data;
});
afterEach(async () => {
  await setViewport({ width: 1280, height: 800 });
  await emulateMedia({ media: "screen" });
});

describe("<booking-console>: the walk-in waiting list", () => {
  it("is accessible, quotes a wait, tells a party its table is ready and seats it in one step", async () => {
    await atLunch();
    const el = await openConsole(`/console/day/${date}`);
    await viewOf(el, "bc-day-view");
    await sendKeys({ press: "q" });
    const view = await viewOf(el, "bc-waitlist-view");
    await byText(view, '[role="status"]', /Nobody is waiting/);
    await expect(await settled(el)).to.be.accessible();
    const form = view.shadowRoot!.querySelector("form")!;
    const field = (name: string) => form.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
    type(field("name"), "Ada Queue");
    type(field("email"), "ada@queue.example");
    form.requestSubmit();
    await byText(view, '[role="status"]', /Added: position 1, Now/);
    type(field("pax"), "40");
    form.requestSubmit();
    const nofit = await byText(view, "tbody tr", /Party of 40/);
    expect(nofit.textContent).to.match(/No table seats this party/);
    // the keyboard path: q lands on the party size, Enter adds the party
    (view.shadowRoot!.activeElement as HTMLElement | null)?.blur();
    await sendKeys({ press: "d" });
    await viewOf(el, "bc-day-view");
    await sendKeys({ press: "q" });
    const again = await viewOf(el, "bc-waitlist-view");
    await until(() => again.shadowRoot!.activeElement?.getAttribute("name") === "pax");
    await sendKeys({ type: "3" });
    await sendKeys({ press: "Enter" });
    await byText(again, "tbody tr", /Party of 3\b/);
    (await byText(again, "tbody tr", /Party of 3\b/))
      .querySelector<HTMLButtonElement>("button[aria-label$='left']")!
      .click();
    await until(() => !/Party of 3\b/.test(again.shadowRoot!.querySelector("tbody")?.textContent ?? ""));
    const ada = await byText(again, "tbody tr", /Ada Queue/);
    ada.querySelector<HTMLButtonElement>("button[aria-label^='Table ready']")!.click();
    await byText(again, '[role="status"]', /Sent by email/);
    await byText(again, "tbody tr .badge", /Told: table ready/);
    await expect(await settled(el)).to.be.accessible();
    (await byText(again, "tbody tr", /Ada Queue/)).querySelector<HTMLButtonElement>("button")!.click();
    await byText(again, '[role="status"]', /Ada Queue seated/);
    await until(() => !/Ada Queue/.test(again.shadowRoot!.querySelector("tbody")?.textContent ?? ""));
    const day = (await staff(`reservations?start_date=${date}&end_date=${date}&limit=200`)).body
      .data as Reservation[];
    const seated = day.find((r) => r.customer?.first_name === "Ada" && r.customer?.last_name === "Queue");
    expect([seated?.pax, typeof seated?.checkin_date, seated?.channel]).to.deep.equal([
      2,
      "string",
      "PLATFORM_ADMIN",
    ]);
  });
});

describe("<booking-console>: the floor plan", () => {
  it("is accessible at 1280 and 768 px, and the owner arranges a table with the keys and saves it", async () => {
    await atLunch();
    for (const width of [1280, 768]) {
      await setViewport({ width, height: 900 });
      const el = await openConsole("/console/floor");
      const view = await viewOf(el, "bc-floor-view");
      await shown(view, "svg .table");
      await expect(await settled(el)).to.be.accessible();
      fixtureCleanup();
    }
    const el = await openConsole("/console/floor");
    const view = await viewOf(el, "bc-floor-view");
    (await byText<HTMLLabelElement>(view, ".modes label", /Arrange tables/)).querySelector("input")!.click();
    const s1 = await shown<HTMLElement>(view, `.table[data-id="${table("S1").id}"]`);
    s1.focus();
    await sendKeys({ press: "ArrowRight" });
    await sendKeys({ press: "ArrowRight" });
    await sendKeys({ press: "s" });
    (await byText<HTMLButtonElement>(view, "button", /Save layout/)).click();
    await byText(view, '[role="status"]', /Layout saved/);
    const saved = (await staff(`tables/${table("S1").id}`)).body.data[0].layout;
    // S1 seats two: first placed round at (20, 20), 60 wide
    expect(saved).to.deep.equal({ x: 40, y: 20, width: 60, height: 60, shape: "rect", rotation: 0 });
  });

  it("colours tables by state and seats a party by picking it, then a table", async () => {
    await atLunch();
    const due = await book("12:45:00", 2, "Grace", { table_ids: [table("S2").id] });
    const late = await book("12:15:00", 2, "Linus", { table_ids: [table("T1").id] });
    const el = await openConsole("/console/floor");
    const view = await viewOf(el, "bc-floor-view");
    const label = (name: string) =>
      view.shadowRoot!.querySelector(`.table[data-id="${table(name).id}"]`)?.getAttribute("aria-label") ?? "";
    await until(() => /Reserved soon/.test(label("S2")));
    expect(label("T1")).to.match(/Late, Linus Evening/);
    expect(label("S5")).to.match(/Free/);
    (await byText<HTMLLabelElement>(view, "label.party", /Grace Evening/)).querySelector("input")!.click();
    (await shown<HTMLElement>(view, `.table[data-id="${table("T3").id}"]`)).dispatchEvent(
      new MouseEvent("click", { bubbles: true }),
    );
    await byText(view, ".actions h2", /T3/);
    (await byText<HTMLButtonElement>(view, "button", /Seat Grace Evening here/)).click();
    await byText(view, '[role="status"]', /Grace Evening seated at T3/);
    const r = (await staff(`reservations/${due.id}`)).body.data[0] as Reservation;
    expect([r.tables.map((t) => t.name), typeof r.checkin_date]).to.deep.equal([["T3"], "string"]);
    await until(() => /Seated, Grace/.test(label("T3")));
    expect(late.tables.map((t) => t.name)).to.deep.equal(["T1"]);
  });
});

describe("<booking-console>: the day sheet", () => {
  it("is accessible, lists each party with its allergies and notes, keeps the shift note and prints without the console", async () => {
    await atLunch();
    await book("13:00:00", 3, "Ada", { allergies: "Peanuts (severe)", notes: "window" });
    const el = await openConsole(`/console/sheet/${date}`);
    const view = await viewOf(el, "bc-sheet-view");
    const ada = await byText(view, "tbody tr", /Ada Evening/);
    expect(ada.textContent).to.match(/Peanuts \(severe\)/);
    expect(ada.textContent).to.match(/window/);
    await expect(await settled(el)).to.be.accessible();
    const note = view.shadowRoot!.querySelector<HTMLTextAreaElement>("textarea")!;
    type(note, "Fish delivery late.");
    await byText(view, '[role="status"]', /Saved/);
    const notes = (await staff(`properties/${restaurant().propertyId}/notes?from=${date}`)).body.data;
    expect(notes.map((n: { text: string }) => n.text)).to.deep.equal(["Fish delivery late."]);
    await until(() =>
      view.shadowRoot!.querySelector(".note-print")!.textContent!.includes("Fish delivery late."),
    );
    await emulateMedia({ media: "print" });
    const header = el.shadowRoot!.querySelector("header")!;
    expect(getComputedStyle(header).display).to.equal("none");
    expect(getComputedStyle(view.shadowRoot!.querySelector("button")!).display).to.equal("none");
    expect(getComputedStyle(view.shadowRoot!.querySelector(".note-print")!).display).to.equal("block");
    expect(view.shadowRoot!.querySelector(".note-print")!.textContent).to.include("Fish delivery late.");
  });
});

describe("<booking-console>: reports", () => {
  it("is accessible, charts a figure as a labelled picture beside its table, and groups by channel", async () => {
    await atLunch();
    for (const width of [1280, 768]) {
      await setViewport({ width, height: 900 });
      const el = await openConsole("/console/reports");
      const view = await viewOf(el, "bc-reports-view");
      await shown(view, "svg[role='img']");
      await expect(await settled(el)).to.be.accessible();
      fixtureCleanup();
    }
    const el = await openConsole("/console/reports");
    const view = await viewOf(el, "bc-reports-view");
    const svgEl = await shown(view, "svg[role='img']");
    expect(svgEl.querySelector("title")!.textContent).to.equal("Covers by day");
    const byDay = await byText(view, "tbody tr", /./);
    expect(byDay.querySelectorAll("td")).to.have.length(4);
    const select = view.shadowRoot!.querySelectorAll("select")[0]!;
    select.value = "channel";
    select.dispatchEvent(new Event("change"));
    await byText(view, "tbody th", /Staff|Phone|Console|PLATFORM_ADMIN|Restaurant/);
    // The CSV is asked with the session and handed to the browser as a file: read what it was given.
    const given: Blob[] = [];
    const makeUrl = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      if (blob instanceof Blob) given.push(blob);
      return makeUrl(blob);
    };
    try {
      (await byText<HTMLButtonElement>(view, "button", /Download CSV/)).click();
      await until(() => given.length > 0);
    } finally {
      URL.createObjectURL = makeUrl;
    }
    expect(given[0]!.type).to.equal("text/csv");
    const csv = await given[0]!.text();
    const [header, ...lines] = csv.split("\r\n").filter(Boolean);
    expect(header).to.equal("channel,label,covers,parties,no_shows,cancellations");
    expect(lines).to.have.length(view.shadowRoot!.querySelectorAll("tbody tr").length);
  });
});
