import { expect } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import { setClock } from "../../widget/clock.js";
import type { Reservation, Schema } from "../../widget/console/api.js";
import { combinations } from "../../widget/console/parts/combine.js";

type BookingRoom = Schema<"BookingRoom">;

import {
  byText,
  openConsole,
  romeInstant,
  settled,
  shown,
  signIn,
  type,
  useConsoleRestaurant,
  viewOf,
} from "./console-env.js";
import { freeTime, pinWorkerClock, staff, until } from "./env.js";

before(() => useConsoleRestaurant());

async function fill(view: HTMLElement, fields: Record<string, string>) {
  const form = await shown<HTMLFormElement>(view, 'form[part="form"]');
  for (const [name, value] of Object.entries(fields))
    type(form.querySelector<HTMLInputElement>(`[name="${name}"]`)!, value);
  return form;
}

describe("<booking-console>: a new booking", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible, suggests the engine's table, and books by phone as the staff", async () => {
    const slot = await freeTime(2, 2);
    const el = await openConsole("/console/new");
    const view = await viewOf(el, "bc-new-view");
    const form = await fill(view, {
      start_date: slot.date,
      start_hour: slot.hour.slice(0, 5),
      first_name: "Phone",
      last_name: "Booker",
      phone: "+39 333 1112222",
      allergies: "Peanuts (severe)",
      occasion: "anniversary",
    });
    await byText(view, "option", /The engine's choice: /);
    await expect(await settled(el)).to.be.accessible();
    form.requestSubmit();
    await viewOf(el, "bc-reservation-view");
    const id = Number(location.pathname.split("/").pop());
    const r = (await staff(`reservations/${id}`)).body.data[0] as Reservation;
    expect([r.channel, r.start_day, r.start_hour, r.customer?.first_name]).to.deep.equal([
      "PLATFORM_ADMIN",
      slot.date,
      slot.hour,
      "Phone",
    ]);
    expect([r.allergies, r.occasion]).to.deep.equal(["Peanuts (severe)", "anniversary"]);
  });

  it("shows the API's refusal at the field it names", async () => {
    const el = await openConsole("/console/new");
    const view = await viewOf(el, "bc-new-view");
    const form = await fill(view, { first_name: "", phone: "" });
    form.requestSubmit();
    const error = await until(() => view.shadowRoot!.querySelector("#e-first"));
    expect(error.textContent).to.match(/name/);
    expect(form.querySelector('[name="first_name"]')!.getAttribute("aria-invalid")).to.equal("true");
    await expect(await settled(el)).to.be.accessible();
  });

  it("finds a known guest as the name is typed and books for them", async () => {
    const slot = await freeTime(2, 4);
    await staff("reservations", {
      method: "POST",
      body: {
        start_date: slot.date,
        start_hour: slot.hour,
        pax: 2,
        service_id: slot.service_id,
        customer: { first_name: "Known", last_name: "Lookup", email: "known@lookup.example" },
      },
    });
    const el = await openConsole("/console/new");
    const view = await viewOf(el, "bc-new-view");
    const form = await fill(view, {
      start_date: slot.date,
      start_hour: slot.hour.slice(0, 5),
      last_name: "Looku",
    });
    (await byText<HTMLButtonElement>(view, '[part="suggestions"] button', /Known Lookup/)).click();
    await byText(view, '[role="status"]', /Booking for Known Lookup/);
    form.requestSubmit();
    await viewOf(el, "bc-reservation-view");
    const id = Number(location.pathname.split("/").pop());
    expect(((await staff(`reservations/${id}`)).body.data[0] as Reservation).customer?.email).to.equal(
      "known@lookup.example",
    );
  });

  it("seats a walk-in in two keys: w, then Enter", async () => {
    const slot = await freeTime(2, 6);
    setClock(() => romeInstant(slot.date, slot.hour));
    await pinWorkerClock(new Date(romeInstant(slot.date, slot.hour)).toISOString());
    await signIn(); // a session of that hour: one from the run's clock may have ended by then
    const el = await openConsole(`/console/day/${slot.date}`);
    await viewOf(el, "bc-day-view");
    await sendKeys({ press: "w" });
    const view = await viewOf(el, "bc-new-view");
    await until(() => view.shadowRoot!.activeElement?.getAttribute("name") === "pax");
    await sendKeys({ press: "Enter" });
    const reservation = await viewOf(el, "bc-reservation-view");
    await byText(reservation, "dd", /Seated/);
    const id = Number(location.pathname.split("/").pop());
    const r = (await staff(`reservations/${id}`)).body.data[0] as Reservation;
    expect([r.start_day, r.pax, typeof r.checkin_date]).to.deep.equal([slot.date, 2, "string"]);
  });

  it("takes the party size typed after w: w, 3, Enter seats three, not twenty-three", async () => {
    const slot = await freeTime(3, 10);
    setClock(() => romeInstant(slot.date, slot.hour));
    await pinWorkerClock(new Date(romeInstant(slot.date, slot.hour)).toISOString());
    await signIn();
    const el = await openConsole(`/console/day/${slot.date}`);
    await viewOf(el, "bc-day-view");
    await sendKeys({ press: "w" });
    const view = await viewOf(el, "bc-new-view");
    await until(() => view.shadowRoot!.activeElement?.getAttribute("name") === "pax");
    await sendKeys({ type: "3" });
    await sendKeys({ press: "Enter" });
    await viewOf(el, "bc-reservation-view");
    const id = Number(location.pathname.split("/").pop());
    expect(((await staff(`reservations/${id}`)).body.data[0] as Reservation).pax).to.equal(3);
  });

  it("takes allergies and an occasion for a walk-in", async () => {
    const slot = await freeTime(2, 12);
    setClock(() => romeInstant(slot.date, slot.hour));
    await pinWorkerClock(new Date(romeInstant(slot.date, slot.hour)).toISOString());
    await signIn();
    const el = await openConsole("/console/new?walk_in=1");
    const view = await viewOf(el, "bc-new-view");
    const form = await fill(view, { allergies: "Gluten", occasion: "birthday" });
    form.requestSubmit();
    await viewOf(el, "bc-reservation-view");
    const id = Number(location.pathname.split("/").pop());
    const r = (await staff(`reservations/${id}`)).body.data[0] as Reservation;
    expect([r.allergies, r.occasion, typeof r.checkin_date]).to.deep.equal(["Gluten", "birthday", "string"]);
  });

  it("offers tables together for a large party and books it on them", async () => {
    const slot = await freeTime(2, 14);
    const el = await openConsole("/console/new");
    const view = await viewOf(el, "bc-new-view");
    const form = await fill(view, {
      start_date: slot.date,
      start_hour: slot.hour.slice(0, 5),
      pax: "10",
      first_name: "Large",
      last_name: "Party",
      phone: "+39 333 1113333",
    });
    const pair = await byText<HTMLOptionElement>(view, "optgroup option", /^S4 \+ S5 · Sala \(10\)$/);
    expect(pair.closest("optgroup")!.label).to.equal("Tables together");
    await expect(await settled(el)).to.be.accessible();
    const select = form.querySelector<HTMLSelectElement>('select[name="table_id"]')!;
    select.value = pair.value;
    form.requestSubmit();
    await viewOf(el, "bc-reservation-view");
    const id = Number(location.pathname.split("/").pop());
    const r = (await staff(`reservations/${id}`)).body.data[0] as Reservation;
    expect([r.pax, r.tables.map((t) => t.name)]).to.deep.equal([10, ["S4", "S5"]]);
  });
});

