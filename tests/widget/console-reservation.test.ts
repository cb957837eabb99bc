import { expect } from "@open-wc/testing";
import type { Reservation } from "../../widget/console/api.js";
import { actionsOf } from "../../widget/console/views/reservation-view.js";
import { addDays } from "../../widget/format.js";
import {
  byText,
  openConsole,
  settled,
  shown,
  signedIn,
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

const table = (name: string) =>
  (restaurant() as unknown as { tables: Record<string, { id: number }> }).tables[name]!.id;
const status = async (id: number) => ((await staff(`reservations/${id}`)).body.data[0] as Reservation).status;
const click = async (view: HTMLElement, text: RegExp) =>
  (await byText<HTMLButtonElement>(view, "button", text)).click();

before(async () => {
  await useConsoleRestaurant();
  slot = await freeTime(2, 3);
  void restaurant();
});

describe("<booking-console>: a reservation", () => {
  beforeEach(() => signedIn());

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
    // the focus is on what was done, not on the undo that took Seat's place
    expect(view.shadowRoot!.activeElement?.textContent).to.match(/Done: Seat\./);
    // history lines in words, not the API's codes
    await byText(view, "li", /Seated/);
    expect(view.shadowRoot!.querySelector("ol")!.textContent).not.to.match(/checkin|ACCEPTED|created/);
    await click(view, /Undo seating/);
    await byText(view, "dd", /Booked/);
    await expect(await settled(el)).to.be.accessible();
  });

  it("checks out with the focus away from Undo check-out", async () => {
    const r = await book("Leaves", { start_date: addDays(slot.date, 5) });
    await pinWorkerClock(new Date(romeInstant(addDays(slot.date, 5), slot.hour) + 30 * 60_000).toISOString());
    await signedIn();
    await staff(`reservations/${r.id}/checkin`, { method: "PATCH" });
    const el = await openConsole(`/console/day/${addDays(slot.date, 5)}`);
    const day = await viewOf(el, "bc-day-view");
    (await shown<HTMLAnchorElement>(day, `tr[data-id="${r.id}"] a`)).click();
    const view = await viewOf(el, "bc-reservation-view");
    // opening a reservation puts the focus on its heading, and it stays there once the data comes
    await byText(view, "h1", /Leaves Guest/);
    await byText(view, "dd", /Seated/);
    expect(view.shadowRoot!.activeElement?.tagName).to.equal("H1");
    await click(view, /^Check out$/);
    await byText(view, "dd", /Left/);
    await until(() => /Done: Check out\./.test(view.shadowRoot!.activeElement?.textContent ?? ""));
    expect(view.shadowRoot!.activeElement?.textContent).not.to.match(/Undo/);
  });

  it("takes back a no-show when the party comes late after all", async () => {
    const day = addDays(slot.date, 6);
    const r = await book("Late", { start_date: day });
    await pinWorkerClock(new Date(romeInstant(day, slot.hour) + 40 * 60_000).toISOString());
    await signedIn();
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    await click(view, /^No-show$/);
    // the safe answer has the focus
    await until(() => /Keep it/.test(view.shadowRoot!.activeElement?.textContent ?? ""));
    await click(view, /Yes: No-show/);
    await byText(view, "dd", /No-show/);
    await click(view, /Undo no-show/);
    await byText(view, "dd", /Booked/);
    expect(await status(r.id)).to.equal("ACCEPTED");
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

  it("asks before a larger party moves to another table, and says where it went", async () => {
    const r = await book("Grows", { table_ids: [table("S1")], start_date: addDays(slot.date, 2) });
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    const form = await shown<HTMLFormElement>(view, 'form[part="edit"]');
    type(form.querySelector<HTMLInputElement>('input[name="pax"]')!, "4");
    form.requestSubmit();
    const question = await shown(view, '[role="alertdialog"]');
    expect(question.textContent).to.match(/This change needs another table than S1\./);
    expect(question.textContent).to.match(/Table S1 cannot seat this party\./);
    await expect(await settled(el)).to.be.accessible();
    // nothing moved yet, and nothing was said to be saved
    const before = (await staff(`reservations/${r.id}`)).body.data[0] as Reservation;
    expect([before.pax, before.tables.map((t) => t.name)]).to.deep.equal([2, ["S1"]]);
    expect(view.shadowRoot!.textContent).not.to.match(/Saved/);
    await click(view, /Move to another table/);
    const said = await byText(view, '[role="status"]', /Saved\. Moved from S1 to /);
    const after = (await staff(`reservations/${r.id}`)).body.data[0] as Reservation;
    expect(after.pax).to.equal(4);
    expect(said.textContent).to.include(`to ${after.tables.map((t) => t.name).join(", ")}.`);
    expect(after.tables.map((t) => t.name)).not.to.include("S1");
  });

  it("keeps a party's table when a change still fits it", async () => {
    const r = await book("Shrinks", { pax: 4, table_ids: [table("S3")], start_date: addDays(slot.date, 3) });
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    const form = await shown<HTMLFormElement>(view, 'form[part="edit"]');
    type(form.querySelector<HTMLInputElement>('input[name="pax"]')!, "3");
    form.requestSubmit();
    await byText(view, '[role="status"]', /^Saved\.$/);
    const after = (await staff(`reservations/${r.id}`)).body.data[0] as Reservation;
    expect([after.pax, after.tables.map((t) => t.name)]).to.deep.equal([3, ["S3"]]);
  });

  it("changes the party and shows a refused field in the API's words at that field", async () => {
    const r = await book("Edit", { table_ids: [table("S3")], start_date: addDays(slot.date, 4) });
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
