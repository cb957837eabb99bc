import { expect } from "@open-wc/testing";
import type { Reservation } from "../../widget/console/api.js";
import { actionsOf } from "../../widget/console/views/reservation-view.js";
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

let slot: { date: string; hour: string; service_id: number };

async function book(first: string, extra: Record<string, unknown> = {}) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: slot.date,
      start_hour: slot.hour,
      pax: 2,
      service_id: slot.service_id,
      customer: { first_name: first, last_name: "Guest", phone: "+39 333 0000000" },
      ...extra,
    },
  });
  if (r.status !== 201) throw new Error(`booking: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data[0] as Reservation;
}

const status = async (id: number) => ((await staff(`reservations/${id}`)).body.data[0] as Reservation).status;
const click = async (view: HTMLElement, text: RegExp) =>
  (await byText<HTMLButtonElement>(view, "button", text)).click();

before(async () => {
  await useConsoleRestaurant();
  slot = await freeTime(2, 3);
  void restaurant();
});

describe("<booking-console>: a reservation", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible, seats the party, undoes it, and shows the history", async () => {
    const r = await book("Seat");
    // half an hour before the party's time: seating is open
    await pinWorkerClock(new Date(romeInstant(slot.date, slot.hour) - 30 * 60_000).toISOString());
    await signIn(); // a session of that hour: one from the run's clock may have ended by then
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    await byText(view, "dd", /Booked/);
    await expect(await settled(el)).to.be.accessible();
    await click(view, /^Seat$/);
    await byText(view, "dd", /Seated/);
    expect((await staff(`reservations/${r.id}`)).body.data[0].checkin_date).to.be.a("string");
    await byText(view, "li", /checkin/);
    await click(view, /Undo seating/);
    await byText(view, "dd", /Booked/);
    await expect(await settled(el)).to.be.accessible();
  });

  it("says in words when it is too early to seat the party, and seats nobody", async () => {
    const r = await book("Early");
    // the day before: seating opens three hours before the party's time
    await pinWorkerClock(new Date(romeInstant(slot.date, slot.hour) - 24 * 3600_000).toISOString());
    await signIn();
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    await click(view, /^Seat$/);
    const alert = await byText(view, '[role="alert"]', /Too early to seat this party/);
    const [h, m] = slot.hour.split(":").map(Number);
    expect(alert.textContent).to.include(
      new Intl.DateTimeFormat("en", { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(
        Date.UTC(2000, 0, 1, (h! + 21) % 24, m!),
      ),
    );
    await byText(view, "dd", /Booked/);
    expect((await staff(`reservations/${r.id}`)).body.data[0].checkin_date ?? null).to.equal(null);
    await expect(await settled(el)).to.be.accessible();
  });

  it("cancels only after asking once more", async () => {
    const r = await book("Cancel");
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    await click(view, /Cancel reservation/);
    await click(view, /Keep it/);
    expect(await status(r.id)).to.equal("ACCEPTED");
    await click(view, /Cancel reservation/);
    await click(view, /Yes: Cancel reservation/);
    await byText(view, "dd", /Cancelled/);
    expect(await status(r.id)).to.equal("CANCELLED");
  });

  it("accepts a waiting party", async () => {
    const r = await book("Waiting", { waiting_list: true });
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    await byText(view, "dd", /Waiting list/);
    await click(view, /^Accept$/);
    await byText(view, "dd", /Booked/);
    expect(await status(r.id)).to.equal("ACCEPTED");
  });

  it("changes the party and shows a refused field in the API's words at that field", async () => {
    const r = await book("Edit");
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    const form = await shown<HTMLFormElement>(view, 'form[part="edit"]');
    type(form.querySelector<HTMLTextAreaElement>('textarea[name="notes"]')!, "x".repeat(2001));
    form.requestSubmit();
    const error = await until(() => view.shadowRoot!.querySelector("#e-notes"));
    expect(error.textContent).to.match(/2000/);
    expect(form.querySelector('textarea[name="notes"]')!.getAttribute("aria-invalid")).to.equal("true");
    await expect(await settled(el)).to.be.accessible();
    type(form.querySelector<HTMLTextAreaElement>('textarea[name="notes"]')!, "by the window");
    type(form.querySelector<HTMLInputElement>('input[name="pax"]')!, "3");
    form.requestSubmit();
    await byText(view, "dd", /^3$/);
    const saved = (await staff(`reservations/${r.id}`)).body.data[0] as Reservation;
    expect([saved.pax, saved.notes]).to.deep.equal([3, "by the window"]);
  });
});

describe("the actions a reservation offers", () => {
  const r = (status: string, extra: Partial<Reservation> = {}) => ({ status, ...extra }) as Reservation;
  it("follow its status and whether the party is seated or gone", () => {
    expect(actionsOf(r("ACCEPTED"))).to.deep.equal(["checkin", "no-show", "cancel"]);
    expect(actionsOf(r("WAITING"))).to.deep.equal(["accept", "decline", "checkin", "cancel"]);
    expect(actionsOf(r("ACCEPTED", { checkin_date: "x" }))).to.deep.equal(["checkout", "undo-checkin"]);
    expect(actionsOf(r("CONFIRMED", { checkin_date: "x", checkout_date: "y" }))).to.deep.equal([
      "undo-checkout",
    ]);
    expect(actionsOf(r("CANCELLED"))).to.deep.equal([]);
  });
});
