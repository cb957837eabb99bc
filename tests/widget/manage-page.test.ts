import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import type { BookingCancelledDetail } from "../../widget/events.js";
import {
  atWorkerTime,
  bookAsGuest,
  freeTime,
  ownAddress,
  publicBase,
  restaurant,
  romeInstant,
  staff,
  until,
  useRestaurant,
} from "./env.js";
import { inShadow } from "./helpers.js";

async function newReservation() {
  const slot = await freeTime(2, 5);
  const r = await bookAsGuest({ ...slot, pax: 2 }, "Manage");
  if (r.status !== 201) throw new Error(`booking failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data![0]!;
}

const mount = (token: string) =>
  fixture<BookingEngine>(
    html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="manage" token=${token}></booking-engine>`,
  );

before(() => useRestaurant());

describe("<booking-engine page=manage>", () => {
  it("is accessible, shows the reservation, and cancels it after a confirm step", async () => {
    const booking = await newReservation();
    const el = await mount(booking.manage_token);
    const page = await inShadow(el, "be-manage-page");
    const cancel = await inShadow<HTMLButtonElement>(page, "#cancel");
    await expect(el).to.be.accessible();
    expect(page.shadowRoot!.textContent).to.include("Manage Guest");
    cancel.click();
    const confirm = await inShadow(page, "#confirm");
    expect(page.shadowRoot!.activeElement).to.equal(confirm);
    await expect(el).to.be.accessible();
    const cancelled = oneEvent(el, "booking-cancelled") as Promise<CustomEvent<BookingCancelledDetail>>;
    (await inShadow<HTMLButtonElement>(page, "button.danger")).click();
    const { detail } = await cancelled;
    expect(detail.reservation.status).to.equal("CANCELLED");
    await inShadow(page, "#done");
    expect(page.shadowRoot!.querySelector("#cancel")).to.equal(null);
    const again = await fetch(`${publicBase()}/manage/${booking.manage_token}`).then((r) => r.json());
    expect(again.data[0].status).to.equal("CANCELLED");
  });

  it("keeps the reservation when the guest says no", async () => {
    const booking = await newReservation();
    const el = await mount(booking.manage_token);
    const page = await inShadow(el, "be-manage-page");
    (await inShadow<HTMLButtonElement>(page, "#cancel")).click();
    await inShadow(page, "#confirm");
    [...page.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")]
      .find((b) => /keep/i.test(b.textContent!))!
      .click();
    const cancel = await inShadow(page, "#cancel");
    expect(page.shadowRoot!.activeElement).to.equal(cancel);
  });

  it("says the party has arrived once the staff checked it in, and offers no cancellation", async () => {
    const slot = await freeTime(2, 5);
    const r = await bookAsGuest({ ...slot, pax: 2 }, "Arrived");
    if (r.status !== 201) throw new Error(`booking failed: ${r.status} ${JSON.stringify(r.body)}`);
    const listed = await staff(`reservations?start_date=${slot.date}&end_date=${slot.date}`);
    const id = (listed.body.data as { id: number; customer: { email: string | null } | null }[]).find(
      (x) => x.customer?.email === "arrived@guest.example",
    )!.id;
    // the staff seat the party half an hour before its time, when check-in is open
    const seated = await atWorkerTime(romeInstant(slot.date, slot.hour) - 30 * 60_000, () =>
      staff(`reservations/${id}/checkin`, { method: "PATCH" }),
    );
    expect(seated.status).to.equal(200);
    const el = await mount(r.body.data![0]!.manage_token);
    const page = await inShadow(el, "be-manage-page");
    await until(() => page.shadowRoot!.textContent!.includes("checked in at the restaurant"));
    expect(page.shadowRoot!.querySelector("#cancel")).to.equal(null);
    expect(page.shadowRoot!.textContent).not.to.include("call the restaurant");
    await expect(el).to.be.accessible();
  });

  it("says so when the link is wrong", async () => {
    const el = await mount("not-a-real-token-000000000000000000");
    const page = await inShadow(el, "be-manage-page");
    const alert = await inShadow(page, '[role="alert"]');
    expect(alert.textContent).to.match(/not found/);
    await expect(el).to.be.accessible();
  });
});
