import { expect } from "@open-wc/testing";
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
import { freeTime, staff } from "./env.js";

let slot: { date: string; hour: string; service_id: number };

async function book(first: string, email: string) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: slot.date,
      start_hour: slot.hour,
      pax: 2,
      service_id: slot.service_id,
      customer: { first_name: first, last_name: "Profile", email },
    },
  });
  if (r.status !== 201) throw new Error(`booking: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data[0] as Reservation;
}

before(async () => {
  await useConsoleRestaurant();
  slot = await freeTime(2, 2);
});

describe("<booking-console>: a guest", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible, shows the profile and its reservations, and saves tags and allergies", async () => {
    const r = await book("Marta", "marta@profile.example");
    const el = await openConsole(`/console/guests/${r.customer!.id}`);
    const view = await viewOf(el, "bc-guest-view");
    await byText(view, "h1", /Marta Profile/);
    await shown(view, `a[href="/console/reservations/${r.id}"]`);
    await expect(await settled(el)).to.be.accessible();
    const form = view.shadowRoot!.querySelector<HTMLFormElement>('form[part="profile"]')!;
    type(form.querySelector<HTMLInputElement>('[name="tags"]')!, "vip, regular");
    type(form.querySelector<HTMLTextAreaElement>('[name="allergies"]')!, "peanuts");
    form.requestSubmit();
    await byText(view, '[role="status"]', /Saved/);
    const c = (await staff(`customers/${r.customer!.id}`)).body.data[0];
    expect([c.tags, c.allergies]).to.deep.equal([["vip", "regular"], "peanuts"]);
  });

  it("merges another record of the same guest into this one", async () => {
    const keep = await book("Nina", "nina@profile.example");
    const dup = await book("Nina", "nina.other@profile.example");
    const el = await openConsole(`/console/guests/${keep.customer!.id}`);
    const view = await viewOf(el, "bc-guest-view");
    type(await shown<HTMLInputElement>(view, '[part="merge"] input'), "nina.other");
    (await byText<HTMLButtonElement>(view, "#merge-found button", /Nina Profile/)).click();
    (await byText<HTMLButtonElement>(view, "button", /^Merge$/)).click();
    await byText(view, '[role="status"]', /Merged/);
    const moved = (await staff(`reservations/${dup.id}`)).body.data[0] as Reservation;
    expect(moved.customer!.id).to.equal(keep.customer!.id);
  });
});