describe("tables together", () => {
  const t = (id: number, name: string, max: number, extra: Record<string, unknown> = {}) => ({
    id,
    name,
    guests_min: 1,
    guests_max: max,
    free: true,
    closed: false,
    bookable: true,
    group: false,
    best_choice: false,
    ...extra,
  });
  const rooms = [
    {
      id: 1,
      name: "Sala",
      bookable: true,
      tables: [
        t(1, "S1", 2),
        t(2, "S2", 4, { free: false }),
        t(3, "S3", 4),
        t(4, "S4", 4),
        t(9, "S3+S4", 8, { group: true, guests_min: 5 }),
      ],
    },
    { id: 2, name: "Patio", bookable: true, tables: [t(5, "P1", 4), t(6, "P2", 6)] },
  ] as unknown as BookingRoom[];

  it("offers the restaurant's groups, then neighbouring free tables of one room, fewest tables first", () => {
    expect(combinations(rooms, 8).map((c) => [c.names.join("+"), c.room, c.seats, c.group])).to.deep.equal([
      ["S3+S4", "Sala", 8, true],
      ["S3+S4", "Sala", 8, false],
      ["P1+P2", "Patio", 10, false],
    ]);
    // a held table breaks a run: S1 and S3 are not neighbours across S2
    expect(combinations(rooms, 5).some((c) => c.ids.includes(1))).to.equal(false);
  });
});
