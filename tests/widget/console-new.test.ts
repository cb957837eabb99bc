import { expect } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import { setClock } from "../../widget/clock.js";
import type { Reservation } from "../../widget/console/api.js";
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
});
